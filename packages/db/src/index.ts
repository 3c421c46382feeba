export * from './connection';
export * from './data-dir-lock';
export * from './embedded-postgres';
export * from './migrate';
export * from './repositories/embedding.repository';
export * from './repositories/health.repository';
export * from './repositories/paper.repository';
export * from './repositories/user.repository';
export * as schema from './schema';
