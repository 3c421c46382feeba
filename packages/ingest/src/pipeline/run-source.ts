import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { FIT_SAMPLE_SIZE, type NewPaperVectors } from '@radar/ai';
import type { IngestRepositories } from '@radar/db';
import { ActionableError } from '@radar/shared/server';
import { fetchSource, readSourceFile } from '../adapters';
import { ARXIV_POLITENESS_KEY } from '../adapters/arxiv';
import { decodeHead } from '../adapters/decode';
import { HttpClient, type PolitenessLease } from '../adapters/http';
import { payloadMismatch, SNIFF_BYTES, sniffPayload } from '../adapters/sniff';
import { type IngestEntry, PermanentSourceError, type SourceCursor, type SourceKind } from '../types';
import { ContentStore } from './content-store';
import { DatabasePolitenessLease } from './lease';
import { consumeEntries, type IngestProgress, type IngestSummary } from './pipeline';
import type { IngestSettings } from './settings';
import { fieldsOf, type SourceConfig } from './sources-config';

/**
 * Running a source now (scheduled job or `pnpm radar ingest`) and importing a local file in a source's
 * format. Both store through the same pipeline; a run also records its state (last run, counts, error,
 * cursor) in radar.ingest_sources.
 */

export interface IngestDeps {
  /** createIngestRepositories (@radar/db), called by the process's composition root. */
  repositories: IngestRepositories;
  settings: IngestSettings;
  /** Replaces the database lease (tests of one process). */
  lease?: PolitenessLease;
}

export interface RunSourceOptions {
  /** YYYY-MM-DD: fetch from this date instead of where the last run got to. */
  since?: string | undefined;
  onProgress?: ((progress: IngestProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
  now?: Date;
  /** Called before each HTTP request of the run (retries included). */
  onRequest?: (() => void) | undefined;
}

/** The summary without id lists, as stored in ingest_sources.last_summary. */
function compactSummary(summary: IngestSummary): Record<string, unknown> {
  return {
    counts: summary.counts,
    skippedReasons: summary.skippedReasons,
    rejectedReasons: summary.rejectedReasons,
    notes: summary.notes,
    warnings: summary.warnings.slice(0, 20),
    durationMs: summary.durationMs,
  };
}

export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 1_000);
}

async function analyzeAfterLoad(
  repositories: Pick<IngestRepositories, 'papers' | 'news'>,
  summary: IngestSummary,
): Promise<void> {
  // Embedded PGlite has no autovacuum: refresh planner statistics after loading rows.
  if (summary.newPaperIds.length) await repositories.papers.analyze();
  if (summary.newNewsIds.length) await repositories.news.analyze();
}

/**
 * A run that failed (the source, not a bug): its message is one line for `pnpm radar` and the
 * sources list, and the summary counts what was stored before the failure.
 */
export class SourceRunError extends ActionableError {
  override name = 'SourceRunError';
  constructor(
    message: string,
    readonly summary: IngestSummary,
    readonly isPermanent: boolean,
  ) {
    super(message);
  }
}

export async function runSource(
  deps: IngestDeps,
  source: SourceConfig,
  options: RunSourceOptions = {},
): Promise<IngestSummary> {
  const { repositories, settings } = deps;
  const states = repositories.sourceStates;
  const previous = await states.get(source.name);
  await states.markRunning(source.name, source.kind);
  const cursor: SourceCursor = previous?.cursor ?? {};
  const total: { value: number | undefined } = { value: undefined };
  const http = new HttpClient({
    userAgent: settings.userAgent,
    timeoutMs: source.timeoutMs ?? settings.httpTimeoutMs,
    maxAttempts: settings.httpMaxAttempts,
    retryBaseDelayMs: settings.httpRetryBaseDelayMs,
    maxRetryAfterMs: settings.maxRetryAfterMs,
    onRequest: options.onRequest,
  });
  const lease =
    deps.lease ??
    new DatabasePolitenessLease(states, {
      minIntervalMs: (key) => (key === ARXIV_POLITENESS_KEY ? settings.arxivMinIntervalMs : 0),
      waitMs: settings.leaseWaitMs,
    });
  const entries = fetchSource(source, {
    settings,
    http,
    lease,
    cursor,
    since: options.since,
    now: options.now ?? new Date(),
    maxItems: source.maxItems ?? settings.maxItemsPerRun,
    maxBytes: source.maxBytes ?? settings.maxFeedBytes,
    signal: options.signal,
    reportTotal: (value) => {
      total.value = value;
    },
  });

  let outcome: Awaited<ReturnType<typeof consumeEntries<SourceCursor>>>;
  try {
    outcome = await consumeEntries(repositories, entries, {
      source: source.name,
      fields: fieldsOf(source),
      onProgress: options.onProgress,
      total,
    });
  } catch (error) {
    await states.recordFailure(source.name, source.kind, describeError(error));
    throw error;
  }
  const { summary, result, failure } = outcome;
  await analyzeAfterLoad(repositories, summary);
  if (failure) {
    await states.recordFailure(source.name, source.kind, describeError(failure), summary.counts.added);
    throw new SourceRunError(describeError(failure), summary, failure instanceof PermanentSourceError);
  }
  summary.recoveredFrom = await states.recordSuccess(source.name, {
    added: summary.counts.added,
    updated: summary.counts.updated,
    skipped: summary.counts.skipped,
    rejected: summary.counts.rejected,
    summary: compactSummary(summary),
    cursor: result ?? cursor,
  });
  return summary;
}

