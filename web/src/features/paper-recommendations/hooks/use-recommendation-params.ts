import { useState } from 'react';
import {
  arePaperParamsEqual,
  loadPaperParams,
  mergePaperParamsChange,
  normalisePaperParams,
  type PaperRecommendationParams,
  savePaperParams,
} from '../utils/recommendation-params';

/**
 * The settings of the papers page: `applied` drives the list, `draft` is what the settings card shows.
 * Applied settings are stored in localStorage at once (parameter changes persist), so a
 * reload keeps them; the draft of an open card is not a parameter change and is never stored, so
 * leaving without 应用 or 取消 leaves the applied settings as they were. Apply makes the draft the
 * applied settings, cancel puts the applied ones back.
 */
export function useRecommendationParams() {
  const [applied, setApplied] = useState<PaperRecommendationParams>(() => loadPaperParams());
  const [draft, setDraft] = useState<PaperRecommendationParams>(applied);

  const changeDraft = (next: PaperRecommendationParams) => setDraft(normalisePaperParams(next));

  const makeApplied = (next: PaperRecommendationParams): boolean => {
    const changed = !arePaperParamsEqual(next, applied);
    setDraft(next);
    savePaperParams(next);
    if (changed) setApplied(next);
    return changed;
  };

  return {
    applied,
    draft,
    changeDraft,
    /** Returns whether the applied settings changed (else the caller loads the same list again). */
    apply: (): boolean => makeApplied(draft),
    cancel: () => setDraft(applied),
    /**
     * Applies (and stores) an empty result's suggested change, in the API's query names; returns whether
     * the settings changed (else the caller loads the same list again).
     */
    applyChange: (change: Record<string, string>): boolean => makeApplied(mergePaperParamsChange(applied, change)),
    /**
     * The chip 含已评价: applied and stored at once, like the other applied settings; an open card's
     * draft keeps its own changes and takes only this one.
     */
    setIncludeRated: (isOn: boolean) => {
      const next = normalisePaperParams({ ...applied, includeRated: isOn });
      savePaperParams(next);
      setApplied(next);
      setDraft((current) => normalisePaperParams({ ...current, includeRated: isOn }));
    },
  };
}
