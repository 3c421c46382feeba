import type { CrossLingualTexts, EmbeddingProvider } from '@radar/ai';
import type { IngestRepositories } from '@radar/db';
import { embedContent } from '@radar/ingest';
import type { ContentEmbedJob } from '@radar/shared';
import type { Logger } from 'pino';
import { defineJob } from '../job-definition';

/** Queue `content-embed`: new papers and news items get vectors (the rules are in @radar/ingest's content-embed). */
function createContentEmbedProcessor(deps: {
  repositories: Pick<IngestRepositories, 'embeddingModels' | 'vectors' | 'sourceStates' | 'gists'>;
  /** Asked per job: the active model can change between jobs (a refit activates a new version). */
  embedder: (() => Promise<EmbeddingProvider | undefined>) | undefined;
  /** What items are embedded from (the process's CrossLingualTexts). */
  texts?: CrossLingualTexts | undefined;
  logger?: Logger | undefined;
}) {
  return async (job: { data: ContentEmbedJob }) => {
    const embedder = await deps.embedder?.();
    return embedContent(deps.repositories, embedder, job.data, { logger: deps.logger, texts: deps.texts });
  };
}

export const contentEmbedJob = defineJob({
  queue: 'content-embed',
  processor: ({ repositories, content, logger }) =>
    createContentEmbedProcessor({
      repositories: repositories.ingest,
      embedder: content.embedder,
      texts: content.texts,
      logger,
    }),
});
