import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { nextMessage, startThread, ThreadExitedError } from '@radar/shared/server';
import { LibraryFileError, type parseLibraryFile } from './library-file';
import type { LibraryParseMessage } from './library-parse-worker';

/**
 * Parsing a library file off the event loop. citation-js parses a 2,000,000-character BibTeX file in
 * about 1.5 s of one core; on the HTTP server's thread that held every other request (/api/health
 * included) for as long. The parse runs in a worker thread instead, with a deadline, at most a few at a
 * time. A thread is kept for the next file a while (starting one loads the parser again), and ended
 * when a parse runs out of time.
 */

/** Longest a parse may take, waiting for a free thread included; a 2 MB file needs about 1.5 s. */
const PARSE_TIMEOUT_MS = 20_000;
/** Parses at once: the others wait, so uploads cannot take every core from the requests. */
const MAX_PARALLEL_PARSES = Math.max(1, Math.min(2, availableParallelism() - 1));
/** A file that needs more heap than this to parse is refused (the thread ends with an error). */
const PARSER_HEAP_MB = 512;
/** An idle thread is ended after this: imports are rare (5 an hour per reader), its memory is not free. */
const IDLE_THREAD_MS = 60_000;

const MESSAGES = {
  timedOut: '文件解析超时，请稍后重试，或把文件拆成较小的几个分别上传',
  failed: '文件无法解析：请检查文件是否完整，或换一种格式导出',
} as const;

/** A new parser thread: library-parse-worker.ts, bundled as dist/library-parser.js. */
function startParserThread(): Worker {
  return startThread(
    {
      callerFilename: import.meta.filename,
      callerUrl: import.meta.url,
      source: './library-parse-worker.ts',
      bundled: 'library-parser.js',
    },
    { resourceLimits: { maxOldGenerationSizeMb: PARSER_HEAP_MB } },
  );
}

/** Threads waiting for the next file, each with the timer that ends it. */
const idle: { thread: Worker; timer: NodeJS.Timeout }[] = [];
let running = 0;
const waiting: (() => void)[] = [];

function takeThread(): Worker {
  const kept = idle.pop();
  if (!kept) return startParserThread();
  clearTimeout(kept.timer);
  kept.thread.ref();
  return kept.thread;
}

function keepThread(thread: Worker): void {
  // Unreferenced while idle: a kept thread never holds a process that is otherwise done.
  thread.unref();
  const timer = setTimeout(() => {
    idle.splice(
      idle.findIndex((entry) => entry.thread === thread),
      1,
    );
    void thread.terminate();
  }, IDLE_THREAD_MS);
  timer.unref();
  idle.push({ thread, timer });
}

async function acquire(signal: AbortSignal): Promise<void> {
  if (running < MAX_PARALLEL_PARSES) {
    running += 1;
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const start = () => {
      signal.removeEventListener('abort', onAbort);
      running += 1;
      resolve();
    };
    const onAbort = () => {
      waiting.splice(waiting.indexOf(start), 1);
      reject(new LibraryFileError(MESSAGES.timedOut));
    };
    waiting.push(start);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function release(): void {
  running -= 1;
  waiting.shift()?.();
}

/** One file on one thread: its answer, or a LibraryFileError when it ran out of time or the thread failed. */
async function parseOn(thread: Worker, content: string, deadline: AbortSignal): Promise<LibraryParseMessage> {
  const answer = nextMessage<LibraryParseMessage>(thread, deadline);
  thread.postMessage(content);
  try {
    return await answer;
  } catch (error) {
    if (error === deadline.reason) throw new LibraryFileError(MESSAGES.timedOut);
    throw new LibraryFileError(MESSAGES.failed, {
      cause: error instanceof ThreadExitedError ? 'exited' : (error as Error).message,
    });
  }
}

/**
 * parseLibraryFile in a worker thread, within `timeoutMs` (waiting for a free thread included). The same
 * result and the same LibraryFileError messages; a parse that runs out of time or memory, or fails in
 * any other way, is a LibraryFileError too (a file we cannot read is the reader's 4xx, never a 500).
 */
export async function parseLibraryFileOffThread(
  content: string,
  options: { timeoutMs?: number } = {},
): Promise<ReturnType<typeof parseLibraryFile>> {
  const deadline = AbortSignal.timeout(options.timeoutMs ?? PARSE_TIMEOUT_MS);
  await acquire(deadline);
  try {
    if (deadline.aborted) throw new LibraryFileError(MESSAGES.timedOut);
    const thread = takeThread();
    let message: LibraryParseMessage;
    try {
      message = await parseOn(thread, content, deadline);
    } catch (error) {
      // Out of time, or failed: the thread may still be busy or broken, so it is not kept.
      void thread.terminate();
      throw error;
    }
    keepThread(thread);
    if (message.outcome === 'refused') throw new LibraryFileError(message.message);
    if (message.outcome === 'failed') throw new LibraryFileError(MESSAGES.failed, { cause: message.error });
    return message.parsed;
  } finally {
    release();
  }
}
