import type { IngestSourceRow, ItemKind, ReaderFieldsRepository, SourceStateRepository } from '@radar/db';
import {
  describeSourceFailure,
  fieldsOf,
  type IngestSettings,
  nextRetryOf,
  resolveSources,
  type SourceConfig,
  SourcesConfigError,
} from '@radar/ingest';
import { isResearchFieldId, type ResearchFieldId } from '@radar/shared';

/**
 * What stands between a reader and their first papers or news items: a sources file that cannot be
 * read, no active source of that content for the reader's fields, scheduled runs switched off, the
 * first fetch still running, or runs that failed. Read from the sources' activation (`resolveSources`,
 * the same decision the worker schedules by) and their run records, for the reader's research fields.
 */
export type SourceSetup =
  | { state: 'unreadable' }
  | {
      state: 'read';
      /** The sources are the built-in catalogue (switched on by readers' fields), not a sources file. */
      catalogue: boolean;
      /** Active sources of this content, for anyone. */
      configured: number;
      /** Active sources of this content that serve the reader: one of their fields is the reader's, or they name none. */
      relevant: number;
      /** The reader names at least one research field. */
      readerHasFields: boolean;
      /** The reader's fields that no active source of this content serves. */
      fieldsWithoutSource: ResearchFieldId[];
      /** Scheduled runs on; off, sources run only when an operator starts them. */
      scheduled: boolean;
      /** Of the relevant sources, those that finished a run. */
      finished: number;
      /** Of the relevant sources, those that ever finished a run successfully. */
      succeeded: number;
      /** Relevant sources in a spell of failures, with its start, the failure in words and the next try. */
      failing: FailingSource[];
      /** The relevant sources' first fetch, queued and not finished yet; undefined when none is. */
      firstFetch?: FirstFetch | undefined;
    };

export interface FailingSource {
  name: string;
  since: Date;
  /** What went wrong, in Chinese words for the reader (describeSourceFailure); the technical error stays for operators. */
  reason: string;
  /** When it is tried again (its job's next attempt, else its next scheduled run); undefined: not planned. */
  nextRetryAt?: Date | undefined;
}

export interface FirstFetch {
  sources: string[];
  /** When the earliest of them was queued. */
  startedAt: Date;
  /**
   * An estimate: the sources queued before them and these, one at a time, each taking the typical run
   * time of this installation's finished runs (one minute before any run finished). Never moved later
   * when it passes: `isLate` says so instead.
   */
  expectedBy: Date;
  /** The estimate has passed and the first fetch is still running. */
  isLate: boolean;
}

/** Every kind but news feeds brings papers. */
const contentOf = (source: SourceConfig): ItemKind => (source.kind === 'news-rss' ? 'news' : 'paper');

/** Typical run time when no run has finished yet, and the bounds of the measured one. */
const DEFAULT_RUN_MS = 60_000;
const MIN_RUN_MS = 10_000;
const MAX_RUN_MS = 30 * 60_000;

/** The median time from start to finish of the finished runs, bounded; DEFAULT_RUN_MS when none. */
function typicalRunMs(rows: IngestSourceRow[]): number {
  const durations = rows
    .flatMap((row) =>
      row.lastRunAt && row.lastFinishedAt && row.lastFinishedAt >= row.lastRunAt
        ? [row.lastFinishedAt.getTime() - row.lastRunAt.getTime()]
        : [],
    )
    .sort((a, b) => a - b);
  if (durations.length === 0) return DEFAULT_RUN_MS;
  const median = durations[Math.floor(durations.length / 2)] ?? DEFAULT_RUN_MS;
  return Math.min(MAX_RUN_MS, Math.max(MIN_RUN_MS, median));
}

/** A first fetch queued and not finished: a request time and no finished run. */
const isPendingFirstFetch = (
  row: IngestSourceRow | undefined,
): row is IngestSourceRow & { firstFetchRequestedAt: Date } =>
  Boolean(row?.firstFetchRequestedAt && !row.lastFinishedAt);

