import { API_PATHS } from '@radar/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { readPaperAvailability } from '@/lib/spec-answers';

/** GET /api/auth/recommendations/stats/ (30 s, as the contract says): how many papers can be analysed. */
async function getPaperAvailability(options: { signal?: AbortSignal } = {}) {
  return readPaperAvailability(
    await api.get<unknown>(API_PATHS.recommendationStats, { ...options, timeoutMs: 30_000 }),
  );
}

export const paperAvailabilityQueryOptions = () =>
  queryOptions({
    queryKey: ['recommendation-stats', 'papers'],
    queryFn: ({ signal }) => getPaperAvailability({ signal }),
    staleTime: 60_000,
  });
