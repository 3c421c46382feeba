import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';

type ShownPage<T> = {
  /** The page asked for (from the URL). */
  requestedPage: number;
  /** The answer, with the page it shows (1 after the empty-page fallback); undefined while loading. */
  data: (T & { page: number }) | undefined;
  /** Whether `data` is still the previous page's, shown while this one loads. */
  isPlaceholderData: boolean;
  /** The cache key and the URL of a page of the same list. */
  queryKeyOf: (page: number) => QueryKey;
  hrefOf: (page: number) => string;
};

/**
 * After the empty-page fallback the URL is replaced by the page shown, and that page's
 * answer is cached under its own key first, so the new URL does not fetch it a second time.
 */
export function useShownPageInUrl<T>({ requestedPage, data, isPlaceholderData, queryKeyOf, hrefOf }: ShownPage<T>) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!data || isPlaceholderData || data.page === requestedPage) return;
    queryClient.setQueryData(queryKeyOf(data.page), data);
    navigate(hrefOf(data.page), { replace: true });
  }, [data, isPlaceholderData, requestedPage, queryClient, navigate, queryKeyOf, hrefOf]);
}
