import type { Logger } from 'pino';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The BullMQ job states reported per queue. */
const QUEUE_JOB_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
export type QueueJobState = (typeof QUEUE_JOB_STATES)[number];
/** Jobs per state, per queue name. */
export type QueueJobCounts = Record<string, Record<QueueJobState, number>>;

/** Stored items without a vector of the active embedding model, per kind. */
export interface EmbeddingBacklog {
  papers: number;
  news: number;
}

export type IngestedKind = keyof EmbeddingBacklog;

/** One source's flow as the `radar_source_*` gauges report it (times absent when unknown). */
export interface SourceFlowSample {
  name: string;
  lastRunAt: Date | null;
  lastSuccessAt: Date | null;
  addedLastDay: number;
  addedLastWeek: number;
  consecutiveFailures: number;
  failingSince: Date | null;
  nextRunAt: Date | null;
  /** The last run's technical error while failing (left out: none). */
  lastError?: string | null | undefined;
}

/** An error as one label value: its first line, at most 200 characters. */
const errorLabel = (error: string) => {
  const line = (error.split('\n').find((part) => part.trim()) ?? '').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
};

/** Gauges filled from one read per scrape reuse a read this recent. */
const SHARED_READ_MS = 1_000;

/** Latency buckets (seconds) of HTTP requests: most answer in milliseconds, a synchronous LLM call in tens of seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Job runs range from a mail send to a model refit or a long feed. */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900];

/**
 * The metrics of one process, in a registry of its own (never prom-client's global one), so a test can
 * run several apps in one process. The server records HTTP requests; whichever process runs the worker
 * records jobs and ingestion and reports the queues and the embedding backlog, read when scraped.
 */
