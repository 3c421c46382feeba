import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getLearningStatus, LEARNING_STATUS_QUERY_KEY, RECOMMENDATION_QUERY_KEYS, resetLearning } from '@/api/learning';

/** How many of the reader's signals shape the recommendations (the 'not interested' marks reload it). */
export function useLearningStatus() {
  return useQuery({
    queryKey: LEARNING_STATUS_QUERY_KEY,
    queryFn: ({ signal }) => getLearningStatus({ signal }),
  });
}

/**
 * Back to the research summary alone. The answer is the new status; the paper and news lists were
 * ranked with the signals, so they load again when next shown.
 */
export function useResetLearning({ onReset }: { onReset: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetLearning,
    onSuccess: async (status) => {
      queryClient.setQueryData(LEARNING_STATUS_QUERY_KEY, status);
      onReset();
      await Promise.all(
        Object.values(RECOMMENDATION_QUERY_KEYS).map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
    },
  });
}
