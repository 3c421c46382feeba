import { ActionableError } from '@radar/shared/server';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { DataDirLockedError, findLiveLockHolder } from './data-dir-lock';
import { embeddedConnectionConfig, startEmbeddedPostgres } from './embedded-postgres';
import { runMigrations } from './migrate';
import { sharedSession } from './repositories/one-trip';
import * as schema from './schema';

export type Database = NodePgDatabase<typeof schema>;

export type DatabaseMode = 'embedded' | 'external';

export interface DatabaseHandle {
  mode: DatabaseMode;
  pool: pg.Pool;
  db: Database;
  /** node-postgres settings for other clients of the same database (BullMQ's PostgreSQL backend). */
  connectionConfig: pg.PoolConfig;
  /** Messages sent to the database by this pool's clients: round trips (tests and benchmarks read it). */
  roundTrips: RoundTripCounter;
  /**
   * Bytes of the embedded PGlite's WebAssembly memory (it grows, never shrinks), when this process runs
   * it; for benchmarks' memory breakdown.
   */
  embeddedMemoryBytes?: (() => number) | undefined;
  close(): Promise<void>;
}

export interface RoundTripCounter {
  /** Queries sent since the pool opened (one per message: a multi-statement text counts once). */
  readonly count: number;
  /**
   * Of those, the ones on the rate-limit counters: with PostgreSQL and no Redis the per-user quotas and
   * per-route limits are counted in the database (in embedded mode only keys beyond the in-memory
   * bound), so they are told apart from the work of a request.
   */
  readonly rateLimitCount: number;
  /**
   * The texts of the queries sent while `work` runs (tests: the statements a channel sends, for SQL
   * snapshots). Nothing is kept outside such a call.
   */
  recordTexts<T>(work: () => Promise<T>): Promise<{ result: T; texts: string[] }>;
}

/**
 * Counts every query the pool's clients send (pool.query, transactions, drizzle): what "database round
 * trips per request" is measured with. A counter increment per query, nothing else.
 */
function countRoundTrips(pool: pg.Pool): RoundTripCounter {
  let recording: string[] | undefined;
  const counter = {
    count: 0,
    rateLimitCount: 0,
    async recordTexts<T>(work: () => Promise<T>): Promise<{ result: T; texts: string[] }> {
      const texts: string[] = [];
      recording = texts;
      try {
        return { result: await work(), texts };
      } finally {
        recording = undefined;
      }
    },
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      counter.count++;
      const first = args[0];
      // recordAs: what a message of prepared statements runs (one-trip.ts), recorded instead of its EXECUTEs.
      const config = first as { text?: unknown; recordAs?: unknown } | null;
      const text = typeof first === 'string' ? first : (config?.recordAs ?? config?.text);
      if (typeof text === 'string' && text.includes('rate_limit_counters')) counter.rateLimitCount++;
      else if (recording && typeof text === 'string') recording.push(text);
      return query(...args);
    };
  });
  return counter;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL server; undefined means embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  poolMax: number;
  /** Apply pending migrations before returning (the server and worker do; tests use a migrated template). */
  migrate: boolean;
  /**
   * For operator commands: when an embedded server already holds DATA_DIR, connect through its socket
   * instead of failing on the lock.
   */
  attachToRunningServer?: boolean;
}

class DatabaseConnectionError extends ActionableError {
  override name = 'DatabaseConnectionError';
}

/** Turns driver errors into one actionable line that names the variable to fix. */
function describeConnectionError(error: unknown, mode: DatabaseMode): string {
  const err = error as NodeJS.ErrnoException & { code?: string };
  const where = mode === 'external' ? 'DATABASE_URL' : 'the embedded database';
  switch (err.code) {
    case 'ECONNREFUSED':
      return `Cannot connect to ${where}: connection refused. Is PostgreSQL running at that host and port?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot connect to ${where}: unknown host. Check the host name in DATABASE_URL.`;
    case 'ETIMEDOUT':
      return `Cannot connect to ${where}: timed out. Check the host, port and firewall.`;
    case '28P01':
    case '28000':
      return `Cannot connect to ${where}: authentication failed. Check the user and password in DATABASE_URL.`;
    case '3D000':
      return `Cannot connect to ${where}: the database does not exist. Create it (createdb) or fix its name in DATABASE_URL.`;
    case '0A000':
    case '58P01':
      return `${where} has no pgvector extension available. Install pgvector >= 0.8 on the PostgreSQL server (see README).`;
    case '42501':
      return `${where}: permission denied (${err.message}). The role needs rights to create the vector extension and the radar schema.`;
    default:
      return `Cannot use ${where}: ${err.message ?? String(error)}`;
  }
}

