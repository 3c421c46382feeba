export * from './app';
export * from './logger';
export * from './runtime';
export * from './server-parts';
