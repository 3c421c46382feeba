/**
 * Every route of the app (spec section 2). Components never spell a URL: they use `path` for route
 * definitions and `getHref()` for links, so a route can move in one place.
 */
export const paths = {
  home: { path: '/', getHref: () => '/' },

  login: {
    path: '/login',
    /** The login screen may prefill the email from the query (spec section 2). */
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
  my: { path: '/my', getHref: () => '/my' },
  feedback: { path: '/feedback', getHref: () => '/feedback' },
} as const;

export type AppPath = (typeof paths)[keyof typeof paths]['path'];

function withQuery(pathname: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value) query.set(key, value);
  }
  const search = query.toString();
  return search ? `${pathname}?${search}` : pathname;
}
