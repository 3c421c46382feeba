import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { ActionableError, nextMessage, startThread, ThreadExitedError } from '@radar/shared/server';
import type pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import type { EmbeddedThreadCommand, EmbeddedThreadData, EmbeddedThreadMessage } from './embedded-postgres-worker';
import { PgliteSocketServer } from './pglite-socket-server';

/**
 * Embedded mode: PGlite (PostgreSQL compiled to WASM, with pgvector) inside this process, served to the
 * process itself over a unix socket (pglite-socket-server.ts). Everything (app pool, migrations, BullMQ) then
 * talks to it with node-postgres exactly as it would to a PostgreSQL server, so there is one code path.
 * Direct calls on the PGlite object would bypass the socket server's transaction serialisation, so
 * after start-up nothing touches it directly.
 *
 * A database in a data directory (the app, the worker, the CLI) runs in a thread of its own
 * (embedded-postgres-worker.ts): PostgreSQL's work then runs beside the process's JavaScript on another
 * core, as a PostgreSQL server's would, instead of taking turns with HTTP requests, parsing and embedding
 * on one thread. In-memory databases (the tests') stay on the calling thread, where the test harness
 * resets them through the session between files (testing/pglite-reuse.ts).
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
const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, '-c', `shared_buffers=${process.env.TMP_SB ?? '32MB'}`];
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
/** What every embedded database needs before the app's migrations run. */
const DATABASE_SETUP = 'CREATE EXTENSION IF NOT EXISTS vector; CREATE SCHEMA IF NOT EXISTS bullmq;';

export async function startEmbeddedPostgres(options: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  if (options.dataDir && options.initialData) throw new Error('initialData is for in-memory databases only');
  return options.dataDir ? startInDataDir(options.dataDir) : startInMemory(options.initialData);
}

async function startInDataDir(dataDir: string): Promise<EmbeddedPostgres> {
  const lock = await acquireDataDirLock(dataDir);
  let served: EmbeddedPostgres | undefined;
  try {
    const socketDir = chooseSocketDir(dataDir);
    await fs.mkdir(socketDir, { recursive: true });
    // We hold the lock, so a socket file left there is from a process that died; the thread replaces it.
    served = await serveInThread(embeddedDataPath(dataDir), socketDir, lock);
    await lock.update({ socketDir });
    return served;
  } catch (error) {
    // stop() releases the lock too.
    await (served ? served.stop() : lock.release()).catch(() => {});
    throw error;
  }
}

async function startInMemory(initialData: Blob | undefined): Promise<EmbeddedPostgres> {
  const socketDir = await makeTempSocketDir();
  let db: PGlite | undefined;
  try {
    db = await PGlite.create('memory://', {
      extensions: { vector },
      loadDataDir: initialData,
      startParams: IN_MEMORY_START_PARAMS,
    });
    await db.exec(`${DATABASE_SETUP} ${SESSION_SETUP}`);
    return await serve(db, socketDir);
  } catch (error) {
    await db?.close().catch(() => {});
    await fs.rm(socketDir, { recursive: true, force: true });
    throw error;
  }
}

/** PGlite could not open the files of a data directory: damaged, incomplete, or another version's. */
export class EmbeddedDatabaseOpenError extends ActionableError {
  constructor(dataPath: string, reason: string) {
    super(
      `the embedded database in ${dataPath} could not be opened (PGlite: ${reason}). Its files may be damaged, ` +
        'incomplete or from another version: restore DATA_DIR from a backup (README, "Backups and restore"), ' +
        'or set DATA_DIR to an empty directory to start a new installation.',
    );
    this.name = 'EmbeddedDatabaseOpenError';
  }
}

/** What the thread answers first: it serves, or why it could not start. */
async function firstAnswer(thread: Worker, dataPath: string): Promise<void> {
  const message = await nextMessage<EmbeddedThreadMessage>(thread).catch((error: unknown) => {
    if (!(error instanceof ThreadExitedError)) throw error;
    throw new Error(`the embedded database's thread ended (exit code ${error.exitCode}) before it served`);
  });
  if (message.type === 'serving') return;
  if (message.type !== 'failed') throw new Error('the embedded database stopped before it served');
  if (message.stage === 'open') throw new EmbeddedDatabaseOpenError(dataPath, message.message);
  const error = new Error(message.message);
  error.name = message.name;
  throw error;
}

/**
 * PGlite in the data directory, opened and served in its own thread. The thread's end while serving ends
 * the process (thrown from the event loop): a process whose database is gone can only fail every request,
 * and a supervisor restarts it.
 */
async function serveInThread(dataPath: string, socketDir: string, lock: DataDirLock): Promise<EmbeddedPostgres> {
  const memory = new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT);
  const memoryBytes = new Float64Array(memory);
  const workerData: EmbeddedThreadData = {
    dataPath,
    startParams: EMBEDDED_START_PARAMS,
    socketPath: path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
    setupSql: `${DATABASE_SETUP} ${SESSION_SETUP}`,
    memory,
  };
  const thread = startThread(
    {
      callerFilename: import.meta.filename,
      callerUrl: import.meta.url,
      source: './embedded-postgres-worker.ts',
      bundled: 'embedded-postgres.js',
    },
    { workerData },
  );
  try {
    await firstAnswer(thread, dataPath);
  } catch (error) {
    await thread.terminate();
    throw error;
  }
  let stopping = false;
  const ended = (code: number) => {
    if (stopping) return;
    throw new Error(`the embedded database's thread ended (exit code ${code}) while serving; restart the process`);
  };
  thread.on('exit', ended);
  const stop = async () => {
    stopping = true;
    // Its `stopped`, or its end: either way the thread is done with the files.
    const answered = nextMessage(thread).catch(() => {});
    thread.postMessage({ type: 'stop' } satisfies EmbeddedThreadCommand);
    await answered;
    await thread.terminate();
  };
  return {
    connectionConfig: embeddedConnectionConfig(socketDir),
    dumpDataDir: () => Promise.reject(new Error('only an in-memory embedded database can be dumped')),
    memoryBytes: () => memoryBytes[0] ?? 0,
    suspend: () => Promise.reject(new Error('only an in-memory embedded database can be suspended')),
    async stop() {
      await stop();
      await lock.release();
    },
  };
}

const makeTempSocketDir = () => fs.mkdtemp(path.join(os.tmpdir(), 'radar-pglite-'));

/**
 * Serves the in-memory `db` on a socket in `socketDir`, on this thread. The directory is ours: removed on
 * stop, and the database can be suspended and served again.
 */
async function serve(db: PGlite, socketDir: string): Promise<EmbeddedPostgres> {
  const server = new PgliteSocketServer(db, path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`));
  try {
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    throw error;
  }
  const stopServing = async () => {
    await server.stop();
    await fs.rm(socketDir, { recursive: true, force: true });
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
      await stopServing();
      return {
        session: db,
        async resume() {
          const nextSocketDir = await makeTempSocketDir();
          try {
            await db.exec(SESSION_SETUP);
            return await serve(db, nextSocketDir);
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
    },
  };
}
