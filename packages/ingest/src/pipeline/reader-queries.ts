import { summarySearchTerms, type TermWeighting } from '@radar/ai';
import type { Logger } from 'pino';
import { daysBefore, toDateString } from '../text/dates';
import type { IngestSummary } from './pipeline';
import { describeError, type IngestDeps, runSource, SourceRunError } from './run-source';
import { type SourceConfig, sourceConfigSchema } from './sources-config';

/**
 * The per-reader OpenAlex query: for each reader (enabled, verified, with an English research summary)
 * the most distinctive terms of the summary (summarySearchTerms), OR-ed, searched in OpenAlex works
 * published over the last LOOKBACK_DAYS days, best matches first, at most once a day per reader. The
 * papers are stored through the ordinary source run under one source name, READER_QUERY_SOURCE, so
 * `pnpm radar sources` shows one row and papers.source names OpenAlex, not the reader. Only with
 * OPENALEX_API_KEY (OpenAlex requires it) and a daily call budget above 0; every OpenAlex request,
 * retries included, counts against OPENALEX_READER_QUERIES_PER_DAY (UTC days, as OpenAlex counts).
 */

export const READER_QUERY_SOURCE = 'openalex-readers';
/** How far back a query looks: OpenAlex indexes works a few days after publication. */
const READER_QUERY_LOOKBACK_DAYS = 3;
/** Most papers one reader's query stores (one OpenAlex page). */
const READER_QUERY_MAX_ITEMS = 50;
/** How long a reader waits between two queries. */
const READER_QUERY_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** Most readers one run handles; the rest wait for the next run (hourly). */
const READER_QUERY_BATCH = 25;

/** The OpenAlex search of a reader's terms: phrases in quotes, OR-ed. */
function readerSearchQuery(terms: string[]): string {
  return terms
    .map((term) => term.replace(/["()]/g, ' ').replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .map((term) => (/^[\p{L}\p{N}]+$/u.test(term) && !/^(AND|OR|NOT)$/.test(term) ? term : `"${term}"`))
    .join(' OR ');
}

/** The source entry a reader's query runs as (in memory; never in the sources file). */
function readerQuerySource(terms: string[], baseUrl: string): SourceConfig {
  return sourceConfigSchema.parse({
    name: READER_QUERY_SOURCE,
    kind: 'openalex',
    search: readerSearchQuery(terms),
    sort: 'relevance_score:desc',
    lookbackDays: READER_QUERY_LOOKBACK_DAYS,
    perPage: READER_QUERY_MAX_ITEMS,
    maxItems: READER_QUERY_MAX_ITEMS,
    baseUrl,
  });
}

export interface ReaderQueryRunOptions {
  now?: Date;
  batchSize?: number;
  /** Idf of terms (the built-in model's vocabulary), to pick the rarest terms of a summary. */
  weighting?: TermWeighting | undefined;
  /** After each reader's query: enrichment of what it stored (vectors, summaries). */
  afterStore?: ((summary: IngestSummary) => Promise<void>) | undefined;
  logger?: Logger | undefined;
}

export type ReaderQueryReport =
  | { outcome: 'skipped'; reason: string }
  | {
      outcome: 'success';
      /** Readers whose query ran (with or without papers). */
      queried: number;
      /** Readers whose summary gave no search term (waiting a day too). */
      withoutTerms: number;
      failed: number;
      calls: number;
      added: number;
      /** Calls left of today's budget after the run. */
      budgetLeft: number;
    };

/** Whether the per-reader queries can run at all, and why not. */
export function readerQueriesOff(settings: IngestDeps['settings']): string | undefined {
  if (!settings.openAlexApiKey) return 'OPENALEX_API_KEY is not set';
  if (settings.openAlexReaderQueriesPerDay <= 0) return 'OPENALEX_READER_QUERIES_PER_DAY is 0';
  return undefined;
}

const startOfUtcDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));

/**
 * Runs the queries of the readers that are due, up to `batchSize` and while today's calls stay under
 * the budget. Idempotent: a reader is claimed before its query (a second run, here or in another
 * process, skips it) and waits READER_QUERY_INTERVAL_MS after it, whatever the outcome. A failed query
 * (OpenAlex down, a refused key) ends the run: the others wait for the next one.
 */
export async function runReaderQueries(
  deps: IngestDeps,
  options: ReaderQueryRunOptions = {},
): Promise<ReaderQueryReport> {
  const off = readerQueriesOff(deps.settings);
  if (off) return { outcome: 'skipped', reason: off };
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - READER_QUERY_INTERVAL_MS);
  const budget = deps.settings.openAlexReaderQueriesPerDay;
  const repository = deps.repositories.readerQueries;
  let used = await repository.callsSince(startOfUtcDay(now));
  const report = {
    outcome: 'success' as const,
    queried: 0,
    withoutTerms: 0,
    failed: 0,
    calls: 0,
    added: 0,
    budgetLeft: 0,
  };
  if (used >= budget) return { ...report, budgetLeft: 0 };

  const readers = await repository.listDue(cutoff, options.batchSize ?? READER_QUERY_BATCH);
  for (const reader of readers) {
    if (used >= budget) break;
    if (!(await repository.claim(reader.userId, now, cutoff))) continue;
    const terms = summarySearchTerms(reader.researchSummaryEn, { weighting: options.weighting });
    if (!terms.length) {
      await repository.record(reader.userId, { terms, calls: 0, added: 0 });
      report.withoutTerms++;
      continue;
    }
    let calls = 0;
    const source = readerQuerySource(terms, deps.settings.openAlexBaseUrl);
    let failure: unknown;
    let summary: IngestSummary | undefined;
    try {
      summary = await runSource(deps, source, {
        now,
        since: toDateString(daysBefore(now, READER_QUERY_LOOKBACK_DAYS)),
        onRequest: () => {
          calls++;
        },
      });
    } catch (error) {
      failure = error;
      // Items stored before the failure stay, and get their enrichment.
      if (error instanceof SourceRunError) summary = error.summary;
    }
    const added = summary?.counts.added ?? 0;
    await repository.record(reader.userId, {
      terms,
      calls,
      added,
      error: failure === undefined ? undefined : describeError(failure),
    });
    used += calls;
    report.calls += calls;
    report.added += added;
    if (summary) await options.afterStore?.(summary);
    if (failure !== undefined) {
      report.failed++;
      options.logger?.warn({ source: READER_QUERY_SOURCE, err: describeError(failure) }, 'reader query failed');
      break;
    }
    report.queried++;
  }
  return { ...report, budgetLeft: Math.max(0, budget - used) };
}
