import type { IngestRepositories } from '@radar/db';
import { type DecodeWarning, decodeBytes } from '../adapters/decode';
import { HttpClient } from '../adapters/http';
import { asArray, asString, isRecord } from '../adapters/json-reader';
import type { IngestSettings } from '../pipeline/settings';
import { collectIssns } from '../text/identifiers';
import { PermanentSourceError, TransientSourceError } from '../types';
import { importTierTable, tierYearOfLabel } from './tier-import';
import { parseTierTable, TierTableError } from './tier-table';

/**
 * Journal tiers with no operator step.
 *
 * SCImago: the export of all journals (`journalrank.php?out=xls`, a `;`-separated CSV despite its name) is
 * fetched when no SCImago tiers of the current or the previous year are stored, and at most once per
 * `scimagoRefetchAfterDays` after a fetch that brought no such year (SCImago publishes a year's ranking
 * in the spring of the next). It is imported exactly as `pnpm radar journals import` imports the file,
 * except that a journal whose tier an operator imported (tier_system 'imported': JCR, 中科院分区) keeps it.
 *
 * OpenAlex (with OPENALEX_API_KEY): journals that stored papers reference by ISSN but that have no tier
 * get the quartile of their source's `summary_stats.2yr_mean_citedness` among journals of the same
 * OpenAlex field (the field that most of the source's topics belong to). The quartile boundaries come
 * from a random sample of OpenAlex journals drawn once a year; a field with too few sampled journals
 * uses the boundaries of all of them. SCImago and imported tiers always win over OpenAlex ones.
 */

export type TierRefreshResult =
  | { outcome: 'skipped'; reason: string }
  | ({ outcome: 'success'; year: number | null; requests: number } & Record<string, unknown>);

const DAY_MS = 86_400_000;

function tierHttp(settings: IngestSettings): HttpClient {
  return new HttpClient({
    userAgent: settings.userAgent,
    timeoutMs: settings.httpTimeoutMs,
    maxAttempts: settings.httpMaxAttempts,
    retryBaseDelayMs: settings.httpRetryBaseDelayMs,
    maxRetryAfterMs: settings.maxRetryAfterMs,
  });
}

const endpoint = (base: string, path: string) => new URL(`${base.replace(/\/+$/, '')}${path}`);

/** What the tier refreshes write through: the journals, their refresh state, the papers' ANALYZE. */
export type TierRefreshRepositories = Pick<IngestRepositories, 'journals' | 'tierRefreshes' | 'papers'>;

