export * from './smtp-sink';
