export * from './actionable-error';
export * from './config';
