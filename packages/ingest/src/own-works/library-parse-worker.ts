import { parentPort } from 'node:worker_threads';
import { LibraryFileError, parseLibraryFile } from './library-file';

/**
 * The worker thread that parses library files (library-parse-thread.ts starts it; the build bundles it
 * as dist/library-parser.js): a file's text in, one message out, one file at a time.
 */
export type LibraryParseMessage =
  | { outcome: 'parsed'; parsed: ReturnType<typeof parseLibraryFile> }
  | { outcome: 'refused'; message: string }
  | { outcome: 'failed'; error: string };

function parse(content: string): LibraryParseMessage {
  try {
    return { outcome: 'parsed', parsed: parseLibraryFile(content) };
  } catch (error) {
    if (error instanceof LibraryFileError) return { outcome: 'refused', message: error.message };
    return { outcome: 'failed', error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

parentPort?.on('message', (content: string) => parentPort?.postMessage(parse(content)));