export class ContentSources {
  constructor(
    private readonly deps: {
      settings: IngestSettings;
      /** Reader counts per field, for resolveSources (the catalogue's activation). */
      readerFields: ReaderFieldsRepository;
      states: SourceStateRepository;
      now?: (() => Date) | undefined;
    },
  ) {}

  /** Read when a list is empty: the sources and their activation as they are now, and the run records. */
  async setupOf(kind: ItemKind, readerFieldNames: readonly string[] = []): Promise<SourceSetup> {
    let entries: Awaited<ReturnType<typeof resolveSources>>;
    try {
      entries = await resolveSources({
        repositories: { readerFields: this.deps.readerFields },
        settings: this.deps.settings,
      });
    } catch (error) {
      if (error instanceof SourcesConfigError) return { state: 'unreadable' };
      throw error;
    }
    const readerFields = readerFieldNames.filter(isResearchFieldId);
    const active = entries.active.filter((source) => contentOf(source) === kind);
    const serves = (source: SourceConfig) =>
      fieldsOf(source).length === 0 || fieldsOf(source).some((field) => readerFields.includes(field));
    const relevant = readerFields.length ? active.filter(serves) : active;
    const servesAnyField = active.some((source) => fieldsOf(source).length === 0);
    const fieldsWithoutSource = servesAnyField
      ? []
      : readerFields.filter((field) => !active.some((source) => fieldsOf(source).includes(field)));

    const rows = await this.deps.states.list();
    const byName = new Map(rows.map((row) => [row.name, row]));
    const relevantRows = relevant.map((source) => byName.get(source.name));
    // A source in a spell of failures is failing while it runs again (a retry), until a run succeeds.
    const failing = relevant.flatMap((source): FailingSource[] => {
      const row = byName.get(source.name);
      if (!row || !(row.failingSince || row.status === 'failed')) return [];
      const lastFailureAt = row.lastErrorAt ?? row.updatedAt;
      return [
        {
          name: row.name,
          since: row.failingSince ?? lastFailureAt,
          reason: describeSourceFailure(row.lastError ?? ''),
          nextRetryAt: nextRetryOf(source, this.deps.settings, row.consecutiveFailures, lastFailureAt),
        },
      ];
    });
    const pending = relevantRows.filter(isPendingFirstFetch);
    return {
      state: 'read',
      catalogue: entries.catalogue,
      configured: active.length,
      relevant: relevant.length,
      readerHasFields: readerFields.length > 0,
      fieldsWithoutSource,
      scheduled: this.deps.settings.enabled,
      finished: relevantRows.filter((row) => row?.lastFinishedAt).length,
      succeeded: relevantRows.filter((row) => row?.lastSuccessAt).length,
      failing,
      firstFetch: this.deps.settings.enabled && pending.length ? this.estimate(pending, rows) : undefined,
    };
  }

  /**
   * When the pending first fetches should be done: ingest runs one source at a time per worker, so
   * every first fetch queued up to the latest of ours runs before ours finish. An estimate that has
   * passed is kept and marked late: moving it to "a run from now" made a promise that slid with the
   * clock while the sources were failing.
   */
  private estimate(
    pending: (IngestSourceRow & { firstFetchRequestedAt: Date })[],
    rows: IngestSourceRow[],
  ): FirstFetch {
    const now = this.deps.now?.() ?? new Date();
    const runMs = typicalRunMs(rows);
    const requested = pending.map((row) => row.firstFetchRequestedAt.getTime());
    const latest = Math.max(...requested);
    const queuedFirst = Math.min(...rows.filter(isPendingFirstFetch).map((row) => row.firstFetchRequestedAt.getTime()));
    const ahead = rows
      .filter(isPendingFirstFetch)
      .filter((row) => row.firstFetchRequestedAt.getTime() <= latest).length;
    const started = Math.min(...requested);
    const expected = queuedFirst + ahead * runMs;
    return {
      sources: pending.map((row) => row.name),
      startedAt: new Date(started),
      expectedBy: new Date(expected),
      isLate: expected < now.getTime(),
    };
  }
}
