import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import { PgliteSocketServer } from './pglite-socket-server';

/**
 * Embedded mode: PGlite (PostgreSQL compiled to WASM, with pgvector) inside this process, served to the
 * process itself over a unix socket (pglite-socket-server.ts). Everything (app pool, migrations, BullMQ) then
 * talks to it with node-postgres exactly as it would to a PostgreSQL server, so there is one code path.
 * Direct calls on the PGlite object would bypass the socket server's transaction serialisation, so
 * after start-up nothing touches it directly.
 */

export interface EmbeddedPostgres {
  /** node-postgres settings for connecting through the socket. */
  connectionConfig: pg.PoolConfig;
  /**
   * A tarball of the data directory, to start other in-memory instances from (`initialData`): the test
   * harness migrates once and starts every test database from it. Call it with no client connected.
   */
  dumpDataDir(): Promise<Blob>;
  /** Bytes of PGlite's WebAssembly memory: it grows with shared_buffers and work memory, never shrinks. */
  memoryBytes(): number;
  /**
   * In-memory databases only (the test harness reuses them, testing/pglite-reuse.ts): stops serving (every
   * connection closed, the socket and its directory removed) and hands over the session with nothing
   * connected. A data directory's database has no use for it and refuses.
   */
  suspend(): Promise<SuspendedEmbeddedPostgres>;
  stop(): Promise<void>;
}

export interface SuspendedEmbeddedPostgres {
  /**
   * PGlite's single session. Calls on it directly are safe while suspended: no client can reach it, and
   * a message still running when the server stopped holds PGlite's lock, so the first call waits for it.
   */
  session: PGlite;
  /**
   * Serves the session again, on a new socket in a new directory: a client left over from the last use
   * (a pool nobody ended, a reconnecting queue) cannot reach it.
   */
  resume(): Promise<EmbeddedPostgres>;
  stop(): Promise<void>;
}

const SOCKET_PORT = 5432;
// sockaddr_un.sun_path is 108 bytes on Linux; keep a margin.
const MAX_SOCKET_PATH = 100;

/** PostgreSQL clients find a socket as `<dir>/.s.PGSQL.<port>`. */
function chooseSocketDir(preferredDir: string): string {
  const socketFile = path.join(preferredDir, `.s.PGSQL.${SOCKET_PORT}`);
  if (socketFile.length <= MAX_SOCKET_PATH) return preferredDir;
  const digest = createHash('sha256').update(preferredDir).digest('hex').slice(0, 12);
  return path.join(os.tmpdir(), `radar-${digest}`);
}

/** Where PGlite keeps its files inside DATA_DIR. */
export const embeddedDataPath = (dataDir: string) => path.join(dataDir, 'pgdata');

export const embeddedConnectionConfig = (socketDir: string): pg.PoolConfig => ({
  host: socketDir,
  port: SOCKET_PORT,
  user: 'postgres',
  database: 'postgres',
});

export interface StartEmbeddedPostgresOptions {
  /**
   * Where the database files live (and the lock); undefined for a throw-away in-memory database (tests),
   * which takes no lock.
   */
  dataDir: string | undefined;
  /**
   * In-memory only: start from this dumpDataDir() tarball instead of an empty cluster. Skips initdb,
   * which is most of PGlite's start-up time.
   */
  initialData?: Blob;
}

/**
 * PGlite's PostgreSQL keeps initdb's shared_buffers of 128 MB, inside the process's WebAssembly memory,
 * which never shrinks: most of the idle footprint of an empty install. 32 MB keeps the hot pages of a
 * small install's tables and indexes; the data files also sit in the operating system's file cache, so a
 * page that does not fit costs a read() of cached memory, not a disk read (RSS and latency at 20k papers
 * in docs/benchmarks.md, "Light to run").
 */
const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];
/**
 * In-memory databases (tests) also drop the start-up progress timer: PGlite's start leaves it armed,
 * a 10-second timer re-armed forever, which keeps the process alive while the instance is open. The test
 * harness keeps idle instances open (testing/pglite-reuse.ts), so a process holding one must still
 * end. What remains is PostgreSQL's one-shot statistics timer (at most 10 s after the last query).
 */
const IN_MEMORY_START_PARAMS = [...EMBEDDED_START_PARAMS, '-c', 'log_startup_progress_interval=0'];

/**
 * pglite-socket ignores the `-c search_path=bullmq` start-up option BullMQ sends, and all socket
 * connections share this one session, so it is set on the session before serving. App tables are
 * schema-qualified (`radar.`).
 */
const SESSION_SETUP = 'SET search_path TO bullmq, public;';

export async function startEmbeddedPostgres(options: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  if (options.dataDir && options.initialData) throw new Error('initialData is for in-memory databases only');
  let lock: DataDirLock | undefined;
  let socketDir: string;
  let dataPath: string;
  if (options.dataDir) {
    lock = await acquireDataDirLock(options.dataDir);
    dataPath = embeddedDataPath(options.dataDir);
    socketDir = chooseSocketDir(options.dataDir);
    await fs.mkdir(socketDir, { recursive: true });
  } else {
    dataPath = 'memory://';
    socketDir = await makeTempSocketDir();
  }

  let db: PGlite | undefined;
  let served: EmbeddedPostgres | undefined;
  try {
    db = await PGlite.create(dataPath, {
      extensions: { vector },
      loadDataDir: options.initialData,
      startParams: options.dataDir ? EMBEDDED_START_PARAMS : IN_MEMORY_START_PARAMS,
    });
    await db.exec(`CREATE EXTENSION IF NOT EXISTS vector; CREATE SCHEMA IF NOT EXISTS bullmq; ${SESSION_SETUP}`);
    // We hold the lock, so a socket file left there is from a process that died; start() replaces it.
    served = await serve(db, socketDir, lock);
    await lock?.update({ socketDir });
    return served;
  } catch (error) {
    if (served) {
      await served.stop().catch(() => {});
    } else {
      await db?.close().catch(() => {});
      await lock?.release();
    }
    if (!options.dataDir) await fs.rm(socketDir, { recursive: true, force: true });
    throw error;
  }
}

const makeTempSocketDir = () => fs.mkdtemp(path.join(os.tmpdir(), 'radar-pglite-'));

/**
 * Serves `db` on a socket in `socketDir`. Without a lock (an in-memory database) the directory is ours:
 * removed on stop, and the database can be suspended and served again.
 */
async function serve(db: PGlite, socketDir: string, lock: DataDirLock | undefined): Promise<EmbeddedPostgres> {
  const server = new PgliteSocketServer(db, path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`));
  try {
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    throw error;
  }
  const stopServing = async () => {
    await server.stop();
    if (!lock) await fs.rm(socketDir, { recursive: true, force: true });
  };
  return {
    connectionConfig: embeddedConnectionConfig(socketDir),
    async dumpDataDir() {
      // Flushed to the data files, so an instance started from the dump needs no WAL replay.
      await db.exec('CHECKPOINT');
      return db.dumpDataDir('none');
    },
    memoryBytes: () => db.Module.wasmMemory.buffer.byteLength,
    async suspend() {
      if (lock) throw new Error('only an in-memory embedded database can be suspended');
      await stopServing();
      return {
        session: db,
        async resume() {
          const nextSocketDir = await makeTempSocketDir();
          try {
            await db.exec(SESSION_SETUP);
            return await serve(db, nextSocketDir, undefined);
          } catch (error) {
            await fs.rm(nextSocketDir, { recursive: true, force: true });
            throw error;
          }
        },
        stop: () => db.close(),
      };
    },
    async stop() {
      await stopServing();
      await db.close();
      await lock?.release();
    },
  };
}