export class AppMetrics {
  readonly registry = new Registry();
  private readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  private readonly jobDuration: Histogram<'queue' | 'outcome'>;
  private readonly jobsFailed: Counter<'queue'>;
  private readonly ingestedItems: Counter<'source' | 'kind'>;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpRequestDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'radar_job_duration_seconds',
      help: 'Run time of each job attempt by queue and outcome (completed or failed)',
      labelNames: ['queue', 'outcome'],
      buckets: JOB_BUCKETS,
      registers,
    });
    this.jobsFailed = new Counter({
      name: 'radar_jobs_failed_total',
      help: 'Failed job attempts by queue (a retried job counts once per failed attempt)',
      labelNames: ['queue'],
      registers,
    });
    this.ingestedItems = new Counter({
      name: 'radar_ingested_items_total',
      help: 'New papers and news items stored by ingestion, by source and kind',
      labelNames: ['source', 'kind'],
      registers,
    });
  }

  /** `route` is the route's pattern (`/articles/:id/save/`), never the URL: ids and queries would explode the label set. */
  observeHttpRequest(request: { method: string; route: string; statusCode: number; seconds: number }): void {
    this.httpRequestDuration.observe(
      { method: request.method, route: request.route, status_code: String(request.statusCode) },
      request.seconds,
    );
  }

  observeJob(queue: string, outcome: 'completed' | 'failed', seconds: number | undefined): void {
    if (outcome === 'failed') this.jobsFailed.inc({ queue });
    if (seconds !== undefined) this.jobDuration.observe({ queue, outcome }, seconds);
  }

  countIngested(source: string, kind: IngestedKind, count: number): void {
    if (count > 0) this.ingestedItems.inc({ source, kind }, count);
  }

  /**
   * Reports `radar_queue_jobs` from `read` at each scrape. A failed read is logged and leaves the gauge
   * empty for that scrape rather than failing every other metric.
   */
  reportQueueJobs(read: () => Promise<QueueJobCounts>, logger: Logger): void {
    new Gauge({
      name: 'radar_queue_jobs',
      help: 'Jobs per queue and state (waiting, active, delayed, failed), read when scraped',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        const counts = await read().catch((error: Error) => {
          logger.warn({ err: error.message }, 'queue metrics not collected');
          return {} as QueueJobCounts;
        });
        for (const [queue, states] of Object.entries(counts)) {
          for (const state of QUEUE_JOB_STATES) this.set({ queue, state }, states[state]);
        }
      },
    });
  }

  /** Reports `radar_embedding_backlog` from `read` (one query) at each scrape; a failed read as above. */
  reportEmbeddingBacklog(read: () => Promise<EmbeddingBacklog>, logger: Logger): void {
    new Gauge({
      name: 'radar_embedding_backlog',
      help: 'Stored papers and news items without a vector of the active embedding model, read when scraped',
      labelNames: ['kind'],
      registers: [this.registry],
      async collect() {
        this.reset();
        const backlog = await read().catch((error: Error) => {
          logger.warn({ err: error.message }, 'embedding backlog not collected');
          return undefined;
        });
        if (!backlog) return;
        this.set({ kind: 'papers' }, backlog.papers);
        this.set({ kind: 'news' }, backlog.news);
      },
    });
  }

  /**
   * Reports the `radar_source_*` gauges from `read` (one read per scrape, shared by the gauges): per
   * source, its last run and success, items added in the last day and week, consecutive failures, the
   * start of its failing spell, and its next scheduled run. A failed read as above.
   */
  reportSourceFlow(read: () => Promise<SourceFlowSample[]>, logger: Logger): void {
    let shared: { at: number; flow: Promise<SourceFlowSample[] | undefined> } | undefined;
    const readOnce = () => {
      if (!shared || Date.now() - shared.at > SHARED_READ_MS) {
        shared = {
          at: Date.now(),
          flow: read().catch((error: Error) => {
            logger.warn({ err: error.message }, 'source metrics not collected');
            return undefined;
          }),
        };
      }
      return shared.flow;
    };
    const seconds = (date: Date | null) => (date ? date.getTime() / 1000 : undefined);
    const gauge = (
      name: string,
      help: string,
      values: (source: SourceFlowSample) => [Record<string, string>, number | undefined][],
      extraLabels: string[] = [],
    ) =>
      new Gauge({
        name,
        help,
        labelNames: ['source', ...extraLabels],
        registers: [this.registry],
        async collect() {
          this.reset();
          for (const source of (await readOnce()) ?? []) {
            for (const [labels, value] of values(source)) {
              if (value !== undefined) this.set({ source: source.name, ...labels }, value);
            }
          }
        },
      });
    gauge('radar_source_last_run_timestamp_seconds', 'Start of each source’s last run (Unix time)', (s) => [
      [{}, seconds(s.lastRunAt)],
    ]);
    gauge(
      'radar_source_last_success_timestamp_seconds',
      'End of each source’s last successful run (Unix time)',
      (s) => [[{}, seconds(s.lastSuccessAt)]],
    );
    gauge(
      'radar_source_items_added',
      'Papers and news items each source created in the last day (window 1d) and week (7d)',
      (s) => [
        [{ window: '1d' }, s.addedLastDay],
        [{ window: '7d' }, s.addedLastWeek],
      ],
      ['window'],
    );
    gauge('radar_source_consecutive_failures', 'Failed runs of each source since its last success', (s) => [
      [{}, s.consecutiveFailures],
    ]);
    gauge(
      'radar_source_failing_since_timestamp_seconds',
      'First failure since the last success, for sources failing now (Unix time)',
      (s) => [[{}, seconds(s.failingSince)]],
    );
    gauge('radar_source_next_run_timestamp_seconds', 'Next scheduled run of each source (Unix time)', (s) => [
      [{}, seconds(s.nextRunAt)],
    ]);
    // The technical error is for operators (here and in `pnpm radar sources`); readers are told what
    // went wrong in words (@radar/ingest describeSourceFailure).
    gauge(
      'radar_source_last_error_info',
      'The last error of each source failing now, as the label `error` (value 1)',
      (s) => (s.failingSince && s.lastError ? [[{ error: errorLabel(s.lastError) }, 1]] : []),
      ['error'],
    );
  }

  /** The Prometheus text exposition of every metric. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
