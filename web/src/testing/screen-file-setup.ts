import { DEFAULT_TIME_ZONE } from '@radar/shared';
import { afterAll, afterEach, vi } from 'vitest';
import { forgetEarlyGets } from '@/lib/early-answers';
import { resetEarlyView } from '@/lib/early-view';
import { setDisplayTimeZone } from '@/lib/relative-time';
import { unmountRenders } from './render-app';

/**
 * Runs before every screen test file (vitest.config.ts, `setupFiles`). The files share worker processes
 * (`isolate: false`): the modules (React, MUI, the app) and the happy-dom window stay loaded from one
 * file to the next, so everything a page load starts with is put back here, and each file starts as it
 * would in a process of its own. What is deliberately kept: the loaded modules and emotion's style
 * sheets in <head> (emotion's cache is module state and believes its rules are inserted; the rules are
 * the same for every file).
 *
 * Per render (render-app.tsx), not here: the TanStack Query client (emptied after each test), the memory
 * router and user-event. Per file: the fake API server, which `useFakeApi` creates, starts and closes
 * with hooks of the calling file (its routes and recorded requests are emptied after each test).
 */

/** The part of happy-dom's window API used here (the test files run in its environment). */
type HappyDomWindow = { happyDOM: { setURL: (url: string) => void; abort: () => Promise<void> } };

/** happy-dom's start page in Vitest (its environment's default `url`). */
const START_URL = 'http://localhost:3000/';

function resetDocument(): void {
  document.body.replaceChildren();
  for (const { name } of [...document.body.attributes]) document.body.removeAttribute(name);
  // MUI and the pages add attributes to <html> (a modal's scroll lock, the color scheme).
  for (const { name } of [...document.documentElement.attributes]) document.documentElement.removeAttribute(name);
  for (const node of [...document.head.childNodes]) {
    if (!(node instanceof HTMLStyleElement && node.hasAttribute('data-emotion'))) node.remove();
  }
  document.title = '';
}

function clearCookies(): void {
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: happy-dom has no Cookie Store API; expiring each cookie is how a page removes its own
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

async function startLikeANewPage(): Promise<void> {
  // Fake timers (and a faked Date) a previous file left on would stall this file's waits.
  vi.useRealTimers();
  // Unmounts whatever a previous file left rendered (the afterEach below normally has).
  unmountRenders();
  const happyDom = (window as unknown as HappyDomWindow).happyDOM;
  // Requests and timers the previous file's page still had running (its server is closed by now).
  await happyDom.abort();
  resetDocument();
  happyDom.setURL(START_URL);
  window.history.replaceState(null, '', '/');
  window.scrollTo(0, 0);
  localStorage.clear();
  sessionStorage.clear();
  clearCookies();
  // The app's module-level state that a page load starts without.
  forgetEarlyGets();
  resetEarlyView();
  setDisplayTimeZone(DEFAULT_TIME_ZONE);
}

await startLikeANewPage();

// Registered here, not in a helper module: a module that stays loaded registers its hooks for the first
// file of the worker only, while this file runs again before every file.
afterEach(() => {
  unmountRenders();
});

afterAll(() => {
  vi.useRealTimers();
});
