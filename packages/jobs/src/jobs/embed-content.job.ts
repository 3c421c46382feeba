import type { EmbeddingProvider } from '@radar/ai';
import type { Database } from '@radar/db';
import { embedContent } from '@radar/ingest';
import { contentEmbedJobSchema } from '@radar/shared';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';

/** Queue `content-embed`: new papers and news items get vectors (the rules are in @radar/ingest's content-embed). */
export function createContentEmbedProcessor(deps: {
  db: Database;
  /** Asked per job: the active model can change between jobs (a refit activates a new version). */
  embedder: (() => Promise<EmbeddingProvider | undefined>) | undefined;
  logger?: Logger | undefined;
}) {
  return async (job: { data: unknown }) => {
    const parsed = contentEmbedJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid content-embed payload: ${parsed.error.message}`);
    const embedder = await deps.embedder?.();
    return embedContent(deps.db, embedder, parsed.data, { logger: deps.logger });
  };
}
