import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database, Transaction } from '../connection';
import type { EmbeddingModelRow } from './embedding.repository';
import { runInOneTrip, setLocal } from './one-trip';

/*
 * Top-k by vector similarity over a table with per-model vectors (papers, news), routed by selectivity.
 * One implementation for every such search; the repositories add their own filters. Measured with
 * pgvector 0.8 on 2 cores (docs/decisions.md): a filtered HNSW walk without iterative scan found 21% of
 * the true top-k on a one-month window; a threshold inside the scan made an unsatisfiable one walk the
 * whole graph (89 ms) where a MATERIALIZED top-k with the threshold outside took ~1 ms; exact ranking of
 * a one-month window took 1.7 ms.
 */

/** The columns of a table searched by similarity. */
export interface VectorTable {
  table: PgTable;
  id: AnyPgColumn;
  embedding: AnyPgColumn;
  modelId: AnyPgColumn;
}

export type NearestStrategy = 'auto' | 'index' | 'exact';
export type NearestRoute = 'exact' | 'index' | 'index-then-exact';

/** Largest top-k any search asks for. */
export const MAX_NEAREST_RESULTS = 500;
/** Candidate list size of the HNSW search; higher finds more of the true neighbours, slower. */
const HNSW_MIN_EF_SEARCH = 100;
/**
 * Up to this many rows left by the filters (the planner's estimate), every one is ranked exactly instead
 * of walking the HNSW graph. Measured with bench:recommend on 2 cores (docs/benchmarks.md): at 1M x 128
 * the exact ranking of 1,700-6,600 rows took 18-35 ms at p95 with recall 1, where the filtered walk took
 * 52-111 ms with recall 0.84-0.94 (a filter keeping under 1 % of the rows starves the walk); at 100k the
 * walk is the faster one from about 3,000 rows (4,199 rows: walk 8.6 ms, recall 0.97; exact 10.7 ms). A
 * limit by the share of rows the filters keep would serve both; this one favours recall at scale. For
 * vectors of more than 128 dimensions the limit shrinks in proportion (exactSearchLimit()): a
 * 768-dimension vector is 3 KB, stored out of line, and ranking 2,500 of them read 22,000 buffers.
 */
const DEFAULT_EXACT_SEARCH_MAX_ROWS = 10_000;

const exactSearchLimit = (dimension: number, maxRows = DEFAULT_EXACT_SEARCH_MAX_ROWS) =>
  Math.round(maxRows * Math.min(1, 128 / Math.max(1, dimension)));

/**
 * The planner's row estimates by filter, kept a minute: an EXPLAIN per request costs a round trip and a
 * planning, and the estimate only decides the route (a wrong one is caught by the fallback). One cache
 * per repository, so per database.
 */
export class EstimateCache {
  private readonly entries = new Map<string, { rows: number; at: number }>();
  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 1_000,
  ) {}

  get(key: string, now = Date.now()): number | undefined {
    const entry = this.entries.get(key);
    return entry && now - entry.at < this.ttlMs ? entry.rows : undefined;
  }

  set(key: string, rows: number, now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { rows, at: now });
  }
}

/** A validated search with its SQL fragments. */
export interface PreparedNearest {
  target: VectorTable;
  topK: number;
  /** `model_id = <literal>`: the predicate of the model's partial HNSW index. */
  modelFilter: SQL;
  /** The caller's other filters (date, tier, institute ...). */
  filters: SQL[];
  /** Names the model and filters, for EstimateCache; undefined: the estimate is not cached. */
  filterKey: string | undefined;
  dimension: number;
  /** Cosine distance, written as the model's HNSW index expression so the planner can use it. */
  distance: SQL;
}

export function prepareNearest(
  target: VectorTable,
  query: { model: Pick<EmbeddingModelRow, 'id' | 'dimension'>; vector: number[]; topK: number },
  filters: SQL[] = [],
  /** What the filters select, as text (e.g. 'since=2026-11-16;tiers=4,3'), to cache their estimate. */
  filterKey?: string,
): PreparedNearest {
  const { model } = query;
  const modelId = sql.raw(String(Math.trunc(model.id)));
  return {
    target,
    topK: Math.min(Math.max(Math.trunc(query.topK), 1), MAX_NEAREST_RESULTS),
    modelFilter: sql`${target.modelId} = ${modelId}`,
    filters,
    filterKey: filterKey === undefined ? undefined : `m${Math.trunc(model.id)};${filterKey}`,
    dimension: Math.trunc(model.dimension),
    distance: distanceTo(target, model.dimension, query.vector),
  };
}