export interface ImportFileOptions {
  kind: SourceKind;
  filePath: string;
  /** The configured source the file belongs to (its journal, institute and name). */
  source?: SourceConfig | undefined;
  institute?: string | undefined;
  journal?: string | undefined;
  maxItems?: number | undefined;
  onProgress?: ((progress: IngestProgress) => void) | undefined;
  /**
   * Called once the file's first `headPapers` papers are read and before anything is stored, with
   * their texts and the number of papers the file is expected to hold; what it returns writes the
   * vectors of new papers in their insert (a bulk import fits the first model here: the CLI).
   */
  beforeStore?: ((head: ImportHead) => Promise<NewPaperVectors | undefined>) | undefined;
  /** Papers read before beforeStore is called (default FIT_SAMPLE_SIZE, the built-in model's fit sample). */
  headPapers?: number | undefined;
}

/** The start of a file being imported (ImportFileOptions.beforeStore). */
export interface ImportHead {
  /** Title and abstract of its first papers, as new rows would hold them. */
  papers: { title: string; abstract: string }[];
  /** Papers in the whole file: exact when the head is all of it, else estimated from the bytes read. */
  expectedPapers: number;
}

/** A file that cannot be imported at all (missing, empty, of another kind): refused before anything is stored. */
export class SourceFileError extends ActionableError {
  override name = 'SourceFileError';
}

const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'is a directory, not a file',
};

/**
 * Checks that a file can be imported as `kind` by its first bytes: it exists, is not empty, and looks
 * like what the kind reads. Throws SourceFileError with one line saying what to do otherwise. The CLI
 * calls it before opening the database, so a wrong file never touches it.
 */
