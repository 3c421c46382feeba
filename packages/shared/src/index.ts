export * from './api/error.schema';
export * from './api/health.schema';
export * from './api/user.schema';
export * from './date-filters';
export * from './errors';
export * from './limits';
export * from './queues';
export * from './research-fields';
