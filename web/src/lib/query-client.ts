import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

/** How often a failed query is tried again when a retry can help (network, time-out, 5xx). */
export const MAX_QUERY_RETRIES = 2;

/**
 * Whether a failed query should be tried again. A 4xx is the server's answer about the request itself
 * (bad input, not found, rate limited, or a 401 that already logged out through lib/session), so
 * repeating it cannot succeed; neither can a request the caller aborted.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_QUERY_RETRIES) return false;
  if (!isApiError(error)) return false;
  if (error.code === 'ABORTED') return false;
  if (error.status !== null && error.status >= 400 && error.status < 500) return false;
  return true;
}

/**
 * The app's TanStack Query client. Mutations are never retried: a form's POST may have taken effect
 * even when the answer was lost (e.g. register, which sends a mail).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetryQuery,
        staleTime: 30_000,
        // Screens poll where they need fresh data; a tab switch should not refetch every list.
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