export async function inspectSourceFile(kind: SourceKind, filePath: string): Promise<void> {
  let head: Buffer;
  try {
    const handle = await fsp.open(filePath, 'r');
    try {
      const buffer = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new SourceFileError(`cannot read ${filePath}: ${(code && FILE_ERRORS[code]) ?? message}`);
  }
  const mismatch = payloadMismatch(kind, sniffPayload(decodeHead(head)), filePath);
  if (mismatch) throw new SourceFileError(mismatch);
}

/**
 * Imports a local file in a source's format (air-gapped servers). Items are stored under the source's
 * name, or "<kind>-file"; the source's cursor is left alone. A file that is missing, empty or of
 * another kind is refused before anything is read into the database; one that turns out unreadable
 * (malformed JSON, not a feed) fails with what was stored before the fault, as a source run does.
 */
export async function importSourceFile(
  deps: IngestDeps,
  options: ImportFileOptions,
  /** The file's reading begun earlier (openSourceFile with the same options); else begun here. */
  opened?: OpenedSourceFile,
): Promise<IngestSummary> {
  await inspectSourceFile(options.kind, options.filePath);
  const sourceName = options.source?.name ?? `${options.kind}-file`;
  const file = (opened ??
    openSourceFile(options, { readHead: options.beforeStore !== undefined })) as SourceFileReading;
  const { stream, total } = file;
  let vectors: NewPaperVectors | undefined;
  let stored = file.entries;
  if (options.beforeStore) {
    const head = await (file.head ?? readHead(file.entries, options.headPapers ?? FIT_SAMPLE_SIZE, stream));
    const drafts = head.entries.flatMap((entry) => (entry.type === 'paper' ? [entry.draft] : []));
    const papers = drafts.map((draft) => ContentStore.paperText(draft)).filter((paper) => paper.title);
    // Lines repeating a work (a corrected record, the same line twice) add no paper: counted once.
    const distinct = new Set(
      drafts.map((draft) => (draft.doi ?? draft.arxivId ?? (draft.url || draft.title)).toLowerCase()),
    ).size;
    const fileBytes = (await fsp.stat(options.filePath)).size;
    const expectedPapers = head.ended ? distinct : Math.round((distinct * fileBytes) / Math.max(1, head.bytesRead));
    vectors = await options.beforeStore({ papers, expectedPapers });
    stored = head.entriesThenRest;
  }
  const { summary, failure } = await consumeEntries(deps.repositories, stored, {
    source: sourceName,
    fields: options.source ? fieldsOf(options.source) : undefined,
    onProgress: options.onProgress,
    total,
    vectors,
  });
  stream.destroy();
  await analyzeAfterLoad(deps.repositories, summary);
  if (failure) throw new SourceRunError(`${options.filePath}: ${describeError(failure)}`, summary, true);
  return summary;
}

/** A file import's reading, begun (openSourceFile) before the import itself. */
export interface OpenedSourceFile {
  /** Ends the reading: after the import, or when it will not happen (the database could not be opened). */
  close(): void;
}

interface SourceFileReading extends OpenedSourceFile {
  stream: fs.ReadStream;
  entries: AsyncGenerator<IngestEntry, unknown>;
  total: { value: number | undefined };
  /** The first papers being read, when asked for (readHead). */
  head: ReturnType<typeof readHead> | undefined;
}

/**
 * Begins reading a file to import: its entries, and with `readHead` its first `headPapers` papers at
 * once, before importSourceFile is called. The CLI begins so before it opens the database, so the head is
 * read while an embedded database starts (a new one: initdb and the migrations, about 2.4 s) instead of
 * after it. The file must have passed inspectSourceFile.
 */
export function openSourceFile(
  options: Pick<
    ImportFileOptions,
    'kind' | 'filePath' | 'source' | 'institute' | 'journal' | 'maxItems' | 'headPapers'
  >,
  { readHead: withHead }: { readHead: boolean },
): OpenedSourceFile {
  const total: { value: number | undefined } = { value: undefined };
  const stream = fs.createReadStream(options.filePath);
  const entries = readSourceFile(options.kind, stream, {
    maxItems: options.maxItems ?? 1_000_000,
    source: options.source,
    institute: options.institute,
    journal: options.journal,
    reportTotal: (value) => {
      total.value = value;
    },
  });
  const reading: SourceFileReading = {
    stream,
    entries,
    total,
    head: withHead ? readHead(entries, options.headPapers ?? FIT_SAMPLE_SIZE, stream) : undefined,
    close: () => {
      stream.destroy();
      void entries.return(undefined).catch(() => {});
    },
  };
  return reading;
}

/**
 * Reads entries until `papers` papers are read or the source ends, and gives them back with a
 * generator of the same entries followed by the rest (a failure while reading the head is thrown by
 * that generator after the head, where consumeEntries counts it as the source's failure).
 */
async function readHead<R>(entries: AsyncGenerator<IngestEntry, R>, papers: number, stream: fs.ReadStream) {
  const head: IngestEntry[] = [];
  let read = 0;
  let ended = false;
  let result: R | undefined;
  let failure: { error: unknown } | undefined;
  while (read < papers) {
    let next: IteratorResult<IngestEntry, R>;
    try {
      next = await entries.next();
    } catch (error) {
      failure = { error };
      break;
    }
    if (next.done) {
      ended = true;
      result = next.value;
      break;
    }
    head.push(next.value);
    if (next.value.type === 'paper') read++;
  }
  async function* entriesThenRest(): AsyncGenerator<IngestEntry, R> {
    yield* head;
    if (failure) throw failure.error;
    if (ended) return result as R;
    return yield* entries;
  }
  return {
    entries: head,
    ended: ended || failure !== undefined,
    /** Bytes of the file read when the head was (to estimate the papers of the whole file). */
    bytesRead: stream.bytesRead,
    entriesThenRest: entriesThenRest(),
  };
}
