import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { IngestRepositories } from '@radar/db';
import { ActionableError } from '@radar/shared/server';
import { fetchSource, readSourceFile } from '../adapters';
import { ARXIV_POLITENESS_KEY } from '../adapters/arxiv';
import { decodeHead } from '../adapters/decode';
import { HttpClient, type PolitenessLease } from '../adapters/http';
import { payloadMismatch, SNIFF_BYTES, sniffPayload } from '../adapters/sniff';
import { PermanentSourceError, type SourceCursor, type SourceKind } from '../types';
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
export async function importSourceFile(deps: IngestDeps, options: ImportFileOptions): Promise<IngestSummary> {
  await inspectSourceFile(options.kind, options.filePath);
  const sourceName = options.source?.name ?? `${options.kind}-file`;
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
  const { summary, failure } = await consumeEntries(deps.repositories, entries, {
    source: sourceName,
    fields: options.source ? fieldsOf(options.source) : undefined,
    onProgress: options.onProgress,
    total,
  });
  stream.destroy();
  await analyzeAfterLoad(deps.repositories, summary);
  if (failure) throw new SourceRunError(`${options.filePath}: ${describeError(failure)}`, summary, true);
  return summary;
}
