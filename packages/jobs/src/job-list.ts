import type { AnyJobDefinition } from './job-definition';
import { contentEmbedJob } from './jobs/content-embed.job';
import { deliveryJob } from './jobs/delivery.job';
import { embeddingsJob } from './jobs/embeddings.job';
import { ingestJob } from './jobs/ingest.job';
import { journalTiersJob } from './jobs/journal-tiers.job';
import { keywordAlertsJob } from './jobs/keyword-alerts.job';
import { maintenanceJob } from './jobs/maintenance.job';
import { ownWorksJob } from './jobs/own-works.job';
import { paperSummaryJob } from './jobs/paper-summary.job';
import { profileLearningJob } from './jobs/profile-learning.job';
import { readerQueriesJob } from './jobs/reader-queries.job';
import { researchProfileJob } from './jobs/research-profile.job';

/**
 * One job per queue, each with its processor, limits and schedules (src/jobs/<queue>.job.ts); start-up
 * refuses a queue with none or two. In QUEUE_NAMES' order: workers start, schedules register and the
 * metrics list queues in it. A new queue is its job file plus one line here.
 */
export const JOBS: readonly AnyJobDefinition[] = [
  maintenanceJob,
  researchProfileJob,
  embeddingsJob,
  ingestJob,
  contentEmbedJob,
  paperSummaryJob,
  keywordAlertsJob,
  profileLearningJob,
  journalTiersJob,
  readerQueriesJob,
  deliveryJob,
  ownWorksJob,
];
