import type { Database } from './connection';
import { EmbedderStateRepository } from './repositories/embedder-state.repository';
import { EmbeddingRepository } from './repositories/embedding.repository';
import { GistRepository } from './repositories/gist.repository';
import { IngestPaperRepository } from './repositories/ingest-paper.repository';
import { InterestRepository } from './repositories/interest.repository';
import { JournalRepository } from './repositories/journal.repository';
import { NewsRepository } from './repositories/news.repository';
import { PaperRepository } from './repositories/paper.repository';
import { ReaderFieldsRepository } from './repositories/reader-fields.repository';
import { ReaderQueryRepository } from './repositories/reader-query.repository';
import { SourceStateRepository } from './repositories/source.repository';
import { TierRefreshRepository } from './repositories/tier-refresh.repository';
import { VectorRepository } from './repositories/vector.repository';

/*
 * The repositories of @radar/ai and of @radar/ingest, each bundle built in one call. Those packages take
 * their repositories from whoever runs them instead of building them from a database handle, so only
 * the composition roots (the server's runtime, the worker app, the CLI's commands) and tests call these:
 * scripts/check-architecture.mjs counts a call of a `create...Repositories` function as constructing
 * repositories (rule repository-construction). The repositories hold no state, so one bundle serves a
 * whole process.
 */

/** What the embedding models, their re-embedding and the English gists (@radar/ai) read and write. */
export function createAiRepositories(db: Database) {
  return {
    embeddingModels: new EmbeddingRepository(db),
    embedderStates: new EmbedderStateRepository(db),
    vectors: new VectorRepository(db),
    interests: new InterestRepository(db),
    gists: new GistRepository(db),
    /** Items the re-embedding could not embed go to radar.ingest_rejects. */
    sourceStates: new SourceStateRepository(db),
  };
}

export type AiRepositories = ReturnType<typeof createAiRepositories>;

/** What ingestion (@radar/ingest: source runs, file and tier imports, content jobs, the demo) uses. */
export function createIngestRepositories(db: Database) {
  return {
    ingestPapers: new IngestPaperRepository(db),
    news: new NewsRepository(db),
    /** Only its ANALYZE after a load. */
    papers: new PaperRepository(db),
    journals: new JournalRepository(db),
    sourceStates: new SourceStateRepository(db),
    tierRefreshes: new TierRefreshRepository(db),
    readerFields: new ReaderFieldsRepository(db),
    readerQueries: new ReaderQueryRepository(db),
    /** The content-embed job's: the embedding model registry, the vectors, the English gists. */
    embeddingModels: new EmbeddingRepository(db),
    vectors: new VectorRepository(db),
    gists: new GistRepository(db),
  };
}

export type IngestRepositories = ReturnType<typeof createIngestRepositories>;
