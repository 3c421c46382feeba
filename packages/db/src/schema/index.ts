export * from './async-tasks';
export * from './auth-records';
export * from './columns';
export * from './content';
export * from './embedding-models';
export * from './user-content';
export * from './users';
