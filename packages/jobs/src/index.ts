/** Queues and their processors, shared by the worker process and the server's in-process worker. */

export * from './job-payloads';
export * from './jobs/delivery.job';
export * from './jobs/embeddings.job';
export * from './jobs/journal-tiers.job';
export * from './jobs/keyword-alerts.job';
export * from './jobs/maintenance.job';
export * from './jobs/profile-learning.job';
export * from './jobs/reader-queries.job';
export * from './jobs/research-profile.job';
export * from './process-startup';
export * from './queue-connection';
export * from './source-flow';
export { SOURCE_SCHEDULER_PREFIX, syncActiveSources } from './source-schedules';
export * from './worker-app';