/** Cosine distance to a vector, written as the model's HNSW index expression so the planner can use it. */
function distanceTo(target: VectorTable, modelDimension: number, vector: number[]): SQL {
  if (vector.length !== modelDimension) {
    throw new RangeError(`query vector has ${vector.length} dimensions, model has ${modelDimension}`);
  }
  if (!vector.every(Number.isFinite)) throw new RangeError('query vector has non-finite values');
  // Integers from our own tables, inlined so the planner can match the partial expression index
  // (embedding.repository.ts), whose expression this repeats.
  const dimension = sql.raw(String(Math.trunc(modelDimension)));
  return sql`(${target.embedding}::vector(${dimension})) <=> ${`[${vector.join(',')}]`}::vector(${dimension})`;
}

/**
 * `id` not among these ids, as one text parameter (drizzle would expand an array into a list). Not part
 * of the estimate's cache key: a user's few dismissed rows barely move the planner's estimate.
 */
export function excludedIdsCondition(id: AnyPgColumn, ids: readonly number[] | undefined): SQL | undefined {
  const safe = (ids ?? []).filter((value) => Number.isSafeInteger(value) && value > 0);
  if (safe.length === 0) return undefined;
  return sql`NOT (${id} = ANY(string_to_array(${safe.join(',')}, ',')::bigint[]))`;
}

const where = (search: PreparedNearest) => sql.join([search.modelFilter, ...search.filters], sql` AND `);

/** What a routed search adds to its one statement: more CTEs, columns of the first row, columns per row. */
export interface NearestExtras {
  /** More CTE definitions (`name AS MATERIALIZED (...)`), e.g. a second top-k. */
  ctes?: SQL[];
  /** Columns computed once (from those CTEs), returned on every row as `meta_*` names. */
  metaColumns?: SQL[];
  /** Columns of each found row, over the searched table as `item` (e.g. another vector's similarity). */
  rowColumns?: SQL[];
}

/** The rows of a routed search, with what its one statement computed besides. */
export interface RoutedNearestResult {
  rows: { id: number; similarity: number; extra: Record<string, unknown> }[];
  route: NearestRoute;
  /** The columns of NearestExtras.metaColumns, by their names. */
  meta: Record<string, unknown>;
}

/**
 * The topK rows nearest to the vector that pass the filters, most similar first, with the route taken,
 * in ONE round trip (the planner settings travel with the statement, see one-trip.ts):
 * - exact: the filters leave at most exactSearchMaxRows rows, so all are ranked (the distance is ordered
 *   as `distance + 0`, an expression no HNSW index serves; bitmap scans of the date indexes stay on);
 * - index: otherwise the HNSW index is walked with pgvector's iterative scan, so filters do not starve
 *   the result, inside a MATERIALIZED top-k CTE (callers apply a threshold to the rows it returns);
 * - index-then-exact: the walk returned fewer than topK rows (the scan hit hnsw.max_scan_tuples, or the
 *   count was wrong), so the exact ranking answers instead, in the same statement (a one-time filter
 *   skips it otherwise): every query sees min(topK, eligible rows).
 * Which of exact and index: how many rows the filters leave, counted up to exactSearchMaxRows + 1 inside
 * the statement and kept a minute per filter (EstimateCache), so later requests skip the count.
 * `strategy` index or exact forces a route (tests, recall measurements); forced index has no fallback.
 */
