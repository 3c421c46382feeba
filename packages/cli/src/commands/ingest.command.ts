import path from 'node:path';
import { describeModel, FIT_SAMPLE_SIZE, type ImportPreparation } from '@radar/ai';
import { createIngestRepositories, type DatabaseHandle, findLiveLockHolder, SourceStateRepository } from '@radar/db';
import {
  type EnqueueJob,
  enqueueEnrichment,
  fieldsOf,
  type IngestProgress,
  type IngestSummary,
  importSourceFile,
  importTierTableFile,
  ingestSettingsFromConfig,
  inspectSourceFile,
  isSourceKind,
  loadDemoCorpus,
  loadSourceList,
  type OpenedSourceFile,
  openSourceFile,
  READER_QUERY_SOURCE,
  readerQueriesOff,
  removeDemoContent,
  resolveSources,
  runSource,
  SOURCE_KINDS,
  type SourceConfig,
  type SourceKind,
  SourceRunError,
  scheduleOf,
} from '@radar/ingest';
import {
  createQueue,
  createQueueConnection,
  type JobQueue,
  requestRefitIfDue,
  SOURCE_SCHEDULER_PREFIX,
} from '@radar/jobs';
import { QUEUE_NAMES, type QueueName } from '@radar/shared';
import type { AppConfig } from '@radar/shared/server';
import { ActionableError } from '@radar/shared/server';
import cliProgress from 'cli-progress';
import { parseCommandLine, UsageError } from '../command-line';
import { formatTime, type Out, printJson, printTable } from './output';
import { embeddingModelsOf, runReembed } from './reembed.command';

/**
 * Operator commands of content ingestion (the work is done in packages/ingest/src; these parse flags,
 * show progress and print summaries):
 *   ingest <source|kind> [--since DATE] [--file PATH] [--institute NAME] [--journal NAME]
 *   sources
 *   journals import <file> [--label LABEL]
 *   demo [--remove]
 */

/** Adds jobs to the enrichment queues of this installation (run by the server's or a worker's process). */
async function withProducers<T>(
  config: AppConfig,
  database: DatabaseHandle,
  use: (enqueue: EnqueueJob, queue: <N extends QueueName>(name: N) => JobQueue<N>) => Promise<T>,
): Promise<T> {
  const connection = createQueueConnection({
    redisUrl: config.redisUrl,
    postgres: database.connectionConfig,
    prefix: config.queuePrefix,
  });
  const queues = new Map<QueueName, { close(): Promise<void> }>();
  const queue = <N extends QueueName>(name: N): JobQueue<N> => {
    let existing = queues.get(name);
    if (!existing) {
      existing = createQueue(connection, name);
      queues.set(name, existing);
    }
    return existing as JobQueue<N>;
  };
  try {
    return await use((name, jobName, data) => queue(name).add(jobName, data), queue);
  } finally {
    await Promise.all([...queues.values()].map((entry) => entry.close()));
  }
}

