export * from './html';
export * from './link-tokens';
export * from './mailer';
