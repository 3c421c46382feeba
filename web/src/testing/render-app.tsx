import nodeConsole from 'node:console';
import type { UserResponse } from '@radar/shared';
import { cleanup, configure, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { createQueryClient } from '@/lib/query-client';
import { SESSION_STORAGE_KEYS } from '@/lib/session';
import { createFakeApi, type FakeApi } from './fake-api';

/** The bearer token of signed-in test sessions. */
export const TEST_TOKEN = 'test-token';

/**
 * A fake API server (fake-api.ts) for the test file: listening before its tests, emptied after each
 * test, closed at the end. Register answers with `api.on(...)` before `renderApp`.
 */
export function useFakeApi(): FakeApi {
  const api = createFakeApi();
  beforeAll(() => api.listen());
  afterEach(() => api.reset());
  afterAll(() => api.close());
  return api;
}

/**
 * lib/api-client logs one line per request (`[api] GET /user-keywords/ 200 (12 ms)`); screen tests
 * make hundreds, so they are left out of the output.
 */
function quietApiClientLog() {
  const printDebug = console.debug;
  console.debug = (...data: unknown[]) => {
    if (!(typeof data[0] === 'string' && data[0].startsWith('[api] '))) printDebug(...data);
  };
}

/**
 * happy-dom prints to Node's own console (outside Vitest's capture) what a browser shows in its devtools
 * and more: `POST http://127.0.0.1:…/api/auth/login/ 401 (Unauthorized)` for every answer that is not
 * ok, and `Error: socket hang up` for every request the app aborts (TanStack Query cancels the requests
 * of a screen that unmounts, so most tests end with one, sometimes after the file's last hook). Error
 * states are tested on purpose, so both are left out; anything else is printed. Installed once per
 * process and never removed, for that late abort.
 */
const NETWORK_LOG_FILTER = Symbol.for('radar.web.networkLogFilter');

function installNetworkLogFilter() {
  const target = nodeConsole as typeof nodeConsole & { [NETWORK_LOG_FILTER]?: true };
  if (target[NETWORK_LOG_FILTER]) return;
  target[NETWORK_LOG_FILTER] = true;
  const printError = nodeConsole.error;
  nodeConsole.error = (...data: unknown[]) => {
    if (!isNetworkLogLine(data)) printError.apply(nodeConsole, data);
  };
}

function isNetworkLogLine(data: unknown[]): boolean {
  const [first] = data;
  if (data.length !== 1) return false;
  if (first instanceof Error) return (first as NodeJS.ErrnoException).code === 'ECONNRESET';
  return typeof first === 'string' && /^[A-Z]+ http:\/\/127\.0\.0\.1:\d+\/\S* \d{3} \(.*\)$/.test(first);
}

/** The part of happy-dom's window API used here (the test files run in its environment). */
type HappyDomWindow = { happyDOM: { setURL: (url: string) => void } };

export type RenderAppOptions = {
  /** Signed in as this user (token and email in localStorage, GET /api/auth/user/ answers it); absent: anonymous. */
  user?: UserResponse;
  /** Navigation state of the first entry, e.g. a return target. */
  state?: unknown;
  /** localStorage entries besides the session (e.g. stored recommendation settings). */
  storage?: Record<string, string>;
};

/**
 * The query clients of this test's renders. Unmounting a screen leaves its client's cache and garbage
 * timers behind (5 minutes by default); emptying it ends them, so nothing of one test (or one file, in
 * the worker processes the screen files share) outlives it.
 */
const renderedQueryClients = new Set<ReturnType<typeof createQueryClient>>();

/**
 * Renders the whole app (real route table, providers and shell) at `path` in a memory router. The
 * window's URL is the fake API's origin, so the app's relative requests reach that server.
 */
export function renderApp(api: FakeApi, path: string, options: RenderAppOptions = {}) {
  // As in the browser, the page starts at `path`; the memory router does the navigation after that.
  (window as unknown as HappyDomWindow).happyDOM.setURL(`${api.origin}${path}`);
  localStorage.clear();
  sessionStorage.clear();
  for (const [key, value] of Object.entries(options.storage ?? {})) localStorage.setItem(key, value);
  if (options.user) {
    localStorage.setItem(SESSION_STORAGE_KEYS.token, TEST_TOKEN);
    localStorage.setItem(SESSION_STORAGE_KEYS.userEmail, options.user.email);
    api.on('GET', '/api/auth/user/', { body: options.user });
  }

  const router = createMemoryRouter(routes, { initialEntries: [{ ...splitPath(path), state: options.state }] });
  // No pause between keystrokes: nothing under test depends on typing speed.
  const user = userEvent.setup({ delay: null });
  /**
   * Enters `text` into an empty field as one paste. Typing re-renders the form once per character;
   * use `user.type` where the keystrokes themselves are under test.
   */
  const fill = async (field: HTMLElement, text: string) => {
    await user.click(field);
    await user.paste(text);
  };
  // The app's own client, made here so the test can empty it when the screen goes (renderedQueryClients).
  const queryClient = createQueryClient();
  renderedQueryClients.add(queryClient);
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, user, fill };
}

function splitPath(path: string): { pathname: string; search: string } {
  const url = new URL(path, 'http://app.test');
  return { pathname: url.pathname, search: url.search };
}

quietApiClientLog();
installNetworkLogFilter();

// Pages are lazy chunks, transformed on first use: the first screen of a file may take seconds, and on
// a loaded 2-core CI machine (load average 20-40) a screen took over 5 s to show. A wait that succeeds
// returns as soon as it does, so the long limit costs only the failing case.
configure({ asyncUtilTimeout: 15_000 });

/**
 * Unmounts the test's screens and empties their query clients. Vitest runs without globals, so Testing
 * Library cannot register its own cleanup: screen-file-setup.ts calls this after each test (a hook
 * registered here would run for the first file of a worker only, as this module stays loaded).
 */
export function unmountRenders(): void {
  cleanup();
  for (const queryClient of renderedQueryClients) queryClient.clear();
  renderedQueryClients.clear();
}
