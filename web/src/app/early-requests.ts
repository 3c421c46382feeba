import { paths } from '@/config/paths';
import { prefetchUser } from '@/features/auth/api/get-user';
import { prefetchNewsRecommendations } from '@/features/news-recommendations/api/prefetch-news-recommendations';
import { prefetchPaperRecommendations } from '@/features/paper-recommendations/api/prefetch-paper-recommendations';
import { getToken } from '@/lib/session';

/**
 * The pages whose first screen is a list: their code (the same chunks router.tsx loads lazily) and their
 * first request.
 */
const LIST_PAGES = [
  { path: paths.papers.path, load: () => import('./routes/papers'), prefetchList: prefetchPaperRecommendations },
  { path: paths.news.path, load: () => import('./routes/news'), prefetchList: prefetchNewsRecommendations },
];

/**
 * What the first screen of a signed-in reader waits for, started by the entry before React and MUI are
 * even evaluated (main.tsx imports this module first, and it imports none of them): the account (GET
 * /api/auth/user/), and on /papers and /news the page's code and the first answer of the stored settings
 * (kept only when the account has a research summary: without one those pages ask for nothing).
 * Otherwise each waited for the one before it: the shell's first render, the account, the page's chunk,
 * the page's first render, then the list. These are the requests the app sends anyway; the auth
 * provider and the pages take their answers over (lib/early-answers).
 */
function startEarlyRequests(pathname: string): void {
  if (!getToken()) return;
  const user = prefetchUser();
  // As the router matches: case-insensitive, a trailing slash allowed.
  const page = LIST_PAGES.find(({ path }) => pathname.replace(/\/+$/, '').toLowerCase() === path);
  if (!page) return;
  // A failed load is retried when the page renders, and fails there in the route's error element.
  page.load().catch(() => {});
  // Sent beside the account's request rather than after it: on a busy machine the account's answer, and
  // then the main thread evaluating the app, held the list back by 100-600 ms. Without a research summary
  // the page asks for nothing, so that answer is dropped (this runs before the auth provider takes the
  // account, so before any page could take the list); so is it when the account fails to load.
  const forgetList = page.prefetchList();
  user
    .then((account) => {
      if (!account.research_summary_en.trim()) forgetList();
    })
    // The auth provider reports a failed account load when it takes it.
    .catch(forgetList);
}

startEarlyRequests(window.location.pathname);
