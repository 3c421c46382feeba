import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The third-party fixtures (real payloads, the labelled dev set) are read in place, never copied into
 * the repository. They live beside it (`../shared/fixtures`); RADAR_SHARED_FIXTURES points elsewhere
 * (CI sets it when the clone is not next to them). Tests skip with a message when they are absent.
 */
export function sharedFixturesDir(): string {
  const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));
  return process.env.RADAR_SHARED_FIXTURES || path.resolve(repoRoot, '../shared/fixtures');
}
