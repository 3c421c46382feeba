export * from './ai';
export * from './ingest';
export * from './jobs/maintenance.job';
export * from './jobs/reembed.job';
export * from './jobs/research-profile.job';
export * from './queue-connection';
export * from './worker-app';
