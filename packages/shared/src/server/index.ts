export * from './actionable-error';
export * from './config';
export * from './worker-thread';
