import { getTableName, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database, Transaction } from '../connection';
import { type EmbeddingModelRow, embeddingIndexName } from './embedding.repository';
import { requestValue, runPreparedInOneTrip, setLocal } from './one-trip';

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
/**
 * Candidate list size of the HNSW search for a corpus of up to CORPUS_SCALE_ROWS rows; higher finds more
 * of the true neighbours, slower. Larger corpora walk a longer list (corpusScale()).
 */
const HNSW_MIN_EF_SEARCH = 100;
/** pgvector's largest hnsw.ef_search. */
const HNSW_MAX_EF_SEARCH = 1_000;
/**
 * Up to this many rows left by the filters (counted, then cached), every one is ranked exactly instead
 * of walking the HNSW graph, for a corpus of up to CORPUS_SCALE_ROWS rows; larger corpora rank more
 * exactly (corpusScale()). Measured with bench:recommend on 2 cores (docs/benchmarks.md): at 100k the walk
 * is the faster one from about 3,000 rows (4,199 rows: walk 8.6 ms, recall 0.97; exact 10.7 ms); at 1M a
 * filter keeping about 1 % of the rows starves the walk (10,907 rows: walk p95 40-49 ms, recall 0.98;
 * exact 35 ms, recall 1). For vectors of more than 128 dimensions the limit shrinks in proportion
 * (exactSearchLimit()): a 768-dimension vector is 3 KB, stored out of line, and ranking 2,500 of them
 * read 22,000 buffers.
 */
const DEFAULT_EXACT_SEARCH_MAX_ROWS = 10_000;
/**
 * The model's row count up to which the defaults above hold. Beyond it both grow with the square root of
 * the corpus: a filtered walk visits about k / (share of rows kept) tuples while the exact ranking reads
 * every kept row, so their break-even count grows as sqrt(k x rows); and the unfiltered walk of a larger
 * graph needs a longer candidate list for the same recall. Measured at 1M x 128 (scale 2: ef_search 200,
 * 20,000 rows): recall@20 0.988-1.000 in every cell with SQL p95 <= 35 ms, where ef_search 100 found
 * 0.875 of the true top 20 unfiltered (docs/benchmarks.md, 2026-11-27 afternoon).
 */
const CORPUS_SCALE_ROWS = 250_000;

/** How much longer the walk and the exact limit are for a model with that many rows (1 when unknown). */
export function corpusScale(modelRows: number | undefined): number {
  if (modelRows === undefined || !Number.isFinite(modelRows) || modelRows <= CORPUS_SCALE_ROWS) return 1;
  return Math.sqrt(modelRows / CORPUS_SCALE_ROWS);
}

const exactSearchLimit = (dimension: number, scale = 1) =>
  Math.round(DEFAULT_EXACT_SEARCH_MAX_ROWS * scale * Math.min(1, 128 / Math.max(1, dimension)));

const efSearchFor = (topK: number, scale = 1) =>
  Math.min(HNSW_MAX_EF_SEARCH, Math.max(Math.round(HNSW_MIN_EF_SEARCH * scale), topK * 2));

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
  /** EstimateCache key of the model's row count (the statistics of its partial HNSW index). */
  modelRowsKey: string;
  /** `radar.<the model's HNSW index>`, whose statistics say how many rows the model has. */
  modelIndex: string;
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
    modelRowsKey: `m${Math.trunc(model.id)};${getTableName(target.table)};rows`,
    modelIndex: `radar.${embeddingIndexName(getTableName(target.table) as 'papers' | 'news_items', model.id)}`,
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
  return sql`(${target.embedding}::vector(${dimension})) <=> ${requestValue(`[${vector.join(',')}]`)}::vector(${dimension})`;
}

/**
 * `id` not among these ids, as one text parameter (drizzle would expand an array into a list). Not part
 * of the estimate's cache key: a user's few dismissed rows barely move the planner's estimate.
 */
