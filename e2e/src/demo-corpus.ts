import { createIngestRepositories } from '@radar/db';
import { embedContent, loadDemoCorpus } from '@radar/ingest';
import type { E2eServer } from './server';

/** Ids per embedContent call, as the worker's content-embed jobs batch them. */
const EMBED_BATCH = 500;

/**
 * `pnpm radar demo` on the test database, then what the worker's content-embed jobs would do after it,
 * done here directly with the server's active built-in model: papers and news the recommendations
 * can rank.
 */
export async function loadEmbeddedDemoCorpus(server: E2eServer): Promise<void> {
  const repositories = createIngestRepositories(server.database.db);
  const { content } = await loadDemoCorpus(repositories);
  const embedder = await server.runtime.parts.ai.embeddings.active();
  for (const [target, ids] of [
    ['papers', content.newPaperIds],
    ['news', content.newNewsIds],
  ] as const) {
    for (let start = 0; start < ids.length; start += EMBED_BATCH) {
      await embedContent(repositories, embedder, { target, ids: ids.slice(start, start + EMBED_BATCH).map(Number) });
    }
  }
}
