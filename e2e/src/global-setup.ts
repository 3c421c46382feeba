import type { TestProject } from 'vitest/node';
import { assertChromiumInstalled } from './browser';
import { currentWebBuild } from './build-web';
import { WEB_DIST_DIR_KEY } from './provided-context';

/**
 * Runs once per `vitest run` that includes e2e tests: checks the browser first (fails fast), then
 * provides the test files with a production build of the web app's current sources (made now unless a
 * run before made one of the same sources).
 */
export default async function setup(project: TestProject): Promise<void> {
  assertChromiumInstalled();
  project.provide(WEB_DIST_DIR_KEY, await currentWebBuild());
}
