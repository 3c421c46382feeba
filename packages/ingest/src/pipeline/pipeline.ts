import type { NewPaperVectors } from '@radar/ai';
import type { IngestRepositories, NewIngestReject } from '@radar/db';
import { createYielder, type ResearchFieldId } from '@radar/shared';
import { type IngestEntry, TransientSourceError } from '../types';
import { ContentStore, type ContentStoreRepositories, type StoreOutcome } from './content-store';

export interface IngestCounts {
  /** Entries read from the source (items, rejects and skips; not feed-level warnings). */
  seen: number;
  added: number;
  updated: number;
  /** Already stored and nothing new: part of `skipped` in summaries. */
  unchanged: number;
  skipped: number;
  rejected: number;
}

export interface IngestSummary {
  source: string;
  counts: IngestCounts;
  /** Why items were not stored although valid (unchanged duplicates, replacements of unknown papers ...). */
  skippedReasons: Record<string, number>;
  rejectedReasons: Record<string, number>;
  /** Caveats on stored items (no abstract, no date ...). */
  notes: Record<string, number>;
  /** About the feed as a whole: "reason: detail". */
  warnings: string[];
  newPaperIds: number[];
  /** Papers whose title or abstract changed (their vector and summary are redone). */
  changedPaperIds: number[];
  newNewsIds: number[];
  changedNewsIds: number[];
  durationMs: number;
  /** The failing spell this successful run ended (set by runSource), so the recovery is logged once. */
  recoveredFrom?: { failingSince: Date; failures: number } | undefined;
}

export interface IngestProgress extends IngestCounts {
  /** What the source said it has (or the run's cap), when known. */
  total: number | undefined;
}

/** Most reject/warning rows one run writes; the counts in the summary stay complete. */
const MAX_RECORDS_PER_RUN = 500;
/**
 * Papers stored together (one dedupe lookup and one insert for those new). 1,000 keeps a chunk's rows in
 * memory small.
 */
const PAPER_CHUNK_SIZE = 1_000;
/** While a chunk is being stored, the reading loop gives the event loop a turn at least this often. */
const PIPELINE_TURN_MS = 5;
/** Item failures in a row that mean the store itself is failing, not the items. */
const MAX_CONSECUTIVE_ITEM_ERRORS = 5;

const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

export interface ConsumeOptions {
  source: string;
  isDemo?: boolean;
  /** The research fields the source's entry declares (fieldsOf): given to every item it stores. */
  fields?: readonly ResearchFieldId[] | undefined;
  onProgress?: ((progress: IngestProgress) => void) | undefined;
  /** Updated by adapters that learn the size of the source. */
  total?: { value: number | undefined };
  /** Papers stored together (PAPER_CHUNK_SIZE); 1 stores them one at a time. */
  chunkSize?: number | undefined;
  /** Vectors of the active model written in the insert of new papers (ContentStore's `vectors`). */
  vectors?: NewPaperVectors | undefined;
}

/** What consumeEntries stores through and records its rejects in. */
export type ConsumeRepositories = ContentStoreRepositories & Pick<IngestRepositories, 'sourceStates'>;

/**
 * Reads a source's entries and stores them. Every entry ends as added, updated, skipped (with a reason)
 * or rejected (with a reason, recorded in radar.ingest_rejects); a bad item never stops the run. The
 * generator's return value (the source's new cursor) is handed back with the summary; when the source
 * itself fails, `failure` holds the error and the summary counts what was stored before it.
 */
