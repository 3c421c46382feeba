export * from './queue-connection';
export * from './worker-app';