export function excludedIdsCondition(id: AnyPgColumn, ids: readonly number[] | undefined): SQL | undefined {
  const safe = (ids ?? []).filter((value) => Number.isSafeInteger(value) && value > 0);
  if (safe.length === 0) return undefined;
  return sql`NOT (${id} = ANY(string_to_array(${requestValue(safe.join(','))}, ',')::bigint[]))`;
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
  // The model's size as an earlier statement read it (none yet: the defaults of a small corpus; this
  // statement reads it, as it does again once the cached value is a minute old).
  const knownRows = options.estimates?.get(search.modelRowsKey);
  const scale = corpusScale(knownRows);
  const efSearch = efSearchFor(search.topK, scale);
  const maxRows = options.exactSearchMaxRows ?? exactSearchLimit(search.dimension, scale);
  let decision: 'exact' | 'index' | 'count' = strategy === 'exact' ? 'exact' : 'index';
  if (strategy === 'auto' && search.filters.length > 0) {
    const known = search.filterKey === undefined ? undefined : options.estimates?.get(search.filterKey);
    decision = known === undefined ? 'count' : known <= maxRows ? 'exact' : 'index';
  }
  const fallback = strategy === 'auto';
  const statement = nearestStatement(
    search,
    { decision, fallback, maxRows, readModelRows: knownRows === undefined },
    options.extras ?? {},
  );
  const otherVectors = options.otherVectors ?? [];
  const otherStatements = otherVectors.map((vector) =>
    nearestStatement(
      { ...search, distance: distanceTo(search.target, search.dimension, vector) },
      { decision, fallback, maxRows },
      { rowColumns: options.extras?.rowColumns },
    ),
  );
  // Prepared: planning was most of this message's time in PGlite (runPreparedInOneTrip).
  const [searchRows = [], ...results] = await runPreparedInOneTrip(
    db,
    setLocal(routeSettings(decision === 'exact' ? 'exact' : 'index', efSearch)),
    [statement, ...otherStatements, ...(options.after ?? [])],
  );
  const others = results.slice(0, otherVectors.length).map(toNearestRows);
  const after = results.slice(otherVectors.length);
  const first = searchRows[0] ?? {};
  const counted = first.eligible === null || first.eligible === undefined ? undefined : Number(first.eligible);
  if (counted !== undefined && search.filterKey !== undefined) options.estimates?.set(search.filterKey, counted);
  // reltuples is -1 before the first ANALYZE or index build: unknown, the small-corpus defaults stay.
  const modelRows = Number(first.model_rows ?? -1);
  if (modelRows >= 0) options.estimates?.set(search.modelRowsKey, modelRows);
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

/** A row's per-candidate `x_*` columns (NearestExtras.rowColumns), by their names without the prefix. */
export function rowColumnsOf(row: Record<string, unknown>): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) if (name.startsWith('x_')) extra[name.slice(2)] = value;
  return extra;
}

/** The found rows of a nearestStatement, most similar first, with their `x_*` columns. */
function toNearestRows(searchRows: Record<string, unknown>[]): RoutedNearestResult['rows'] {
  return searchRows
    .filter((row) => row.id !== null && row.id !== undefined)
    .map((row) => ({ id: Number(row.id), similarity: 1 - Number(row.distance), extra: rowColumnsOf(row) }))
    .sort((a, b) => b.similarity - a.similarity || a.id - b.id);
}

/** The plan of a route, to check which index it uses. */
export async function explainNearest(tx: Transaction, search: PreparedNearest, route: 'index' | 'exact') {
  await applyRouteSettings(tx, search, route);
  const statement = nearestStatement(search, { decision: route, fallback: false, maxRows: 0 }, {});
  const result = await tx.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN ${statement}`);
  return result.rows.map((row) => row['QUERY PLAN']).join('\n');
}

/**
 * The planner settings of a route, walking a candidate list of `efSearch`. `iterativeScan` off is for a
 * plain top-k without filters.
 */
function routeSettings(
  route: 'index' | 'exact',
  efSearch: number,
  iterativeScan: 'relaxed_order' | 'off' = 'relaxed_order',
): Record<string, string> {
  return {
    'hnsw.iterative_scan': route === 'exact' ? 'off' : iterativeScan,
    'hnsw.ef_search': String(efSearch),
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
  const settings = routeSettings(route, efSearchFor(search.topK), iterativeScan);
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
  plan: {
    decision: 'exact' | 'index' | 'count';
    fallback: boolean;
    maxRows: number;
    /** Also return the model's row count from its HNSW index's statistics (`model_rows`), for corpusScale(). */
    readModelRows?: boolean;
  },
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
      ${plan.readModelRows ? sql`, (SELECT reltuples::float8 FROM pg_class WHERE oid = to_regclass(${search.modelIndex})) AS model_rows` : sql``}
      ${extras.metaColumns?.length ? sql`, ${sql.join(extras.metaColumns, sql`, `)}` : sql``})`,
  ];
  const rowColumns = extras.rowColumns?.length ? sql`, ${sql.join(extras.rowColumns, sql`, `)}` : sql``;
  return sql`WITH ${sql.join(ctes, sql`,\n`)}
    SELECT meta.*, r.id, r.distance ${rowColumns}
    FROM meta LEFT JOIN nearest r ON true
    LEFT JOIN ${target.table} item ON item.id = r.id`;
}
