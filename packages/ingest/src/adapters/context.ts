import type { IngestSettings } from '../pipeline/settings';
import type { IngestEntry, SourceCursor } from '../types';
import { asChunks, type HttpClient, type PolitenessLease } from './http';

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

/** What a run over several cursor-paged queries has counted so far: entries that used up its budget, and the totals the API gave. */
export interface PagedRunCounts {
  stored: number;
  total: number;
}

/**
 * One query of a cursor-paged JSON API (OpenAlex, Crossref), page after page until the cursor runs out,
 * a page stores nothing or the run's item budget is used up. Each page is fetched within the run's
 * size cap and read with the format's reader, and its entries are passed on. `pageInfo` finds the
 * query's total (reported once, from the first page, added to the run's) and the next cursor in a page
 * document; `counts` says which entries use up the budget.
 */
export async function* fetchCursorPages(
  ctx: SourceRunContext,
  run: PagedRunCounts,
  query: {
    /** The query's address, without parameters. */
    address: string;
    /** The page's parameters for a cursor ('*' first) and a page size, in order; empty ones are left out. */
    params: (cursor: string, rows: number) => Record<string, string | undefined>;
    pageSize: number;
    politeness: { key: string; minIntervalMs: number };
    label: string;
    read: (
      bytes: AsyncIterable<Uint8Array>,
      options: FileReadOptions & { httpCharset?: string },
    ) => AsyncGenerator<IngestEntry, { document: unknown }>;
    counts: (entry: IngestEntry) => boolean;
    pageInfo: (document: unknown) => { total: unknown; nextCursor: string | undefined };
  },
): AsyncGenerator<IngestEntry, void> {
  let cursor: string | undefined = '*';
  while (cursor && run.stored < ctx.maxItems) {
    const budget = ctx.maxItems - run.stored;
    const url = new URL(query.address);
    for (const [name, value] of Object.entries(query.params(cursor, Math.min(query.pageSize, budget)))) {
      if (value) url.searchParams.set(name, value);
    }
    const body = await ctx.http.get(url.toString(), {
      politeness: query.politeness,
      maxBytes: ctx.maxBytes,
      signal: ctx.signal,
    });
    if (body.truncated) throw new Error(`${query.label} page is larger than ${ctx.maxBytes} bytes (maxBytes)`);
    const page = query.read(asChunks(body.bytes), { maxItems: budget, httpCharset: body.charset });
    let items = 0;
    let next = await page.next();
    while (!next.done) {
      if (query.counts(next.value)) items++;
      yield next.value;
      next = await page.next();
    }
    const { total, nextCursor } = query.pageInfo(next.value.document);
    if (cursor === '*' && typeof total === 'number') {
      run.total += total;
      ctx.reportTotal(Math.min(run.total, ctx.maxItems));
    }
    run.stored += items;
    cursor = items > 0 ? nextCursor : undefined;
  }
}
