import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PgliteSocketServer } from './pglite-socket-server';

/**
 * The thread an embedded database in a data directory runs in (embedded-postgres.ts starts it; the build
 * bundles it as dist/embedded-postgres.js): it opens PGlite, serves it on the socket, and reports its
 * WebAssembly memory in a shared slot. One message in (stop), one out when serving and one when stopped.
 */
export interface EmbeddedThreadData {
  dataPath: string;
  startParams: string[];
  socketPath: string;
  /** Run once on the session before serving. */
  setupSql: string;
  /** One float64: bytes of PGlite's WebAssembly memory, updated every second. */
  memory: SharedArrayBuffer;
}

export type EmbeddedThreadMessage =
  | { type: 'serving' }
  /** `open`: PGlite could not open the data directory's files; `serve`: a later step failed. */
  | { type: 'failed'; stage: 'open' | 'serve'; name: string; message: string }
  | { type: 'stopped' };

export type EmbeddedThreadCommand = { type: 'stop' };

/** How often the memory slot is refreshed (only benches and metrics read it). */
const MEMORY_REPORT_MS = 1_000;

const data = workerData as EmbeddedThreadData;
const memory = new Float64Array(data.memory);
const port = parentPort;
let db: PGlite | undefined;
let server: PgliteSocketServer | undefined;
/** Where start-up is: opening the files, then serving them. */
let stage: 'open' | 'serve' = 'open';

/** Reports the WebAssembly memory's size to the starting side while serving. */
let memoryReport: NodeJS.Timeout | undefined;

async function close(): Promise<void> {
  // Before the close: a closed PGlite has no Module, and a report after it threw in this thread (a
  // stop taking longer than a report's interval ended the process with exit code 1).
  clearInterval(memoryReport);
  await server?.stop();
  await db?.close();
}

async function serve(): Promise<void> {
  db = await PGlite.create(data.dataPath, { extensions: { vector }, startParams: data.startParams });
  stage = 'serve';
  await db.exec(data.setupSql);
  server = new PgliteSocketServer(db, data.socketPath);
  await server.start();
  const open = db;
  const report = () => {
    const bytes = open.Module?.wasmMemory?.buffer.byteLength;
    if (bytes !== undefined) memory[0] = bytes;
  };
  report();
  memoryReport = setInterval(report, MEMORY_REPORT_MS).unref();
}

port?.on('message', (command: EmbeddedThreadCommand) => {
  if (command.type !== 'stop') return;
  // The starting side ends the thread once it has this answer.
  void close().finally(() => port.postMessage({ type: 'stopped' } satisfies EmbeddedThreadMessage));
});

serve().then(
  () => port?.postMessage({ type: 'serving' } satisfies EmbeddedThreadMessage),
  async (error: unknown) => {
    await close().catch(() => {});
    const failure = error instanceof Error ? error : new Error(String(error));
    port?.postMessage({
      type: 'failed',
      stage,
      name: failure.name,
      message: failure.message,
    } satisfies EmbeddedThreadMessage);
  },
);
