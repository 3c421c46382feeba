import { useState } from 'react';
import { mergeSharedParamsChange } from '@/lib/recommendation-params';
import {
  loadNewsParams,
  type NewsRecommendationParams,
  normaliseNewsParams,
  saveNewsParams,
} from '../utils/news-params';

/**
 * The settings of the news page: `params` is what the panel shows; `active` is what the list shows,
 * and only it is stored in localStorage, at once (parameter changes persist). Ticking
 * a date range applies at once; a slider applies when the user lets go of it, so dragging does not send
 * a request per step, and a drag never let go of is not stored. Any change of the list goes back to
 * page 1.
 */
export function useNewsParams() {
  const [params, setParams] = useState<NewsRecommendationParams>(() => loadNewsParams());
  const [active, setActive] = useState<NewsRecommendationParams>(params);
  const [page, setPage] = useState(1);

  const isActive = (candidate: NewsRecommendationParams) => JSON.stringify(candidate) === JSON.stringify(active);

  const activate = (next: NewsRecommendationParams) => {
    saveNewsParams(next);
    setActive(next);
    setPage(1);
  };

  const change = (patch: Partial<NewsRecommendationParams>, options: { apply: boolean }) => {
    const next = normaliseNewsParams({ ...params, ...patch });
    setParams(next);
    if (options.apply) activate(next);
  };

  return {
    params,
    active,
    page,
    setPage,
    /** A slider moving: shown, neither applied nor stored. */
    preview: (patch: Partial<NewsRecommendationParams>) => change(patch, { apply: false }),
    /** A change the list follows at once. */
    commit: (patch: Partial<NewsRecommendationParams>) => change(patch, { apply: true }),
    /** The chip 含已评价: applied and stored at once (a slider still moving keeps its place). */
    setIncludeRated: (isOn: boolean) => {
      setParams((current) => normaliseNewsParams({ ...current, includeRated: isOn }));
      activate(normaliseNewsParams({ ...active, includeRated: isOn }));
    },
    /** Applies what the panel shows; returns whether that changed the list (else the caller reloads it). */
    apply: (): boolean => {
      const changed = !isActive(params);
      if (changed) activate(params);
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