export async function consumeEntries<R>(
  repositories: ConsumeRepositories,
  entries: AsyncGenerator<IngestEntry, R>,
  options: ConsumeOptions,
): Promise<{ summary: IngestSummary; result: R | undefined; failure: unknown }> {
  const started = Date.now();
  const store = new ContentStore(repositories, {
    source: options.source,
    isDemo: options.isDemo,
    fields: options.fields,
    vectors: options.vectors,
  });
  const states = repositories.sourceStates;
  const records: NewIngestReject[] = [];
  const record = (row: Omit<NewIngestReject, 'source'>) => {
    if (records.length < MAX_RECORDS_PER_RUN) {
      records.push({ ...row, source: options.source, detail: row.detail?.slice(0, 2_000) ?? null });
    }
  };
  const summary: IngestSummary = {
    source: options.source,
    counts: { seen: 0, added: 0, updated: 0, unchanged: 0, skipped: 0, rejected: 0 },
    skippedReasons: {},
    rejectedReasons: {},
    notes: {},
    warnings: [],
    newPaperIds: [],
    changedPaperIds: [],
    newNewsIds: [],
    changedNewsIds: [],
    durationMs: 0,
  };
  const { counts } = summary;
  const progress = () => options.onProgress?.({ ...counts, total: options.total?.value });

  let consecutiveErrors = 0;
  let result: R | undefined;
  let failure: unknown;
  let isStoreFailing = false;
  /** Counts one stored item's outcome; true when the store itself is failing (the run stops). */
  const account = (entry: IngestEntry & { type: 'paper' | 'news' }, settled: PromiseSettledResult<StoreOutcome>) => {
    const key = entry.draft.key;
    if (settled.status === 'rejected') {
      const error = settled.reason as Error;
      counts.rejected++;
      bump(summary.rejectedReasons, 'could not be stored');
      record({ severity: 'rejected', itemKey: key, reason: 'could not be stored', detail: error.message });
      if (++consecutiveErrors < MAX_CONSECUTIVE_ITEM_ERRORS) return false;
      failure ??= new TransientSourceError(
        `${MAX_CONSECUTIVE_ITEM_ERRORS} items in a row could not be stored; last error: ${error.message}`,
      );
      isStoreFailing = true;
      return true;
    }
    const outcome = settled.value;
    consecutiveErrors = 0;
    switch (outcome.outcome) {
      case 'added':
        counts.added++;
        (entry.type === 'paper' ? summary.newPaperIds : summary.newNewsIds).push(outcome.id);
        for (const note of entry.draft.notes) {
          bump(summary.notes, note);
          record({ severity: 'warning', itemKey: key, reason: note });
        }
        break;
      case 'updated':
        counts.updated++;
        if (outcome.textChanged) {
          (entry.type === 'paper' ? summary.changedPaperIds : summary.changedNewsIds).push(outcome.id);
        }
        break;
      case 'unchanged':
        counts.unchanged++;
        counts.skipped++;
        bump(summary.skippedReasons, 'already stored, nothing new');
        break;
      case 'skipped':
        counts.skipped++;
        bump(summary.skippedReasons, outcome.reason);
        break;
      case 'rejected':
        counts.rejected++;
        bump(summary.rejectedReasons, outcome.reason);
        record({ severity: 'rejected', itemKey: key, reason: outcome.reason, detail: outcome.detail });
        break;
    }
    return false;
  };

  // Papers are stored a chunk at a time (ContentStore.storePapers: one lookup, one insert for the new).
  let papers: (IngestEntry & { type: 'paper' })[] = [];
  /** Stores the papers read so far; true when the store is failing. */
  const storePapers = async () => {
    const chunk = papers;
    papers = [];
    if (chunk.length === 0) return false;
    const outcomes = await store.storePapers(chunk.map((entry) => entry.draft));
    let isFailing = false;
    chunk.forEach((entry, index) => {
      if (account(entry, outcomes[index] as PromiseSettledResult<StoreOutcome>)) isFailing = true;
    });
    progress();
    return isFailing;
  };

  /**
   * The chunk being stored while the next one is read: with PostgreSQL the server (embedded: PGlite's
   * thread) inserts one chunk while this process parses, maps and embeds the next. A chunk's store
   * starts only after the previous one ended, so its duplicate lookup sees every row stored before it,
   * as when they ran one after another.
   */
  let pending: Promise<boolean> | undefined;
  /** Waits for the chunk being stored; true when the store is failing. */
  const settlePending = async () => {
    const chunk = pending;
    pending = undefined;
    return chunk ? await chunk : false;
  };

  // Reading a file's entries never waits for I/O (the text is in memory), so without these turns the
  // database's answers to the chunk being stored (its lookup, then its insert) were read only once the
  // next chunk was read and embedded, and the two ran one after the other instead of side by side.
  const pause = createYielder(PIPELINE_TURN_MS);
  try {
    for (;;) {
      if (pending) await pause();
      let next: IteratorResult<IngestEntry, R>;
      try {
        next = await entries.next();
      } catch (error) {
        // The source failed (network, 5xx, not a feed): what was stored so far stays, and is counted.
        failure = error;
        break;
      }
      if (next.done) {
        result = next.value;
        break;
      }
      const entry = next.value;
      if (entry.type === 'warning') {
        summary.warnings.push(entry.detail ? `${entry.reason}: ${entry.detail}` : entry.reason);
        record({ severity: 'warning', itemKey: entry.key ?? null, reason: entry.reason, detail: entry.detail });
        continue;
      }
      counts.seen++;
      if (entry.type === 'reject') {
        counts.rejected++;
        bump(summary.rejectedReasons, entry.reason);
        record({ severity: 'rejected', itemKey: entry.key, reason: entry.reason, detail: entry.detail });
      } else if (entry.type === 'skip') {
        counts.skipped++;
        bump(summary.skippedReasons, entry.reason);
      } else if (entry.type === 'paper') {
        papers.push(entry);
        if (papers.length < (options.chunkSize ?? PAPER_CHUNK_SIZE)) continue;
        // While the chunk before is still being stored (the database busy on another core).
        await store.prepareVectors(papers.map((paper) => paper.draft));
        if (await settlePending()) {
          await entries.return(undefined as R).catch(() => {});
          break;
        }
        pending = storePapers();
        // Observed here too, so a failure while the next chunk is read is not an unhandled rejection.
        pending.catch(() => {});
        continue;
      } else {
        if (await settlePending()) {
          await entries.return(undefined as R).catch(() => {});
          break;
        }
        let settled: PromiseSettledResult<StoreOutcome>;
        try {
          settled = { status: 'fulfilled', value: await store.storeNews(entry.draft) };
        } catch (reason) {
          settled = { status: 'rejected', reason };
        }
        if (account(entry, settled)) {
          await entries.return(undefined as R).catch(() => {});
          break;
        }
      }
      progress();
    }
    // What was read before the end (or before the source failed) is stored too.
    await settlePending();
    if (!isStoreFailing) await storePapers();
  } finally {
    await pending?.catch(() => {});
    summary.durationMs = Date.now() - started;
    await states
      .recordRejects(records)
      .then(() => states.pruneRejects(options.source))
      .catch(() => {
        // Recording is best effort: a database that refuses it already failed the run above.
      });
  }
  progress();
  return { summary, result, failure };
}
