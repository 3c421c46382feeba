import { asChunks, type HttpClient, type PolitenessLease } from '../http';
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

/**
 * One page of a cursor-paged JSON API (OpenAlex, Crossref): fetched within the run's size cap and read
 * with the format's reader; its entries are passed on, and the page document comes back for the
 * next cursor and the total. `counts` says which entries use up the run's item budget.
 */
export async function* fetchJsonPage(
  ctx: SourceRunContext,
  request: {
    url: URL;
    politeness: { key: string; minIntervalMs: number };
    label: string;
    read: (
      bytes: AsyncIterable<Uint8Array>,
      options: FileReadOptions & { httpCharset?: string },
    ) => AsyncGenerator<IngestEntry, { document: unknown }>;
    maxItems: number;
    counts: (entry: IngestEntry) => boolean;
  },
): AsyncGenerator<IngestEntry, { document: unknown; items: number }> {
  const body = await ctx.http.get(request.url.toString(), {
    politeness: request.politeness,
    maxBytes: ctx.maxBytes,
    signal: ctx.signal,
  });
  if (body.truncated) throw new Error(`${request.label} page is larger than ${ctx.maxBytes} bytes (maxBytes)`);
  const page = request.read(asChunks(body.bytes), { maxItems: request.maxItems, httpCharset: body.charset });
  let items = 0;
  let next = await page.next();
  while (!next.done) {
    if (request.counts(next.value)) items++;
    yield next.value;
    next = await page.next();
  }
  return { document: next.value.document, items };
}
