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
 * /api/auth/user/), and on /papers and /news the page's code and, as soon as the account has a research
 * summary, the first answer of the stored settings (without a summary those pages ask for nothing).
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
  user
    .then((account) => {
      if (account.research_summary_en.trim()) page.prefetchList();
    })
    // The auth provider reports a failed account load when it takes it.
    .catch(() => {});
}

startEarlyRequests(window.location.pathname);
