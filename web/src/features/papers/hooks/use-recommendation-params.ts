import { useState } from 'react';
import {
  arePaperParamsEqual,
  loadPaperParams,
  mergePaperParamsChange,
  type PaperRecommendationParams,
  savePaperParams,
} from '../utils/recommendation-params';

/**
 * The settings of the papers page: `applied` drives the list, `draft` is what the settings card shows.
 * Every change is stored in localStorage at once (spec section 4), so a reload keeps it; apply makes
 * the draft the applied settings, cancel puts the applied ones back.
 */
export function useRecommendationParams() {
  const [applied, setApplied] = useState<PaperRecommendationParams>(() => loadPaperParams());
  const [draft, setDraft] = useState<PaperRecommendationParams>(applied);

  const changeDraft = (next: PaperRecommendationParams) => {
    setDraft(next);
    savePaperParams(next);
  };

  return {
    applied,
    draft,
    changeDraft,
    /** Returns whether the applied settings changed (else the caller loads the same list again). */
    apply: (): boolean => {
      const changed = !arePaperParamsEqual(draft, applied);
      if (changed) setApplied(draft);
      return changed;
    },
    cancel: () => changeDraft(applied),
    /**
     * Applies (and stores) an empty result's suggested change, in the API's query names; returns whether
     * the settings changed (else the caller loads the same list again).
     */
    applyChange: (change: Record<string, string>): boolean => {
      const next = mergePaperParamsChange(applied, change);
      changeDraft(next);
      const changed = !arePaperParamsEqual(next, applied);
      if (changed) setApplied(next);
      return changed;
    },
  };
}
