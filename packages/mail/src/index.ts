export * from './html';
export * from './link-tokens';
export * from './mailer';
export * from './robot-webhooks';
