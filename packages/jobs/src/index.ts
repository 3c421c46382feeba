/** Queues and their processors, shared by the worker process and the server's in-process worker. */
export * from './jobs/keyword-alerts.job';
export * from './jobs/maintenance.job';
export * from './jobs/profile-learning.job';
export * from './jobs/reembed.job';
export * from './jobs/research-profile.job';
export * from './queue-connection';
export { SOURCE_SCHEDULER_PREFIX, syncSourceSchedulers } from './source-schedules';
export * from './worker-app';