/** One allocation of 4 MiB in the server process, freed when the statement ends (see backendPoolOptions). */
export const BACKEND_MEMORY_PRIMER = "SELECT length(repeat('x', 4194304)) AS radar_backend_memory_primer";

/**
 * Pool options for a database of `mode`: each new connection to a PostgreSQL server first frees one
 * large block in its server process, before the pool hands the connection out.
 * Why: a PostgreSQL backend allocates with glibc malloc, which gives the top of its heap back to the
 * kernel whenever more than the trim threshold (128 kB at start) is free there. A recommendation
 * request's statements each take about 1 MB of planner and executor memory in blocks below the mmap
 * threshold, so a fresh backend could grow its heap and give it back on every statement: 100-220 page
 * faults and about twice the database CPU per request, depending only on that backend's allocation
 * history (docs/benchmarks.md, issue 22). glibc raises both thresholds for the rest of the process's life
 * when a block it had mapped on its own is freed (the mmap threshold to that block's size, the trim
 * threshold to twice it), so after one 4 MiB block each backend keeps up to 8 MiB of freed heap instead.
 * The primer runs before the round-trip counter wraps the client (not counted). External servers only:
 * the embedded PGlite is one WebAssembly instance with its own allocator.
 */
export function backendPoolOptions(mode: DatabaseMode): Pick<pg.PoolConfig, 'onConnect'> {
  if (mode !== 'external') return {};
  return {
    onConnect: async (client) => {
      // A failed primer leaves the connection as it would be without one: it is used all the same.
      await client.query(BACKEND_MEMORY_PRIMER).catch(() => {});
    },
  };
}

function createPool(config: pg.PoolConfig, poolMax: number, mode: DatabaseMode): pg.Pool {
  const pool = new pg.Pool({ ...config, max: poolMax, connectionTimeoutMillis: 10_000, ...backendPoolOptions(mode) });
  if (mode === 'embedded') sharedSession(pool);
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on('error', () => {});
  return pool;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const mode: DatabaseMode = options.databaseUrl ? 'external' : 'embedded';
  let connectionConfig: pg.PoolConfig;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let embeddedMemoryBytes: (() => number) | undefined;

  if (options.databaseUrl) {
    connectionConfig = { connectionString: options.databaseUrl };
  } else {
    const holder = options.attachToRunningServer ? await findLiveLockHolder(options.dataDir) : undefined;
    if (holder?.socketDir) {
      connectionConfig = embeddedConnectionConfig(holder.socketDir);
    } else if (holder) {
      throw new DataDirLockedError(options.dataDir, holder); // still starting: no socket yet
    } else {
      const embedded = await startEmbeddedPostgres({ dataDir: options.dataDir });
      connectionConfig = embedded.connectionConfig;
      stopEmbedded = embedded.stop;
      embeddedMemoryBytes = embedded.memoryBytes;
    }
  }

  const pool = createPool(connectionConfig, options.poolMax, mode);
  const roundTrips = countRoundTrips(pool);
  const close = async () => {
    await pool.end();
    await stopEmbedded?.();
  };
  try {
    await pool.query('SELECT 1');
    if (options.migrate) await runMigrations(pool);
  } catch (error) {
    await close().catch(() => {});
    throw new DatabaseConnectionError(describeConnectionError(error, mode));
  }
  return {
    mode,
    pool,
    db: drizzle({ client: pool, schema }),
    connectionConfig,
    roundTrips,
    embeddedMemoryBytes,
    close,
  };
}

/**
 * A handle over an existing pool (tests, and callers that manage the pool themselves; give it
 * backendPoolOptions(mode) when creating it).
 */
export function wrapPool(pool: pg.Pool, mode: DatabaseMode, connectionConfig: pg.PoolConfig): DatabaseHandle {
  // PGlite has one session, shared by every connection (repositories/one-trip.ts keeps its statements).
  if (mode === 'embedded') sharedSession(pool);
  return {
    mode,
    pool,
    db: drizzle({ client: pool, schema }),
    connectionConfig,
    roundTrips: countRoundTrips(pool),
    close: () => pool.end(),
  };
}

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
