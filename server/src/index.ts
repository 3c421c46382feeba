export * from './app';
export * from './logger';
export * from './runtime';
