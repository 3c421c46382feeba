import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium package. Playwright's own browser downloads are never used. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails with the fix when the browser is missing: a missing browser must not look like a passing run. */
export function assertChromiumInstalled(): void {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `The e2e tests need Debian's chromium at ${CHROMIUM_PATH}, which does not exist. ` +
        'Install it with `apt-get install -y chromium` (do not run `playwright install`).',
    );
  }
}

export async function launchChromium(): Promise<Browser> {
  assertChromiumInstalled();
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
