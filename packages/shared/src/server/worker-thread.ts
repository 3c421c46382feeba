import path from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export interface ThreadEntry {
  /** The caller's `import.meta.filename`: in a bundle it names dist/<bundle>.js, in the sources a .ts file. */
  callerFilename: string;
  /** The caller's `import.meta.url`: the build rewrites it to the source's place (scripts/build-dist.mjs). */
  callerUrl: string;
  /** The thread's source module, relative to the caller's source (`./library-parse-worker.ts`). */
  source: string;
  /** The thread's bundle beside the process's bundle in dist/ (`library-parser.js`), one of DIST_ENTRIES. */
  bundled: string;
}

/**
 * A worker thread running `entry`. In the bundled processes (dist/server.js, dist/worker.js, dist/cli.js)
 * the thread is its own bundle beside them (scripts/build-dist.mjs); from the sources (`node --import tsx`,
 * Vitest) it is the .ts module, loaded through tsx registered in the thread, since a worker thread does not
 * inherit the process's module hooks. `callerFilename` tells which: the build rewrites `import.meta.url` to
 * the source's place, not the filename.
 */
export function startThread(entry: ThreadEntry, options: WorkerOptions = {}): Worker {
  if (!entry.callerFilename.endsWith('.ts')) {
    return new Worker(path.join(path.dirname(entry.callerFilename), entry.bundled), options);
  }
  const tsx = import.meta.resolve('tsx/esm/api');
  const source = new URL(entry.source, entry.callerUrl).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(boot, { execArgv: [], ...options, eval: true });
}

/** A thread that ended (exit code) before it sent the message waited for. */
export class ThreadExitedError extends Error {
  override name = 'ThreadExitedError';
  constructor(readonly exitCode: number) {
    super(`the thread ended (exit code ${exitCode})`);
  }
}

/**
 * The thread's next message. Rejects with the thread's error when it fails first, a ThreadExitedError
 * when it ends first, and `signal.reason` when `signal` aborts first.
 */
export function nextMessage<T>(thread: Worker, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const settle = () => {
      signal?.removeEventListener('abort', onAbort);
      thread.off('message', onMessage);
      thread.off('error', onError);
      thread.off('exit', onExit);
    };
    const onMessage = (message: T) => {
      settle();
      resolve(message);
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    const onExit = (code: number) => {
      settle();
      reject(new ThreadExitedError(code));
    };
    const onAbort = () => {
      settle();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    thread.on('message', onMessage);
    thread.once('error', onError);
    thread.once('exit', onExit);
  });
}
