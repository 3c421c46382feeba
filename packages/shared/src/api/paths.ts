/**
 * Every HTTP path of the API, as the server registers it and the web app requests it. Written exactly as
 * the clients send them: the trailing slashes and the three families outside /api/ (/articles/,
 * /user-keywords/, /user-rkeywords/) are part of the contract a spec-only backend also answers, so a
 * change here is a change of the wire. Parameters are Fastify's `:name` patterns; clients fill them with
 * apiPath(). server/test/guarded-routes.test.ts checks this table against the routes the app
 * registers, both ways.
 *
 * Free of zod, so the web app's page chunks import it without the schema library.
 */
export const API_PATHS = {
  // System
  health: '/api/health',
  publicConfig: '/api/config/',
  /** The OpenAPI page (Swagger UI) and its JSON under it. */
  apiDocs: '/api/docs',

  // Accounts: registration, sign-in, password
  register: '/api/auth/register/',
  verifyEmail: '/api/auth/verify-email/',
  resendVerificationCode: '/api/auth/resend-verification-code/',
  verificationStatus: '/api/auth/verification-status/',
  login: '/api/auth/login/',
  forgotPassword: '/api/auth/forgot-password/',
  resetPassword: '/api/auth/reset-password/',
  changePassword: '/api/auth/password/change/',

  // Accounts: sessions
  logout: '/api/auth/logout/',
  sessions: '/api/auth/sessions/',
  session: '/api/auth/sessions/:id/',
  logoutOtherSessions: '/api/auth/sessions/logout-others/',

  // Accounts: the signed-in user
  user: '/api/auth/user/',
  deleteUser: '/api/auth/user/delete/',
  changeEmail: '/api/auth/user/email/',
  confirmEmailChange: '/api/auth/user/email/confirm/',
  exportUserData: '/api/auth/user/export/',

  // Research profile
  researchAnalysis: '/api/auth/research-direction/process/',
  researchAnalysisAsync: '/api/auth/research-direction/process-async/',
  researchConfirm: '/api/auth/research-direction/confirm/',
  /** Beyond the spec: seed the profile from the reader's own works (ORCID iD or OpenAlex author id). */
  researchFromAuthorId: '/api/auth/research-direction/from-author-id/',
  /** Beyond the spec: seed the profile from an uploaded library file (BibTeX, RIS, CSL-JSON). */
  researchFromLibrary: '/api/auth/research-direction/from-library/',
  taskStatus: '/api/auth/tasks/:id/status/',
  vectorUpdate: '/api/auth/vector/update/',
  /** Not in the spec: the reader's research interests (the summary first); GET lists, POST adds one. */
  interests: '/api/auth/interests/',
  /** Not in the spec: PATCH renames, edits or sets the quota of one interest ('summary': quota only); DELETE removes it. */
  interest: '/api/auth/interests/:id/',

  /** Not in the spec: the authors the reader follows; GET lists, POST follows one from a paper's author list. */
  followedAuthors: '/api/auth/followed-authors/',
  /** Not in the spec: DELETE unfollows. */
  followedAuthor: '/api/auth/followed-authors/:id/',

  // Paper recommendations and what they learn from the reader
  paperRecommendations: '/api/auth/recommendations/papers/',
  paperSimilarity: '/api/auth/recommendations/similarity/',
  recommendationStats: '/api/auth/recommendations/stats/',
  learningStatus: '/api/auth/recommendations/learning/',
  learningReset: '/api/auth/recommendations/learning/reset/',
  paperDismiss: '/articles/:id/not-interested/',
  paperRating: '/articles/:id/rating/',
  ratingThreshold: '/api/auth/recommendations/rating-threshold/',

  // News: recommendations and search
  newsRecommendations: '/api/news/recommendations/',
  newsDismiss: '/api/news/:id/not-interested/',
  newsRating: '/api/news/:id/rating/',
  newsSearch: '/api/news/search/',

  // Papers: search, library and the reader's marks
  articleSearch: '/articles/search/',
  articleLibrary: '/articles/library/',
  articleFavorite: '/articles/:id/favorite/',
  articleSave: '/articles/:id/save/',
  articleShare: '/articles/:id/share/',
  articleRead: '/articles/:id/read/',
  /** Not in the spec: the library, or one paper, as a BibTeX, RIS or CSL-JSON file. */
  articleLibraryExport: '/articles/library/export/',
  articleExport: '/articles/:id/export/',

  // Keywords and their alert mails
  keywords: '/user-keywords/',
  addKeyword: '/user-keywords/add/',
  removeKeyword: '/user-keywords/:id/remove/',
  updateKeyword: '/user-keywords/:id/update/',
  keywordSuggestions: '/user-rkeywords/',
  /** Where an alert mail's unsubscribe link points (GET: a confirmation page; POST: unsubscribes). */
  keywordAlertUnsubscribe: '/api/keywords/alerts/unsubscribe/',

  // Delivery: digest mail, personal Atom feed, robot webhooks (not in the spec)
  deliverySettings: '/api/auth/delivery/',
  /** PUT: save the robot webhook (validated); DELETE: remove it. */
  deliveryWebhook: '/api/auth/delivery/webhook/',
  deliveryWebhookTest: '/api/auth/delivery/webhook/test/',
  /** POST: a new secret feed address (the old one stops working); DELETE: no feed. */
  deliveryFeedToken: '/api/auth/delivery/feed/',
  /** The personal Atom feed, read without login: the secret token is the credential. */
  deliveryFeed: '/api/delivery/feed/:token/',
  /** Where a digest mail's unsubscribe link points (GET: a confirmation page; POST: unsubscribes). */
  deliveryUnsubscribe: '/api/delivery/unsubscribe/',

  // Feedback and contact
  feedback: '/api/feedback/send/',
  contact: '/api/contact/',
} as const;

export type ApiPathName = keyof typeof API_PATHS;

/** The `:name` parameters of a path pattern, as a union of their names. */
export type ApiPathParamName<Pattern extends string> = Pattern extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ApiPathParamName<`/${Rest}`>
  : Pattern extends `${string}:${infer Name}`
    ? Name
    : never;

/** The patterns that have parameters: only these go through apiPath(). */
export type ParameterizedApiPath = {
  [Name in ApiPathName]: ApiPathParamName<(typeof API_PATHS)[Name]> extends never ? never : (typeof API_PATHS)[Name];
}[ApiPathName];

/**
 * Fills a pattern's `:name` parameters for a request: each value is URI-encoded, so an id with a slash
 * or a space stays one path segment. `apiPath(API_PATHS.articleRead, { id })` -> `/articles/<id>/read/`.
 */
export function apiPath<Pattern extends ParameterizedApiPath>(
  pattern: Pattern,
  params: Record<ApiPathParamName<Pattern>, string | number>,
): string {
  const values = params as Record<string, string | number>;
  return pattern.replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(String(values[name])));
}
