import { paths } from '@/config/paths';
import { getToken } from '@/lib/session';
import { listPageAt, startEarlyGets } from './early-gets';

/** The code of the pages whose first screen is a list: the same chunks router.tsx loads lazily. */
const LIST_PAGE_CODE: Record<string, () => Promise<unknown>> = {
  [paths.papers.path]: () => import('./routes/papers'),
  [paths.news.path]: () => import('./routes/news'),
};

/**
 * What the first screen of a signed-in reader waits for, started by the entry before React and MUI are
 * evaluated (main.tsx imports this module first, and it imports none of them): the requests of
 * early-gets (sent once: the early script of the built app has usually sent them already) and on
 * /papers and /news the page's code. Otherwise each waited for the one before it: the shell's first
 * render, the account, the page's chunk, the page's first render, then the list.
 */
function startEarlyRequests(pathname: string): void {
  void startEarlyGets(pathname);
  const loadPage = LIST_PAGE_CODE[listPageAt(pathname) ?? ''];
  if (!loadPage || !getToken()) return;
  // A failed load is retried when the page renders, and fails there in the route's error element.
  loadPage().catch(() => {});
}

startEarlyRequests(window.location.pathname);