function progressBar(label: string) {
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {value}/{total} | {rate} a second | added {added} · updated {updated} · skipped {skipped} · rejected {rejected}`,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const startedAt = performance.now();
  return {
    update(progress: IngestProgress) {
      const total = Math.max(progress.total ?? 0, progress.seen);
      const seconds = (performance.now() - startedAt) / 1000;
      const payload = {
        rate: seconds > 0 ? Math.round(progress.seen / seconds) : 0,
        added: progress.added,
        updated: progress.updated,
        skipped: progress.skipped,
        rejected: progress.rejected,
      };
      if (!started) {
        bar.start(total, progress.seen, payload);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(progress.seen, payload);
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

const reasons = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([reason, count]) => `${reason}: ${count}`)
    .join('; ');

const perSecond = (count: number, ms: number) => (ms > 0 ? Math.round((count * 1000) / ms) : count);

function printSummary(summary: IngestSummary, out: Out): void {
  const { counts } = summary;
  const skipped = counts.skipped ? ` (${reasons(summary.skippedReasons)})` : '';
  const rejected = counts.rejected ? ` (${reasons(summary.rejectedReasons)})` : '';
  out(
    `${summary.source}: added ${counts.added}, updated ${counts.updated}, skipped ${counts.skipped}${skipped}, rejected ${counts.rejected}${rejected} in ${(summary.durationMs / 1000).toFixed(1)} s (${perSecond(counts.seen, summary.durationMs)} a second)`,
  );
  if (Object.keys(summary.notes).length) out(`  stored with notes: ${reasons(summary.notes)}`);
  for (const warning of summary.warnings.slice(0, 10)) out(`  warning: ${warning}`);
  if (summary.warnings.length > 10) out(`  ... ${summary.warnings.length - 10} more warnings`);
}

/**
 * Whether a worker serves this installation's queues now: with the embedded database, a server holds
 * DATA_DIR (it always runs the worker there); with DATABASE_URL, a worker is connected to the
 * `embeddings` queue (BullMQ lists workers by their named connections, on Redis and PostgreSQL).
 */
async function isWorkerRunning(config: AppConfig, database: DatabaseHandle): Promise<boolean> {
  if (database.mode === 'embedded') {
    const holder = await findLiveLockHolder(config.dataDir);
    return holder !== undefined && holder.pid !== process.pid;
  }
  return withProducers(
    config,
    database,
    async (_enqueue, queue) => (await queue(QUEUE_NAMES.embeddings).getWorkersCount()) > 0,
  );
}

const jobs = (count: number, what: string) => `${count} ${what} job${count === 1 ? '' : 's'}`;

/**
 * What follows a command that stored content: vectors for it, a fit of the built-in embedding model
 * when one is due (the first fit as soon as the corpus is large enough, then refits as it grows), and
 * summaries. With a worker running, these are queued for it (the refit as one deduplicated job).
 * Without one, vectors and the fit are done here, with progress, so the content is recommendable when
 * the command ends; only summaries (an LLM's work) wait for a worker.
 */
async function followIngestion(
  config: AppConfig,
  database: DatabaseHandle,
  summaries: Pick<IngestSummary, 'newPaperIds' | 'changedPaperIds' | 'newNewsIds' | 'changedNewsIds'>[],
  out: Out,
): Promise<void> {
  const merged = {
    newPaperIds: summaries.flatMap((summary) => summary.newPaperIds),
    changedPaperIds: summaries.flatMap((summary) => summary.changedPaperIds),
    newNewsIds: summaries.flatMap((summary) => summary.newNewsIds),
    changedNewsIds: summaries.flatMap((summary) => summary.changedNewsIds),
  };
  const stored =
    merged.newPaperIds.length + merged.changedPaperIds.length + merged.newNewsIds.length + merged.changedNewsIds.length;
  if (stored === 0) return;
  const withSummaries = ingestSettingsFromConfig(config).summariesEnabled;
  const noLlm =
    !withSummaries && merged.newPaperIds.length + merged.changedPaperIds.length > 0
      ? 'no summaries: no LLM is configured (LLM_MODEL)'
      : '';
  const models = embeddingModelsOf(config, database);

  if (await isWorkerRunning(config, database)) {
    const { queued, refit } = await withProducers(config, database, async (enqueue, queue) => ({
      queued: await enqueueEnrichment(enqueue, merged, { summaries: withSummaries }),
      refit: await requestRefitIfDue(models, queue(QUEUE_NAMES.embeddings)),
    }));
    const what = [
      jobs(queued.embedJobs, 'embedding'),
      ...(refit.due ? [`a refit of the built-in embedding model (${refit.reason})`] : []),
      ...(withSummaries ? [jobs(queued.summaryJobs, 'summary')] : []),
    ];
    out(`queued ${what.join(', ')}; the running worker does them${noLlm ? `; ${noLlm}` : ''}`);
    return;
  }

  // No worker: a refit when due, then vectors for everything that lacks one of the active model.
  let embedded = true;
  try {
    await runReembed(config, database, { refit: false }, out);
  } catch (error) {
    embedded = false;
    out(`vectors not computed now: ${(error as Error).message}`);
  }
  const { embedJobs, summaryJobs } = await withProducers(config, database, (enqueue) =>
    enqueueEnrichment(enqueue, merged, { summaries: withSummaries, embeddings: !embedded }),
  );
  const queued = [
    ...(embedJobs ? [jobs(embedJobs, 'embedding')] : []),
    ...(summaryJobs ? [jobs(summaryJobs, 'summary')] : []),
  ];
  if (queued.length) out(`queued ${queued.join(' and ')}; a worker runs them (pnpm start, or pnpm worker)`);
  if (noLlm) out(noLlm);
}

/** Some configured sources failed; each was reported on its own line already. */
class SourcesFailedError extends ActionableError {
  override name = 'SourcesFailedError';
}

/** What `pnpm radar ingest` will do, checked before the database is opened. */
export type IngestPlan =
  | {
      mode: 'file';
      kind: SourceKind;
      filePath: string;
      source: SourceConfig | undefined;
      institute: string | undefined;
      journal: string | undefined;
    }
  | { mode: 'run'; sources: SourceConfig[]; since: string | undefined };

/** The command line of `ingest` alone (no sources file, no file read): a mistake is a UsageError. */
export function parseIngestArgs(args: string[]) {
  const { positionals, values } = parseCommandLine(args, {
    usage: `usage: pnpm radar ingest <source name | ${SOURCE_KINDS.join(' | ')}> [--since YYYY-MM-DD] [--file PATH] [--institute NAME] [--journal NAME]`,
    options: {
      since: { type: 'string' },
      file: { type: 'string' },
      institute: { type: 'string' },
      journal: { type: 'string' },
    },
    positionals: { min: 1, max: 1 },
  });
  const target = positionals[0] ?? '';
  const { since, file: filePath, institute, journal } = values;
  if (since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(since))
    throw new UsageError('--since must be a date like 2026-01-31');
  return { target, since, filePath, institute, journal };
}

/**
 * Reads the command line, the sources file and, for --file, the start of the file: every mistake
 * (unknown source, bad date, missing or empty file, a file of another kind) is reported in one line
 * before the database is opened, so nothing is created or stored.
 */
export async function planIngestCommand(config: AppConfig, args: string[]): Promise<IngestPlan> {
  const { target, since, filePath, institute, journal } = parseIngestArgs(args);
  const { sources, origin } = await loadSourceList(ingestSettingsFromConfig(config));

  if (filePath !== undefined) {
    const source = sources.find((candidate) => candidate.name === target);
    const kind = source?.kind ?? (isSourceKind(target) ? target : undefined);
    if (!kind)
      throw new UsageError(`"${target}" is neither a configured source nor a kind (${SOURCE_KINDS.join(', ')})`);
    await inspectSourceFile(kind, filePath);
    return { mode: 'file', kind, filePath, source, institute, journal };
  }

  const selected = sources.filter((source) => source.name === target || source.kind === target);
  if (selected.length === 0) {
    const names = sources.map((source) => source.name).join(', ') || 'none';
    throw new UsageError(
      `no configured source named or of kind "${target}" in ${origin} (configured: ${names}); to import a saved file give --file`,
    );
  }
  return { mode: 'run', sources: selected, since };
}

/**
 * A file import's first papers (the fit's sample) begun before the database is opened, so they are read
 * while a new embedded database starts; undefined for a source run. The caller closes it when the
 * import does not happen.
 */
export function beginFileReading(plan: IngestPlan): OpenedSourceFile | undefined {
  if (plan.mode !== 'file') return undefined;
  return openSourceFile({ ...fileOptions(plan), headPapers: FIT_SAMPLE_SIZE }, { readHead: true });
}

const fileOptions = (plan: IngestPlan & { mode: 'file' }) => ({
  kind: plan.kind,
  filePath: plan.filePath,
  source: plan.source,
  institute: plan.institute,
  journal: plan.journal,
});

export async function runIngestCommand(
  config: AppConfig,
  database: DatabaseHandle,
  plan: IngestPlan,
  out: Out,
  /** beginFileReading's reading of the plan's file. */
  opened?: OpenedSourceFile,
): Promise<void> {
  const deps = { repositories: createIngestRepositories(database.db), settings: ingestSettingsFromConfig(config) };

  if (plan.mode === 'file') {
    const bar = progressBar(plan.source?.name ?? `${plan.kind} file`);
    const models = embeddingModelsOf(config, database);
    let prepared: ImportPreparation | undefined;
    let summary: IngestSummary;
    try {
      summary = await importSourceFile(
        deps,
        {
          ...fileOptions(plan),
          onProgress: (progress) => bar.update(progress),
          // Before storing: the first fit from the file's first works when there is none, so the papers
          // are inserted with their vectors (docs/decisions/ingestion.md).
          headPapers: FIT_SAMPLE_SIZE,
          beforeStore: async (head) => {
            const started = Date.now();
            prepared = await models.prepareImport({
              papers: head.papers,
              expectedDocuments: head.expectedPapers,
              // A running worker fits the first model (it is queued after the import, as for any source);
              // a queue that cannot be asked now is no reason to refuse the import.
              mayFit: !(await isWorkerRunning(config, database).catch(() => false)),
            });
            if (prepared.firstFit)
              out(
                `fitted the built-in model on ${prepared.firstFit.documents} documents (the file's first works; ${prepared.firstFit.dimension} dimensions) in ${((Date.now() - started) / 1000).toFixed(1)} s, before storing`,
              );
            return prepared.vectors;
          },
        },
        opened,
      );
    } catch (error) {
      bar.stop();
      await prepared?.finish();
      // What was read before the file turned out unreadable; a file refused outright has nothing to show.
      if (error instanceof SourceRunError && error.summary.counts.seen > 0) printSummary(error.summary, out);
      throw error;
    } finally {
      bar.stop();
    }
    printSummary(summary, out);
    if (prepared) {
      const started = Date.now();
      const indexed = await prepared.finish();
      if (indexed)
        out(
          `built the vector index of ${describeModel(indexed)} once, after the import, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
    }
    await followIngestion(config, database, [summary], out);
    return;
  }

  const summaries: IngestSummary[] = [];
  const failures: string[] = [];
  for (const source of plan.sources) {
    const bar = progressBar(source.name);
    try {
      const summary = await runSource(deps, source, {
        since: plan.since,
        onProgress: (progress) => bar.update(progress),
      });
      bar.stop();
      printSummary(summary, out);
      summaries.push(summary);
    } catch (error) {
      bar.stop();
      if (error instanceof SourceRunError) {
        printSummary(error.summary, out);
        summaries.push(error.summary);
      }
      failures.push(`${source.name}: ${(error as Error).message}`);
      out(`${source.name} failed: ${(error as Error).message}`);
    }
  }
  await followIngestion(config, database, summaries, out);
  if (failures.length) throw new SourcesFailedError(`${failures.length} of ${plan.sources.length} sources failed`);
}

/** One content source as `radar sources list` shows it (configured, or only known from earlier runs). */
export interface SourceListing {
  name: string;
  kind: string;
  /** The research fields the entry declares. */
  fields: string[];
  /** Readers naming at least one of them, and which of them readers name. */
  readers: number;
  readerFields: string[];
  /** Scheduled and run (resolveSources); false for entries off and for sources no longer configured. */
  active: boolean;
  /** Why it is on or off, e.g. "2 readers name materials-science" or "no reader names medicine". */
  why: string;
  /**
   * Cron expression; `off` for an entry that is not active (see `why`); `per reader, daily` for the
   * per-reader OpenAlex queries; `not configured` for runs recorded for a source no longer in the file
   * or catalogue.
   */
  schedule: string;
  nextRunAt: Date | null;
  lastRunAt: Date | null;
  status: string;
  lastAdded: number;
  totalAdded: number;
  lastError: string | null;
}

export interface SourcesOverview {
  /** The configured SOURCES_FILE, absolute. */
  sourcesFile: string;
  /** Where the sources came from: the file, INGEST_SOURCES_JSON, or `built-in catalogue` (no file). */
  origin: string;
  /** True when the built-in catalogue is in use (no sources file). */
  catalogue: boolean;
  scheduledRuns: boolean;
  sources: SourceListing[];
}

/**
 * Every source (the file's or the catalogue's) with whether it is active and why, its schedule, next and
 * last run, and the result of that run.
 */
async function listSources(config: AppConfig, database: DatabaseHandle): Promise<SourcesOverview> {
  const settings = ingestSettingsFromConfig(config);
  const resolved = await resolveSources({ repositories: createIngestRepositories(database.db), settings });
  const sources = resolved.entries.map((entry) => entry.source);
  const states = new Map((await new SourceStateRepository(database.db).list()).map((state) => [state.name, state]));
  const schedulers = await withProducers(config, database, async (_enqueue, queue) => {
    const list = await queue(QUEUE_NAMES.ingest).getJobSchedulers(0, -1);
    return new Map(list.map((scheduler) => [scheduler.key, scheduler]));
  });
  const ran = (name: string) => {
    const state = states.get(name);
    return {
      lastRunAt: state?.lastRunAt ?? null,
      status: state?.status ?? 'never-run',
      lastAdded: state?.lastAdded ?? 0,
      totalAdded: state?.totalAdded ?? 0,
      lastError: state?.status === 'failed' ? (state.lastError ?? '') : null,
    };
  };
  const listed: SourceListing[] = [
    ...resolved.entries.map(({ source, active, why, readers, readerFields }) => {
      const next = schedulers.get(`${SOURCE_SCHEDULER_PREFIX}${source.name}`)?.next;
      return {
        name: source.name,
        kind: source.kind,
        fields: [...fieldsOf(source)],
        readers,
        readerFields,
        active,
        why,
        schedule: active ? scheduleOf(source) : 'off',
        nextRunAt: next ? new Date(next) : null,
        ...ran(source.name),
      };
    }),
    ...[...states.values()]
      .filter((state) => !sources.some((source) => source.name === state.name))
      .map((state) => ({
        name: state.name,
        kind: state.kind,
        fields: [],
        readers: 0,
        readerFields: [],
        // The per-reader OpenAlex queries run under one source name, outside the sources file.
        ...(state.name === READER_QUERY_SOURCE
          ? {
              active: !readerQueriesOff(settings),
              why: readerQueriesOff(settings) || 'the daily OpenAlex query of each reader with a summary',
              schedule: `per reader, daily${readerQueriesOff(settings) ? ` (off: ${readerQueriesOff(settings)})` : ''}`,
            }
          : { active: false, why: `not in ${resolved.origin}`, schedule: 'not configured' }),
        nextRunAt: null,
        ...ran(state.name),
      })),
  ];
  return {
    sourcesFile: path.resolve(settings.sourcesFile),
    origin: resolved.origin,
    catalogue: resolved.catalogue,
    scheduledRuns: settings.enabled,
    sources: listed,
  };
}

export async function runSourcesCommand(
  config: AppConfig,
  database: DatabaseHandle,
  out: Out,
  options: { json: boolean } = { json: false },
): Promise<void> {
  const overview = await listSources(config, database);
  if (options.json) {
    printJson(out, overview);
    return;
  }
  const active = overview.sources.filter((source) => source.active).length;
  out(
    `sources: ${overview.catalogue ? `built-in catalogue (no sources file at ${overview.sourcesFile}), each entry on while a reader names one of its fields` : overview.origin}; ${active} of ${overview.sources.length} active; scheduled runs ${overview.scheduledRuns ? 'on' : 'off (INGEST_ENABLED=false)'}`,
  );
  if (overview.sources.length === 0) {
    out('no sources configured: the sources file lists none (see config/README.md)');
    return;
  }
  printTable(
    [
      [
        'NAME',
        'KIND',
        'FIELDS',
        'ACTIVE',
        'SCHEDULE',
        'NEXT RUN',
        'LAST RUN',
        'STATUS',
        'ADDED',
        'TOTAL',
        'LAST ERROR',
      ],
      ...overview.sources.map((source) => [
        source.name,
        source.kind,
        source.fields.join(',') || '-',
        `${source.active ? 'yes' : 'no'}: ${source.why}`,
        source.schedule,
        formatTime(source.nextRunAt),
        formatTime(source.lastRunAt),
        source.status,
        String(source.lastAdded),
        String(source.totalAdded),
        source.lastError ?? '',
      ]),
    ],
    out,
  );
}

export interface JournalsOptions {
  file: string;
  label: string | undefined;
}

export function parseJournalsArgs(args: string[]): JournalsOptions {
  const usage = 'usage: pnpm radar journals import <file.csv> [--label NAME]';
  const { positionals, values } = parseCommandLine(args, {
    usage,
    options: { label: { type: 'string' } },
    positionals: { min: 2, max: 2 },
  });
  const [subcommand, file = ''] = positionals;
  if (subcommand !== 'import') throw new UsageError(usage);
  return { file, label: values.label };
}

export async function runJournalsCommand(
  database: DatabaseHandle,
  { file, label }: JournalsOptions,
  out: Out,
): Promise<void> {
  const bar = new cliProgress.SingleBar(
    { format: 'journals [{bar}] {value}/{total}', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let summary: Awaited<ReturnType<typeof importTierTableFile>>;
  try {
    summary = await importTierTableFile(createIngestRepositories(database.db), file, {
      label,
      onProgress: (done, total) => {
        if (!started) {
          bar.start(total, done);
          started = true;
        } else bar.update(done);
      },
    });
  } finally {
    if (started) bar.stop();
  }
  out(`${file}: ${summary.format} table "${summary.label}", ${summary.rows} rows`);
  out(
    `journals: ${summary.journalsAdded} added, ${summary.journalsUpdated} updated, ${summary.journalsUnchanged} unchanged; rows skipped: ${summary.rejects.length}`,
  );
  for (const reject of summary.rejects.slice(0, 10))
    out(`  line ${reject.line}: ${reject.reason}${reject.detail ? ` (${reject.detail})` : ''}`);
  if (summary.rejects.length > 10) out(`  ... ${summary.rejects.length - 10} more`);
  for (const warning of summary.warnings) out(`  warning: ${warning}`);
  out(`papers: ${summary.papersLinked} linked to a journal by title, ${summary.papersRetiered} with a changed tier`);
}

export function parseDemoArgs(args: string[]): { remove: boolean } {
  const { values } = parseCommandLine(args, {
    usage: 'usage: pnpm radar demo [--remove]',
    options: { remove: { type: 'boolean' } },
    positionals: { min: 0, max: 0 },
  });
  return { remove: values.remove === true };
}

export async function runDemoCommand(
  config: AppConfig,
  database: DatabaseHandle,
  options: { remove: boolean },
  out: Out,
): Promise<void> {
  const repositories = createIngestRepositories(database.db);
  if (options.remove) {
    const removed = await removeDemoContent(repositories);
    out(`removed the demo content: ${removed.papers} papers, ${removed.news} news items`);
    return;
  }
  const bar = progressBar('demo');
  let result: Awaited<ReturnType<typeof loadDemoCorpus>>;
  try {
    result = await loadDemoCorpus(repositories, { onProgress: (progress) => bar.update(progress) });
  } finally {
    bar.stop();
  }
  const { content, journals } = result;
  if (result.removedPapers || result.removedNews) {
    out(`replaced the previous demo content (${result.removedPapers} papers, ${result.removedNews} news items)`);
  }
  out(
    `demo corpus loaded (marked as demo): ${content.newPaperIds.length} papers and ${content.newNewsIds.length} news items across 21 research fields, ${journals.journalsAdded + journals.journalsUpdated + journals.journalsUnchanged} journals with tiers 1-4, dated up to 45 days back from today`,
  );
  await followIngestion(config, database, [content], out);
  out('remove it again with: pnpm radar demo --remove');
}
