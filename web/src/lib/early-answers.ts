import { adoptApiError, createApiClient, isApiError, type RequestOptions, toQueryString } from './api-client';
import { expireSession, getToken } from './session';

type ApiClient = ReturnType<typeof createApiClient>;
type EarlyAnswer = { token: string | null; answer: Promise<unknown> };
type EarlyAnswerMap = Map<string, EarlyAnswer>;

/**
 * GET requests started before the app renders (app/early-script, app/early-requests), each taken once by the code that
 * would have sent the very same request (same path, query and token), which then waits for that answer
 * instead of asking again. Nothing here reads an answer: each caller reads it as it always does.
 *
 * `client` must not end the session on a 401 by itself (the app's does): the auth provider may not be
 * listening yet, and must be, to tell an expired session from a visitor who never logged in. The 401
 * ends it when the answer is taken, as the app's client would have. `started` holds the requests
 * (the app's is shared with the early script).
 */
export function createEarlyAnswers(client: ApiClient, started: EarlyAnswerMap = new Map()) {
  const keyOf = (path: string, query: RequestOptions['query']) => `${path}${toQueryString(query)}`;
  return {
    /** Starts GET `path` now; starting the same request again while it is untaken sends nothing. */
    start(path: string, options: Pick<RequestOptions, 'query' | 'timeoutMs'> = {}): Promise<unknown> {
      const key = keyOf(path, options.query);
      const existing = started.get(key);
      if (existing) return existing.answer;
      const answer = client.get<unknown>(path, options);
      // Taken (and its failure handled) by the code that needs it; never an unhandled rejection meanwhile.
      answer.catch(() => {});
      started.set(key, { token: getToken(), answer });
      return answer;
    },
    /**
     * The early answer of GET `path` with `query`, once, when it was sent with the token held now; else
     * null (the caller sends its own request). A 401 in it ends the session.
     */
    take<T>(path: string, query?: RequestOptions['query']): Promise<T> | null {
      const key = keyOf(path, query);
      const early = started.get(key);
      started.delete(key);
      if (!early || early.token !== getToken()) return null;
      return early.answer.then(
        (answer) => answer as T,
        (failure: unknown) => {
          // The early script's copy of the API client built it (app/early-script.ts).
          const error = adoptApiError(failure);
          if (isApiError(error) && error.status === 401) expireSession();
          throw error;
        },
      );
    },
  };
}

/**
 * Where the started requests are kept: on the window, so the early script (app/early-script.ts, a
 * classic script index.html runs before the app's modules have arrived, with its own copy of this
 * module) and the app share one list, and the app takes what the script started.
 */
const SHARED_KEY = '__radarEarlyAnswers';
const shared = globalThis as typeof globalThis & { [SHARED_KEY]?: EarlyAnswerMap };
shared[SHARED_KEY] ??= new Map();

const earlyAnswers = createEarlyAnswers(createApiClient({ onUnauthorized: () => {} }), shared[SHARED_KEY]);
export const startEarlyGet = earlyAnswers.start;
export const takeEarlyGet = earlyAnswers.take;

/**
 * Forgets every started request, as a new page load does. For the screen tests, whose files share one
 * window: an untaken request of one file (a hover's prefetch) would otherwise answer the next file's
 * first load with the previous file's server's data.
 */
export function forgetEarlyGets(): void {
  shared[SHARED_KEY]?.clear();
}
