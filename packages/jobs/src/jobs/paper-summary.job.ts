import type { LanguageModel } from '@radar/ai';
import type { IngestRepositories } from '@radar/db';
import { summarizePapers } from '@radar/ingest';
import type { PaperSummaryJob } from '@radar/shared';
import type { Logger } from 'pino';
import { defineJob } from '../job-definition';

/** Queue `paper-summary`: LLM summaries of papers (the rules are in @radar/ingest's paper-summaries). */
function createPaperSummaryProcessor(deps: {
  repositories: Pick<IngestRepositories, 'ingestPapers' | 'sourceStates'>;
  llm: LanguageModel | undefined;
  language: string;
  logger?: Logger | undefined;
}) {
  return async (job: { data: PaperSummaryJob }) => {
    return summarizePapers(deps.repositories, deps.llm, job.data, { language: deps.language, logger: deps.logger });
  };
}

export const paperSummaryJob = defineJob({
  queue: 'paper-summary',
  processor: ({ repositories, content, ingest, logger }) =>
    createPaperSummaryProcessor({
      repositories: repositories.ingest,
      llm: content.llm,
      language: ingest.summaryLanguage,
      logger,
    }),
  // Hourly: summaries of recent papers that still lack one (LLM added later, failures).
  schedules: [{ id: 'summarize-recent-papers', pattern: '23 * * * *', data: {} }],
});
