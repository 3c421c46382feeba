import { z } from 'zod';

/**
 * Queue names and job payloads. Producers (server) and processors (worker) import these so a payload
 * can never drift between the two sides. Payloads carry ids, never secrets.
 */
export const QUEUE_NAMES = {
  maintenance: 'maintenance',
  researchProfile: 'research-profile',
  embeddings: 'embeddings',
  ingest: 'ingest',
  contentEmbed: 'content-embed',
  paperSummary: 'paper-summary',
  keywordAlerts: 'keyword-alerts',
  profileLearning: 'profile-learning',
  journalTiers: 'journal-tiers',
  readerQueries: 'reader-queries',
  delivery: 'delivery',
  ownWorks: 'own-works',
} as const;

export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export const maintenanceJobSchema = z.object({
  /**
   * Which housekeeping task to run. sync-sources: make the content sources' schedules follow which
   * sources are active (readers' fields) and queue the first run of a newly active one.
   */
  task: z.enum([
    'purge-expired-auth-records',
    'purge-stale-unverified-accounts',
    'fail-interrupted-tasks',
    'sync-sources',
  ]),
});
export type MaintenanceJob = z.infer<typeof maintenanceJobSchema>;

/** Analyse a research-direction task (radar.async_tasks); the pasted text is in the task row, not the payload. */
export const researchProfileJobSchema = z.object({
  taskId: z.uuid(),
});
export type ResearchProfileJob = z.infer<typeof researchProfileJobSchema>;

export const embeddingsJobSchema = z.discriminatedUnion('task', [
  /**
   * Keep every stored vector on the configured model: switch the active model when the
   * configuration changed, refit the built-in model when the corpus has grown (or when forced), and
   * re-embed rows whose vector is missing or from another model.
   */
  z.object({ task: z.literal('maintain'), forceRefit: z.boolean().optional() }),
  /** (Re)compute one user's profile vector, when doing it inside the request failed. */
  z.object({ task: z.literal('embed-profile'), userId: z.uuid() }),
]);
export type EmbeddingsJob = z.infer<typeof embeddingsJobSchema>;

/** Run one configured content source (config/sources.json) by name; `since` overrides its cursor. */
export const ingestJobSchema = z.object({
  source: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/),
  since: z.iso.date().optional(),
});
export type IngestJob = z.infer<typeof ingestJobSchema>;

/** Embed newly stored or changed papers or news items with the active embedding provider. */
export const contentEmbedJobSchema = z.object({
  target: z.enum(['papers', 'news']),
  ids: z.array(z.number().int().positive()).min(1).max(500),
});
export type ContentEmbedJob = z.infer<typeof contentEmbedJobSchema>;

/** LLM summaries (llm_summary) of these papers, or, without ids, of recent papers that lack one. */
export const paperSummaryJobSchema = z.object({
  ids: z.array(z.number().int().positive()).min(1).max(500).optional(),
});
export type PaperSummaryJob = z.infer<typeof paperSummaryJobSchema>;

/**
 * Mail each user whose alert-enabled keywords are due one digest of the new papers matching them
 * (scheduled hourly; packages/jobs/src/jobs/keyword-alerts.job.ts).
 */
export const keywordAlertsJobSchema = z.object({});
export type KeywordAlertsJob = z.infer<typeof keywordAlertsJobSchema>;

/**
 * Recompute one user's learned profile from their research summary vector and what they liked and
 * dismissed (queued after each favourite, save, read, 'not interested', undo or profile change).
 */
export const profileLearningJobSchema = z.object({ userId: z.uuid() });
export type ProfileLearningJob = z.infer<typeof profileLearningJobSchema>;

/**
 * Refresh journal tiers from an automatic source: 'scimago' (the SCImago export, when no current tiers are
 * stored) or 'openalex' (quartiles for journals without a tier; needs OPENALEX_API_KEY). `force` fetches
 * SCImago even when its tiers are current.
 */
export const journalTiersJobSchema = z.object({
  system: z.enum(['scimago', 'openalex']),
  force: z.boolean().optional(),
});
export type JournalTiersJob = z.infer<typeof journalTiersJobSchema>;

/**
 * Search OpenAlex for the readers whose daily query is due, each with the terms of their research
 * summary (scheduled hourly; packages/jobs/src/jobs/reader-queries.job.ts).
 */
export const readerQueriesJobSchema = z.object({});
export type ReaderQueriesJob = z.infer<typeof readerQueriesJobSchema>;

/**
 * Deliver each reader whose digest slot (their hour, in their time zone, daily or on their weekday) has
 * come: the digest mail and the robot webhook push (scheduled hourly; packages/jobs/src/jobs/delivery.job.ts).
 */
export const deliveryJobSchema = z.object({});
export type DeliveryJob = z.infer<typeof deliveryJobSchema>;

/**
 * Seed a reader's profile from their own works (an own-works task in radar.async_tasks): fetch or read
 * the works named in the task's input, store them as the reader's liked papers, propose a summary.
 */
export const ownWorksJobSchema = z.object({ taskId: z.uuid() });
export type OwnWorksJob = z.infer<typeof ownWorksJobSchema>;

export const JOB_PAYLOAD_SCHEMAS = {
  [QUEUE_NAMES.maintenance]: maintenanceJobSchema,
  [QUEUE_NAMES.researchProfile]: researchProfileJobSchema,
  [QUEUE_NAMES.embeddings]: embeddingsJobSchema,
  [QUEUE_NAMES.ingest]: ingestJobSchema,
  [QUEUE_NAMES.contentEmbed]: contentEmbedJobSchema,
  [QUEUE_NAMES.paperSummary]: paperSummaryJobSchema,
  [QUEUE_NAMES.keywordAlerts]: keywordAlertsJobSchema,
  [QUEUE_NAMES.profileLearning]: profileLearningJobSchema,
  [QUEUE_NAMES.journalTiers]: journalTiersJobSchema,
  [QUEUE_NAMES.readerQueries]: readerQueriesJobSchema,
  [QUEUE_NAMES.delivery]: deliveryJobSchema,
  [QUEUE_NAMES.ownWorks]: ownWorksJobSchema,
} as const satisfies Record<QueueName, z.ZodType>;

/** What a producer hands to queue N: the input of its schema, checked when the job is added. */
export type JobPayload<N extends QueueName> = z.input<(typeof JOB_PAYLOAD_SCHEMAS)[N]>;
/** What the processor of queue N receives: the payload after its schema parsed it. */
export type ParsedJobPayload<N extends QueueName> = z.output<(typeof JOB_PAYLOAD_SCHEMAS)[N]>;

const QUEUE_NAME_SET: ReadonlySet<string> = new Set(Object.values(QUEUE_NAMES));
export const isQueueName = (name: string): name is QueueName => QUEUE_NAME_SET.has(name);
