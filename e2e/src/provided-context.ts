/** Values the global setup hands to the test files through vitest's provide/inject. */
export const WEB_DIST_DIR_KEY = 'webDistDir';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the web app built for this run (removed after the run). */
    webDistDir: string;
  }
}