export async function refreshScimagoTiers(
  repositories: TierRefreshRepositories,
  settings: IngestSettings,
  options: { now?: Date; force?: boolean; signal?: AbortSignal } = {},
): Promise<TierRefreshResult> {
  const now = options.now ?? new Date();
  const { journals, tierRefreshes: refreshes } = repositories;
  const currentYear = now.getUTCFullYear();
  if (!options.force) {
    const latest = await journals.latestTierYear('scimago');
    if (latest !== undefined && latest >= currentYear - 1) {
      return { outcome: 'skipped', reason: `SCImago tiers of ${latest} are stored` };
    }
    const state = await refreshes.get('scimago');
    const waitMs = settings.tiers.scimagoRefetchAfterDays * DAY_MS;
    if (state?.lastSuccessAt && now.getTime() - state.lastSuccessAt.getTime() < waitMs) {
      return {
        outcome: 'skipped',
        reason: `fetched on ${state.lastSuccessAt.toISOString().slice(0, 10)} (year ${state.year ?? 'unknown'}); the next try is ${settings.tiers.scimagoRefetchAfterDays} days after that`,
      };
    }
  }
  await refreshes.recordAttempt('scimago', now);
  try {
    const url = endpoint(settings.tiers.scimagoBaseUrl, '/journalrank.php');
    url.searchParams.set('out', 'xls');
    const body = await tierHttp(settings).get(url.toString(), {
      headers: { accept: 'text/csv, text/plain;q=0.9, */*;q=0.5' },
      maxBytes: settings.tiers.maxExportBytes,
      signal: options.signal,
    });
    if (body.truncated) {
      throw new PermanentSourceError(`the SCImago export is larger than ${settings.tiers.maxExportBytes} bytes`);
    }
    const warnings: DecodeWarning[] = [];
    const text = decodeBytes(body.bytes, { httpCharset: body.charset, warnings });
    if (/^\s*<(?:!doctype|html)/i.test(text)) {
      // SCImago sits behind a bot check that sometimes answers a challenge page instead of the file.
      throw new TransientSourceError(
        'SCImago answered an HTML page instead of the CSV export (a bot check?); it is tried again later, or import the file with `pnpm radar journals import`',
      );
    }
    let table: ReturnType<typeof parseTierTable>;
    try {
      table = parseTierTable(text, {});
    } catch (error) {
      if (error instanceof TierTableError) throw new PermanentSourceError(`the SCImago export: ${error.message}`);
      throw error;
    }
    if (table.format !== 'scimago' || table.rows.length === 0) {
      throw new PermanentSourceError(
        `the SCImago export has ${table.rows.length} usable rows in ${table.format} format (expected SCImago's columns Sourceid, Issn, SJR Best Quartile)`,
      );
    }
    const year = tierYearOfLabel(table.label) ?? null;
    const imported = await importTierTable(repositories, table, {
      system: 'scimago',
      year: year ?? undefined,
      keepSystems: ['imported'],
    });
    const summary = {
      label: imported.label,
      rows: imported.rows,
      journalsAdded: imported.journalsAdded,
      journalsUpdated: imported.journalsUpdated,
      journalsUnchanged: imported.journalsUnchanged,
      journalsKept: imported.journalsKept,
      rowsSkipped: imported.rejects.length,
      papersLinked: imported.papersLinked,
      papersRetiered: imported.papersRetiered,
    };
    await refreshes.recordSuccess('scimago', { at: now, year, summary });
    return { outcome: 'success', year, requests: 1, ...summary };
  } catch (error) {
    await refreshes.recordFailure('scimago', (error as Error).message.slice(0, 500));
    throw error;
  }
}

/** Quartile boundaries of one field: tier 1 at or above q75, 2 at or above q50, 3 at or above q25. */
export interface FieldQuartiles {
  q75: number;
  q50: number;
  q25: number;
  /** Journals of the sample behind them. */
  n: number;
}

/** Fields with fewer sampled journals than this use the boundaries of the whole sample. */
const MIN_FIELD_SAMPLE = 30;
/** The whole sample's boundaries, in the same map. */
const ALL_FIELDS = 'all';
/** ISSNs OR-ed in one OpenAlex filter (OpenAlex accepts up to 100). */
const ISSNS_PER_REQUEST = 50;
const SAMPLE_PAGE_SIZE = 200;

/** The value at quantile `q` (0-1) of ascending `sorted`, by linear interpolation. */
function quantile(sorted: number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const a = sorted[low] ?? 0;
  const b = sorted[high] ?? a;
  return a + (b - a) * (position - low);
}

function fieldQuartiles(valuesByField: Map<string, number[]>): Record<string, FieldQuartiles> {
  const result: Record<string, FieldQuartiles> = {};
  const all: number[] = [];
  const boundaries = (values: number[]): FieldQuartiles => {
    const sorted = [...values].sort((a, b) => a - b);
    return { q75: quantile(sorted, 0.75), q50: quantile(sorted, 0.5), q25: quantile(sorted, 0.25), n: sorted.length };
  };
  for (const [field, values] of valuesByField) {
    all.push(...values);
    if (values.length >= MIN_FIELD_SAMPLE) result[field] = boundaries(values);
  }
  if (all.length > 0) result[ALL_FIELDS] = boundaries(all);
  return result;
}

