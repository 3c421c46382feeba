import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Transaction } from '../connection';
import type { EmbeddingModelRow } from './embedding.repository';

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
 * of walking the HNSW graph: sorting a few thousand distances takes a millisecond or two. For vectors
 * of more than 128 dimensions the limit shrinks in proportion (exactSearchLimit()): a 768-dimension
 * vector is 3 KB, stored out of line, and ranking 2,500 of them read 22,000 buffers (bench:recommend).
 */
export const DEFAULT_EXACT_SEARCH_MAX_ROWS = 10_000;

export const exactSearchLimit = (dimension: number, maxRows = DEFAULT_EXACT_SEARCH_MAX_ROWS) =>
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
  if (query.vector.length !== model.dimension) {
    throw new RangeError(`query vector has ${query.vector.length} dimensions, model has ${model.dimension}`);
  }
  if (!query.vector.every(Number.isFinite)) throw new RangeError('query vector has non-finite values');
  // Integers from our own tables, inlined so the planner can match the partial expression index
  // (embedding.repository.ts), whose expression this repeats.
  const dimension = sql.raw(String(Math.trunc(model.dimension)));
  const modelId = sql.raw(String(Math.trunc(model.id)));
  const vectorLiteral = `[${query.vector.join(',')}]`;
  return {
    target,
    topK: Math.min(Math.max(Math.trunc(query.topK), 1), MAX_NEAREST_RESULTS),
    modelFilter: sql`${target.modelId} = ${modelId}`,
    filters,
    filterKey: filterKey === undefined ? undefined : `m${Math.trunc(model.id)};${filterKey}`,
    dimension: Math.trunc(model.dimension),
    distance: sql`(${target.embedding}::vector(${dimension})) <=> ${vectorLiteral}::vector(${dimension})`,
  };
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

/**
 * Cosine similarity to a vector of the given rows that have a vector of the model (others are left
 * out): re-ranking a candidate pool by another vector of the same model.
 */
export async function similarityByIds(
  db: Pick<Transaction, 'execute'>,
  target: VectorTable,
  ids: readonly number[],
  query: { model: Pick<EmbeddingModelRow, 'id' | 'dimension'>; vector: number[] },
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const search = prepareNearest(target, { ...query, topK: 1 });
  const result = await db.execute<{ id: string | number; distance: string | number }>(
    sql`SELECT ${target.id} AS id, ${search.distance} AS distance FROM ${target.table}
        WHERE ${search.modelFilter} AND ${target.id} = ANY(string_to_array(${ids.join(',')}, ',')::bigint[])`,
  );
  return new Map(result.rows.map((row) => [Number(row.id), 1 - Number(row.distance)]));
}

const where = (search: PreparedNearest) => sql.join([search.modelFilter, ...search.filters], sql` AND `);

/**
 * The topK rows nearest to the vector that pass the filters, most similar first, with the route taken:
 * - exact: the filters leave at most exactSearchMaxRows rows (the planner's estimate; needs ANALYZE
 *   statistics), so all are ranked (HNSW off for the statement; bitmap scans of the date indexes stay on);
 * - index: otherwise the HNSW index is walked with pgvector's iterative scan, so filters do not starve
 *   the result, inside a MATERIALIZED top-k CTE (callers apply a threshold to the rows it returns);
 * - index-then-exact: the walk returned fewer than topK rows (the estimate was wrong, or the scan hit
 *   hnsw.max_scan_tuples), so the exact route answers instead: every query sees min(topK, eligible rows).
 * `strategy` index or exact forces a route (tests, recall measurements); forced index has no fallback.
 */
export async function routedNearest(
  tx: Transaction,
  search: PreparedNearest,
  options: {
    strategy?: NearestStrategy | undefined;
    exactSearchMaxRows?: number | undefined;
    estimates?: EstimateCache | undefined;
  } = {},
): Promise<{ rows: { id: number; similarity: number }[]; route: NearestRoute }> {
  const strategy = options.strategy ?? 'auto';
  let route: NearestRoute = strategy === 'exact' ? 'exact' : 'index';
  if (strategy === 'auto' && search.filters.length > 0) {
    const key = search.filterKey;
    let estimate = key === undefined ? undefined : options.estimates?.get(key);
    if (estimate === undefined) {
      estimate = await estimateRows(tx, search);
      if (key !== undefined) options.estimates?.set(key, estimate);
    }
    if (estimate <= (options.exactSearchMaxRows ?? exactSearchLimit(search.dimension))) route = 'exact';
  }
  let rows = await nearestRows(tx, search, route === 'exact' ? 'exact' : 'index');
  if (route === 'index' && rows.length < search.topK && strategy !== 'index') {
    rows = await nearestRows(tx, search, 'exact');
    route = 'index-then-exact';
  }
  return { rows, route };
}

/** The plan of a route, to check which index it uses. */
export async function explainNearest(tx: Transaction, search: PreparedNearest, route: 'index' | 'exact') {
  await applyRouteSettings(tx, search, route);
  const result = await tx.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN ${nearestSql(search)}`);
  return result.rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** The planner's estimate of the rows the filters leave. */
async function estimateRows(tx: Transaction, search: PreparedNearest): Promise<number> {
  const result = await tx.execute<{ 'QUERY PLAN': unknown }>(
    sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${search.target.table} WHERE ${where(search)}`,
  );
  const raw = result.rows[0]?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[];
  return Number(plan[0]?.Plan?.['Plan Rows'] ?? Number.POSITIVE_INFINITY);
}

/**
 * The planner settings of a route, for the rest of the transaction, in one round trip. `iterativeScan`
 * off is for a plain top-k without filters.
 */
export async function applyRouteSettings(
  tx: Transaction,
  search: Pick<PreparedNearest, 'topK'>,
  route: 'index' | 'exact',
  iterativeScan: 'relaxed_order' | 'off' = 'relaxed_order',
): Promise<void> {
  const settings: Record<string, string> =
    route === 'exact'
      ? { enable_indexscan: 'off', enable_sort: 'on' }
      : {
          enable_indexscan: 'on',
          'hnsw.iterative_scan': iterativeScan,
          'hnsw.ef_search': String(Math.max(HNSW_MIN_EF_SEARCH, search.topK * 2)),
          // Rules out "filter, then sort by distance", leaving the index's own ordering.
          enable_sort: 'off',
        };
  // enable_sort = off prices a sort at 10^10, far past jit_above_cost: PostgreSQL would then spend about
  // half a second compiling a millisecond query (measured).
  settings.jit = 'off';
  const calls = Object.entries(settings).map(([name, value]) => sql`set_config(${name}, ${value}, true)`);
  await tx.execute(sql`SELECT ${sql.join(calls, sql`, `)}`);
}

/** Top-k by distance in a MATERIALIZED CTE; the outer query only re-sorts (relaxed_order may be slightly out of order). */
function nearestSql(search: PreparedNearest): SQL {
  return sql`WITH nearest AS MATERIALIZED (
      SELECT ${search.target.id} AS id, ${search.distance} AS distance FROM ${search.target.table}
      WHERE ${where(search)}
      ORDER BY ${search.distance} LIMIT ${sql.raw(String(search.topK))}
    ) SELECT id, distance FROM nearest ORDER BY distance, id`;
}

async function nearestRows(tx: Transaction, search: PreparedNearest, route: 'index' | 'exact') {
  await applyRouteSettings(tx, search, route);
  const result = await tx.execute<{ id: string | number; distance: string | number }>(nearestSql(search));
  return result.rows.map((row) => ({ id: Number(row.id), similarity: 1 - Number(row.distance) }));
}
