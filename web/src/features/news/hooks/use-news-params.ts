import { useState } from 'react';
import { mergeSharedParamsChange } from '@/lib/recommendation-params';
import { loadNewsParams, type NewsRecommendationParams, saveNewsParams } from '../utils/news-params';

/**
 * The settings of the news page: `params` is what the panel shows and is stored in localStorage at
 * once (spec section 4); `active` is what the list shows. Ticking a date range applies at once; a
 * slider applies when the user lets go of it, so dragging does not send a request per step. Any
 * change of the list goes back to page 1.
 */
export function useNewsParams() {
  const [params, setParams] = useState<NewsRecommendationParams>(() => loadNewsParams());
  const [active, setActive] = useState<NewsRecommendationParams>(params);
  const [page, setPage] = useState(1);

  const isActive = (candidate: NewsRecommendationParams) => JSON.stringify(candidate) === JSON.stringify(active);

  const change = (patch: Partial<NewsRecommendationParams>, options: { apply: boolean }) => {
    const next = { ...params, ...patch };
    setParams(next);
    saveNewsParams(next);
    if (options.apply) {
      setActive(next);
      setPage(1);
    }
  };

  return {
    params,
    active,
    page,
    setPage,
    /** A slider moving: shown and stored, not yet applied. */
    preview: (patch: Partial<NewsRecommendationParams>) => change(patch, { apply: false }),
    /** A change the list follows at once. */
    commit: (patch: Partial<NewsRecommendationParams>) => change(patch, { apply: true }),
    /** Applies what the panel shows; returns whether that changed the list (else the caller reloads it). */
    apply: (): boolean => {
      const changed = !isActive(params);
      if (changed) {
        setActive(params);
        setPage(1);
      }
      return changed;
    },
    /**
     * Applies (and stores) an empty result's suggested change, in the API's query names; returns whether
     * that changed the list (else the caller reloads it).
     */
    applyChange: (suggested: Record<string, string>): boolean => {
      const next = mergeSharedParamsChange(params, suggested);
      const changed = !isActive(next);
      change(next, { apply: true });
      return changed;
    },
  };
}