export async function routedNearest(
  db: Database | Transaction,
  search: PreparedNearest,
  options: {
    strategy?: NearestStrategy | undefined;
    exactSearchMaxRows?: number | undefined;
    estimates?: EstimateCache | undefined;
    extras?: NearestExtras | undefined;
    /**
     * More query vectors (a reader's other interests): the same search, route and row columns for each,
     * in the same round trip; their rows come back in `others`, in this order.
     */
    otherVectors?: number[][] | undefined;
    /** Statements run after the search in the same round trip; their rows come back in `after`. */
    after?: SQL[] | undefined;
  } = {},
): Promise<RoutedNearestResult & { after: Record<string, unknown>[][]; others: RoutedNearestResult['rows'][] }> {
  const strategy = options.strategy ?? 'auto';
  const maxRows = options.exactSearchMaxRows ?? exactSearchLimit(search.dimension);
  let decision: 'exact' | 'index' | 'count' = strategy === 'exact' ? 'exact' : 'index';
  if (strategy === 'auto' && search.filters.length > 0) {
    const known = search.filterKey === undefined ? undefined : options.estimates?.get(search.filterKey);
    decision = known === undefined ? 'count' : known <= maxRows ? 'exact' : 'index';
  }
  const fallback = strategy === 'auto';
  const statement = nearestStatement(search, { decision, fallback, maxRows }, options.extras ?? {});
  const otherVectors = options.otherVectors ?? [];
  const otherStatements = otherVectors.map((vector) =>
    nearestStatement(
      { ...search, distance: distanceTo(search.target, search.dimension, vector) },
      { decision, fallback, maxRows },
      { rowColumns: options.extras?.rowColumns },
    ),
  );
  const [, ...results] = await runInOneTrip(db, [
    ...setLocal(routeSettings(search, decision === 'exact' ? 'exact' : 'index')),
    statement,
    ...otherStatements,
    ...(options.after ?? []),
  ]);
  // runInOneTrip returns one list per statement; the settings are one statement each.
  const settingCount = Object.keys(routeSettings(search, 'index')).length;
  const searchRows = results[settingCount - 1] ?? [];
  const others = results.slice(settingCount, settingCount + otherVectors.length).map(toNearestRows);
  const after = results.slice(settingCount + otherVectors.length);
  const first = searchRows[0] ?? {};
  const counted = first.eligible === null || first.eligible === undefined ? undefined : Number(first.eligible);
  if (counted !== undefined && search.filterKey !== undefined) options.estimates?.set(search.filterKey, counted);
  const usedIndex = decision === 'index' || (decision === 'count' && counted !== undefined && counted > maxRows);
  const indexRows = Number(first.index_rows ?? 0);
  const route: NearestRoute =
    strategy === 'index' ? 'index' : !usedIndex ? 'exact' : indexRows < search.topK ? 'index-then-exact' : 'index';
  const meta = Object.fromEntries(
    Object.entries(first)
      .filter(([name]) => name.startsWith('meta_'))
      .map(([name, value]) => [name.slice('meta_'.length), value]),
  );
  return { rows: toNearestRows(searchRows), route, meta, after, others };
}

/** The found rows of a nearestStatement, most similar first, with their `x_*` columns. */
function toNearestRows(searchRows: Record<string, unknown>[]): RoutedNearestResult['rows'] {
  return searchRows
    .filter((row) => row.id !== null && row.id !== undefined)
    .map((row) => {
      const extra: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(row)) if (name.startsWith('x_')) extra[name.slice(2)] = value;
      return { id: Number(row.id), similarity: 1 - Number(row.distance), extra };
    })
    .sort((a, b) => b.similarity - a.similarity || a.id - b.id);
}

