import type { HttpClient, PolitenessLease } from '../http';
import type { IngestSettings } from '../settings';
import type { IngestEntry, SourceCursor } from '../types';

/** What a source adapter gets for one run. */
export interface SourceRunContext {
  settings: IngestSettings;
  http: HttpClient;
  /** Cross-process lease for hosts that allow one connection at a time (arXiv). */
  lease: PolitenessLease;
  /** What the previous successful run left (ingest_sources.cursor). */
  cursor: SourceCursor;
  /** `--since DATE` (YYYY-MM-DD): overrides the cursor for this run. */
  since: string | undefined;
  now: Date;
  maxItems: number;
  maxBytes: number;
  signal?: AbortSignal | undefined;
  /** The source's size when it says (OpenAlex count, arXiv totalResults), for progress bars. */
  reportTotal(total: number): void;
}

/** Entries of one run; the return value is the cursor the next run starts from. */
export type SourceRun = AsyncGenerator<IngestEntry, SourceCursor>;

/** Reading a local file in a source's format (air-gapped servers). */
export interface FileReadOptions {
  maxItems: number;
  /** The size of what was read, when the format says. */
  reportTotal?(total: number): void;
}
