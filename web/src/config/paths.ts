/**
 * Every route of the app. Components never spell a URL: they use `path` for route
 * definitions and `getHref()` for links, so a route can move in one place.
 */
export const paths = {
  home: { path: '/', getHref: () => '/' },

  login: {
    path: '/login',
    /** The login screen may prefill the email from the query. */
    getHref: (email?: string) => withQuery('/login', { email }),
  },
  register: { path: '/register', getHref: () => '/register' },
  forgotPassword: { path: '/forgot-password', getHref: () => '/forgot-password' },
  resetPassword: {
    path: '/reset-password',
    getHref: (token?: string) => withQuery('/reset-password', { token }),
  },
  verifyEmail: {
    path: '/verify-email',
    /** `from=register` shows the registration-success banner. */
    getHref: (params: { email?: string; from?: 'register' } = {}) => withQuery('/verify-email', params),
  },
  contact: { path: '/contact', getHref: () => '/contact' },

  papers: { path: '/papers', getHref: () => '/papers' },
  news: { path: '/news', getHref: () => '/news' },
  /** Keyword management (implied by the keyword calls of the API). */
  keywords: { path: '/keywords', getHref: () => '/keywords' },
  /** Article search; `q` holds the keywords (joined with AND by the server), `page` starts at 1. */
  search: {
    path: '/search',
    getHref: (params: { q?: string; page?: number } = {}) =>
      withQuery('/search', { q: params.q, page: pageParam(params.page) }),
  },
  /** News search; the submitted form is kept in the query (parsed by features/news-search). */
  newsSearch: {
    path: '/search/news',
    getHref: (params: Record<string, string | undefined> = {}) => withQuery('/search/news', params),
  },
  /** Favourited and saved papers; `list` favorited or saved (absent: both). */
  library: {
    path: '/library',
    getHref: (params: { list?: 'favorited' | 'saved'; page?: number } = {}) =>
      withQuery('/library', { list: params.list, page: pageParam(params.page) }),
  },
  my: { path: '/my', getHref: () => '/my' },
  feedback: { path: '/feedback', getHref: () => '/feedback' },
} as const;

/** Page 1 is the default and is left out of the URL. */
function pageParam(page: number | undefined): string | undefined {
  return page !== undefined && page > 1 ? String(page) : undefined;
}

function withQuery(pathname: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value) query.set(key, value);
  }
  const search = query.toString();
  return search ? `${pathname}?${search}` : pathname;
}
