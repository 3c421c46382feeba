import type { InterestListResponse } from '@radar/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RECOMMENDATION_QUERY_KEYS } from '@/api/learning';
import {
  FAVORITES_FOR_INTERESTS_QUERY_KEY,
  getFavoritesForInterests,
  getInterests,
  INTERESTS_QUERY_KEY,
} from '../api/interests';

export function useInterests() {
  return useQuery({ queryKey: INTERESTS_QUERY_KEY, queryFn: ({ signal }) => getInterests({ signal }) });
}

export function useFavoritesForInterests(enabled: boolean) {
  return useQuery({
    queryKey: FAVORITES_FOR_INTERESTS_QUERY_KEY,
    queryFn: ({ signal }) => getFavoritesForInterests({ signal }),
    enabled,
    staleTime: 0,
  });
}

/**
 * A change to the interests: every call answers the whole list, which replaces the cached one; the
 * recommendation lists were drawn from the old interests, so they load again when next shown.
 */
export function useInterestChange<Input>(
  change: (input: Input) => Promise<InterestListResponse>,
  onDone?: (list: InterestListResponse) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async (list) => {
      queryClient.setQueryData(INTERESTS_QUERY_KEY, list);
      onDone?.(list);
      await Promise.all(
        Object.values(RECOMMENDATION_QUERY_KEYS).map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
    },
  });
}
