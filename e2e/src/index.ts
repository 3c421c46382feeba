// What test files use. The web build (build-web.ts, which imports vite) belongs to the global setup only.
export { assertChromiumInstalled, CHROMIUM_PATH, launchChromium } from './browser';
export { loadEmbeddedDemoCorpus } from './demo-corpus';
export {
  type E2eEnvironment,
  type E2ePage,
  type OpenPageOptions,
  readSession,
  startE2e,
  VIEWPORTS,
} from './harness';
export { type OutboxMail, readOutbox, readResetPath, readVerificationCode, waitForMail } from './outbox';
export { type E2eServer, type StartServerOptions, startServer } from './server';
export {
  ARTIFACTS_DIR,
  captureBothWidths,
  expectCleanPage,
  expectFieldMessage,
  fieldByLabel,
  fieldMessage,
  fillAndLeave,
  SCREENSHOT_VIEWPORTS,
  waitForCompleteList,
} from './ui';
