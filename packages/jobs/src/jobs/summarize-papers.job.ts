import type { LanguageModel } from '@radar/ai';
import type { Database } from '@radar/db';
import { summarizePapers } from '@radar/ingest';
import { paperSummaryJobSchema } from '@radar/shared';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';

/** Queue `paper-summary`: LLM summaries of papers (the rules are in @radar/ingest's paper-summaries). */
export function createPaperSummaryProcessor(deps: {
  db: Database;
  llm: LanguageModel | undefined;
  language: string;
  logger?: Logger | undefined;
}) {
  return async (job: { data: unknown }) => {
    const parsed = paperSummaryJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid paper-summary payload: ${parsed.error.message}`);
    return summarizePapers(deps.db, deps.llm, parsed.data, { language: deps.language, logger: deps.logger });
  };
}
