import { paths } from '@/config/paths';
import { prefetchUser } from '@/features/auth/api/get-user';
import { prefetchNewsRecommendations } from '@/features/news-recommendations/api/prefetch-news-recommendations';
import { prefetchPaperRecommendations } from '@/features/paper-recommendations/api/prefetch-paper-recommendations';
import { earlyPageAt } from '@/lib/early-view';
import { getToken } from '@/lib/session';
import { showEarlyView } from './early-view';

/** The pages whose first screen is a list, with their first request. */
const LIST_PAGES = [
  { path: paths.papers.path, page: 'papers', prefetchList: prefetchPaperRecommendations },
  { path: paths.news.path, page: 'news', prefetchList: prefetchNewsRecommendations },
] as const;

/** The list page at `pathname`, matched as the router matches (lib/early-view's earlyPageAt). */
export function listPageAt(pathname: string): string | undefined {
  const page = earlyPageAt(pathname);
  return LIST_PAGES.find((entry) => entry.page === page)?.path;
}

/**
 * The requests a signed-in reader's first screen waits for: the account (GET /api/auth/user/), and on
 * /papers and /news, as soon as the account has a research summary, the first answer of the stored
 * settings (without a summary those pages ask for nothing). These are the requests the app sends
 * anyway; the auth provider and the pages take their answers over (lib/early-answers). Started twice
 * (by the early script, then by the app's entry) they are sent once. The list's answer draws the
 * early view (app/early-view) until the app's page shows it; the promise says whether it drew one, once
 * it has or once it is clear that there is none to draw.
 */
export function startEarlyGets(pathname: string): Promise<boolean> {
  if (!getToken()) return Promise.resolve(false);
  const user = prefetchUser();
  const page = LIST_PAGES.find(({ path }) => path === listPageAt(pathname));
  if (!page) return Promise.resolve(false);
  return (
    user
      .then(async (account) =>
        account.research_summary_en.trim() ? showEarlyView(page.page, await page.prefetchList()) : false,
      )
      // A failed account or list draws nothing early: the auth provider and the page show the failure
      // when they take the answer.
      .catch(() => false)
  );
}