/** Tier 1-4 of a two-year mean citedness within its field's boundaries (the whole sample's without them). */
function openAlexTier(
  value: number,
  field: string | undefined,
  quartiles: Record<string, FieldQuartiles>,
): number | undefined {
  const bounds = (field ? quartiles[field] : undefined) ?? quartiles[ALL_FIELDS];
  if (!bounds) return undefined;
  if (value >= bounds.q75) return 1;
  if (value >= bounds.q50) return 2;
  if (value >= bounds.q25) return 3;
  return 4;
}

/** The OpenAlex field id ("27") most of a source's topics belong to, weighted by their work counts. */
function sourceField(source: Record<string, unknown>): string | undefined {
  const weights = new Map<string, number>();
  for (const topic of asArray(source.topics).filter(isRecord)) {
    const field = isRecord(topic.field) ? asString(topic.field.id) : undefined;
    const id = field?.replace(/^https?:\/\/openalex\.org\/fields\//i, '');
    if (!id) continue;
    const count = typeof topic.count === 'number' && topic.count > 0 ? topic.count : 1;
    weights.set(id, (weights.get(id) ?? 0) + count);
  }
  let best: string | undefined;
  for (const [id, weight] of weights) if (best === undefined || weight > (weights.get(best) ?? 0)) best = id;
  return best;
}

function meanCitedness(source: Record<string, unknown>): number | undefined {
  const stats = isRecord(source.summary_stats) ? source.summary_stats : {};
  const value = stats['2yr_mean_citedness'];
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Counts the OpenAlex requests of one run against its cap. */
class RequestBudget {
  used = 0;
  constructor(readonly limit: number) {}
  get left() {
    return this.limit - this.used;
  }
}

async function getOpenAlexResults(
  http: HttpClient,
  url: URL,
  settings: IngestSettings,
  budget: RequestBudget,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>[]> {
  if (settings.openAlexApiKey) url.searchParams.set('api_key', settings.openAlexApiKey);
  budget.used++;
  const body = await http.get(url.toString(), {
    headers: { accept: 'application/json' },
    politeness: { key: 'openalex', minIntervalMs: 100 },
    maxBytes: settings.maxFeedBytes,
    signal,
  });
  let document: unknown;
  try {
    document = JSON.parse(decodeBytes(body.bytes, { httpCharset: body.charset, warnings: [] }));
  } catch {
    throw new PermanentSourceError(`OpenAlex answered something that is not JSON (${url.pathname})`);
  }
  if (!isRecord(document) || !Array.isArray(document.results)) {
    throw new PermanentSourceError(`OpenAlex answered JSON without results (${url.pathname})`);
  }
  return document.results.filter(isRecord);
}

export async function refreshOpenAlexTiers(
  repositories: TierRefreshRepositories,
  settings: IngestSettings,
  options: { now?: Date; signal?: AbortSignal } = {},
): Promise<TierRefreshResult> {
  if (!settings.openAlexApiKey) return { outcome: 'skipped', reason: 'no OPENALEX_API_KEY set' };
  const now = options.now ?? new Date();
  const year = now.getUTCFullYear();
  const { tiers } = settings;
  const { journals, tierRefreshes: refreshes } = repositories;
  const state = await refreshes.get('openalex');
  const stored = state?.year === year && isRecord(state.state.quartiles) ? state.state.quartiles : undefined;
  const samplePages = Math.ceil(tiers.openAlexSampleSize / SAMPLE_PAGE_SIZE);
  const budget = new RequestBudget(tiers.openAlexMaxRequests);
  const batchRequests = budget.left - (stored ? 0 : samplePages);
  if (batchRequests < 1) {
    return { outcome: 'skipped', reason: `openAlexMaxRequests (${budget.limit}) leaves no request for journals` };
  }
  // Two ISSNs per journal at most: a batch of 50 values covers at least 25 journals.
  const candidates = await journals.listOpenAlexTierCandidates(
    batchRequests * Math.floor(ISSNS_PER_REQUEST / 2),
    new Date(now.getTime() - tiers.openAlexRecheckDays * DAY_MS),
  );
  if (candidates.length === 0) return { outcome: 'skipped', reason: 'no journal without a tier to look up' };

  await refreshes.recordAttempt('openalex', now);
  const http = tierHttp(settings);
  try {
    let quartiles = stored as Record<string, FieldQuartiles> | undefined;
    if (!quartiles) {
      const valuesByField = new Map<string, number[]>();
      for (let page = 1; page <= samplePages; page++) {
        const url = endpoint(tiers.openAlexBaseUrl, '/sources');
        url.searchParams.set('filter', 'type:journal,works_count:>100,summary_stats.2yr_mean_citedness:>0');
        url.searchParams.set('sample', String(tiers.openAlexSampleSize));
        url.searchParams.set('seed', String(year));
        url.searchParams.set('per-page', String(SAMPLE_PAGE_SIZE));
        url.searchParams.set('page', String(page));
        url.searchParams.set('select', 'id,summary_stats,topics');
        const results = await getOpenAlexResults(http, url, settings, budget, options.signal);
        for (const source of results) {
          const value = meanCitedness(source);
          if (value === undefined) continue;
          const field = sourceField(source) ?? ALL_FIELDS;
          valuesByField.set(field, [...(valuesByField.get(field) ?? []), value]);
        }
        if (results.length < SAMPLE_PAGE_SIZE) break;
      }
      quartiles = fieldQuartiles(valuesByField);
      if (!quartiles[ALL_FIELDS]) throw new TransientSourceError('the OpenAlex journal sample came back empty');
    }

    const tiered: { id: number; tier: number }[] = [];
    const checked: number[] = [];
    const byIssn = new Map<string, number>();
    let batch: string[] = [];
    let batchIds: number[] = [];
    const lookUp = async () => {
      if (batch.length === 0) return;
      const url = endpoint(tiers.openAlexBaseUrl, '/sources');
      url.searchParams.set('filter', `issn:${batch.map((issn) => `${issn.slice(0, 4)}-${issn.slice(4)}`).join('|')}`);
      url.searchParams.set('per-page', '100');
      url.searchParams.set('select', 'id,issn_l,issn,display_name,summary_stats,topics');
      const results = await getOpenAlexResults(http, url, settings, budget, options.signal);
      const done = new Set<number>();
      for (const source of results) {
        const value = meanCitedness(source);
        const issns = collectIssns([...asArray(source.issn).map(asString), asString(source.issn_l)]);
        const id = issns.map((issn) => byIssn.get(issn)).find((value) => value !== undefined);
        if (id === undefined || done.has(id)) continue;
        done.add(id);
        const tier = value === undefined ? undefined : openAlexTier(value, sourceField(source), quartiles);
        if (tier !== undefined) tiered.push({ id, tier });
      }
      checked.push(...batchIds);
      batch = [];
      batchIds = [];
    };
    for (const journal of candidates) {
      const issns = [journal.issn, journal.eissn].filter((issn): issn is string => Boolean(issn));
      if (batch.length + issns.length > ISSNS_PER_REQUEST) {
        if (budget.left < 1) break;
        await lookUp();
      }
      for (const issn of issns) byIssn.set(issn, journal.id);
      batch.push(...issns);
      batchIds.push(journal.id);
    }
    if (budget.left >= 1) await lookUp();

    const journalsTiered = await journals.applyOpenAlexTiers(tiered, checked, year, now);
    const papersRetiered = await journals.refreshPaperTiers();
    if (papersRetiered > 0) await repositories.papers.analyze();
    const summary = {
      journalsLookedUp: checked.length,
      journalsFound: tiered.length,
      journalsTiered,
      papersRetiered,
      requests: budget.used,
      requestLimit: budget.limit,
    };
    await refreshes.recordSuccess('openalex', { at: now, year, summary, state: { quartiles } });
    return { outcome: 'success', year, ...summary };
  } catch (error) {
    await refreshes.recordFailure('openalex', (error as Error).message.slice(0, 500));
    throw error;
  }
}