/** The plan of a route, to check which index it uses. */
export async function explainNearest(tx: Transaction, search: PreparedNearest, route: 'index' | 'exact') {
  await applyRouteSettings(tx, search, route);
  const statement = nearestStatement(search, { decision: route, fallback: false, maxRows: 0 }, {});
  const result = await tx.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN ${statement}`);
  return result.rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** The planner settings of a route. `iterativeScan` off is for a plain top-k without filters. */
function routeSettings(
  search: Pick<PreparedNearest, 'topK'>,
  route: 'index' | 'exact',
  iterativeScan: 'relaxed_order' | 'off' = 'relaxed_order',
): Record<string, string> {
  return {
    'hnsw.iterative_scan': route === 'exact' ? 'off' : iterativeScan,
    'hnsw.ef_search': String(Math.max(HNSW_MIN_EF_SEARCH, search.topK * 2)),
    // Rules out "filter, then sort by distance" for the index walks (the route's, and a plain top-k
    // beside it), leaving the index's own ordering; the exact ranking orders by an expression no index
    // serves, so it sorts anyway.
    enable_sort: 'off',
    // enable_sort = off prices a sort at 10^10, far past jit_above_cost: PostgreSQL would then spend about
    // half a second compiling a millisecond query (measured).
    jit: 'off',
  };
}

/**
 * The planner settings of a route, for the rest of the transaction, in one round trip (callers that
 * run their own statements in a transaction: the '(filtered out N)' count of old, EXPLAIN).
 */
async function applyRouteSettings(
  tx: Transaction,
  search: Pick<PreparedNearest, 'topK'>,
  route: 'index' | 'exact',
  iterativeScan: 'relaxed_order' | 'off' = 'relaxed_order',
): Promise<void> {
  const settings = routeSettings(search, route, iterativeScan);
  const calls = Object.entries(settings).map(([name, value]) => sql`set_config(${name}, ${value}, true)`);
  await tx.execute(sql`SELECT ${sql.join(calls, sql`, `)}`);
}

/**
 * One statement for every route: `eligible` counts the filtered rows up to maxRows + 1 (decision
 * count), `by_index` walks the HNSW index, `by_exact` ranks every filtered row; one-time filters run
 * only the CTEs the decision needs. Returns at least one row (meta columns on it), rows of the result
 * with an id.
 */
function nearestStatement(
  search: PreparedNearest,
  plan: { decision: 'exact' | 'index' | 'count'; fallback: boolean; maxRows: number },
  extras: NearestExtras,
): SQL {
  const { target } = search;
  const k = sql.raw(String(search.topK));
  const maxRows = Math.max(0, Math.trunc(plan.maxRows));
  const small = sql`((SELECT n FROM eligible) <= ${sql.raw(String(maxRows))})`;
  const useIndex = plan.decision === 'index' ? sql`true` : plan.decision === 'exact' ? sql`false` : sql`NOT ${small}`;
  const useExact =
    plan.decision === 'exact'
      ? sql`true`
      : plan.decision === 'index'
        ? plan.fallback
          ? sql`((SELECT count(*) FROM by_index) < ${k})`
          : sql`false`
        : sql`(${small} OR (SELECT count(*) FROM by_index) < ${k})`;
  const ctes: SQL[] = [
    plan.decision === 'count'
      ? sql`eligible AS MATERIALIZED (SELECT count(*)::int AS n FROM (SELECT 1 FROM ${target.table} WHERE ${where(search)} LIMIT ${sql.raw(String(maxRows + 1))}) s)`
      : sql`eligible AS MATERIALIZED (SELECT NULL::int AS n)`,
    sql`by_index AS MATERIALIZED (
      SELECT ${target.id} AS id, ${search.distance} AS distance FROM ${target.table}
      WHERE ${where(search)} AND ${useIndex}
      ORDER BY ${search.distance} LIMIT ${k})`,
    sql`by_exact AS MATERIALIZED (
      SELECT ${target.id} AS id, ${search.distance} AS distance FROM ${target.table}
      WHERE ${where(search)} AND ${useExact}
      ORDER BY (${search.distance}) + 0 LIMIT ${k})`,
    sql`nearest AS (
      SELECT id, distance FROM by_exact
      UNION ALL SELECT id, distance FROM by_index WHERE NOT EXISTS (SELECT 1 FROM by_exact))`,
    ...(extras.ctes ?? []),
    sql`meta AS (SELECT (SELECT n FROM eligible) AS eligible, (SELECT count(*)::int FROM by_index) AS index_rows
      ${extras.metaColumns?.length ? sql`, ${sql.join(extras.metaColumns, sql`, `)}` : sql``})`,
  ];
  const rowColumns = extras.rowColumns?.length ? sql`, ${sql.join(extras.rowColumns, sql`, `)}` : sql``;
  return sql`WITH ${sql.join(ctes, sql`,\n`)}
    SELECT meta.*, r.id, r.distance ${rowColumns}
    FROM meta LEFT JOIN nearest r ON true
    LEFT JOIN ${target.table} item ON item.id = r.id`;
}
