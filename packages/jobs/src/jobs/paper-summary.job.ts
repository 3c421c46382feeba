import type { LanguageModel } from '@radar/ai';
import type { IngestRepositories } from '@radar/db';
import { summarizePapers } from '@radar/ingest';
import type { PaperSummaryJob } from '@radar/shared';
import type { Logger } from 'pino';

/** Queue `paper-summary`: LLM summaries of papers (the rules are in @radar/ingest's paper-summaries). */
export function createPaperSummaryProcessor(deps: {
  repositories: Pick<IngestRepositories, 'ingestPapers' | 'sourceStates'>;
  llm: LanguageModel | undefined;
  language: string;
  logger?: Logger | undefined;
}) {
  return async (job: { data: PaperSummaryJob }) => {
    return summarizePapers(deps.repositories, deps.llm, job.data, { language: deps.language, logger: deps.logger });
  };
}
