import { type DateFilterLabel, JCR_TIERS, type JcrTier, PAPER_RECOMMENDATION_DEFAULTS } from '@radar/shared';
import {
  mergeSharedParamsChange,
  parseSharedParams,
  sharedParamsQuery,
  storedRecommendationParams,
} from '@/lib/recommendation-params';

/** Recommendation params of the papers page, as stored in localStorage. */
export type PaperRecommendationParams = {
  topK: number;
  threshold: number;
  excludedJCR: JcrTier[];
  dateFilter: DateFilterLabel[];
  /**
   * The chip 含已评价 (not in the spec): keep the papers rated 👍 in the list. Stored only when on, so
   * an older stored object (without it) reads as off.
   */
  includeRated?: boolean;
};

/** localStorage key of the applied paper recommendation settings. */
export const PAPER_PARAMS_STORAGE_KEY = 'recommendationParams';

/** Excluding a tier excludes every tier before it here (the lowest tiers go first). */
export const JCR_EXCLUSION_ORDER: readonly JcrTier[] = [4, 3, 2, 1];

export function defaultPaperParams(): PaperRecommendationParams {
  return {
    topK: PAPER_RECOMMENDATION_DEFAULTS.topK,
    threshold: PAPER_RECOMMENDATION_DEFAULTS.threshold,
    excludedJCR: [...PAPER_RECOMMENDATION_DEFAULTS.excludedJcr],
    dateFilter: [...PAPER_RECOMMENDATION_DEFAULTS.dateFilter],
  };
}

const byExclusionOrder = (tiers: Iterable<JcrTier>) =>
  [...new Set(tiers)].sort((a, b) => JCR_EXCLUSION_ORDER.indexOf(a) - JCR_EXCLUSION_ORDER.indexOf(b));

/**
 * Ticking or unticking a JCR tier: ticking excludes it and every tier before it in the
 * order 4, 3, 2, 1 (excluding Q2 also excludes Q3 and Q4); unticking includes it again with every tier
 * after it (including Q3 also includes Q2 and Q1).
 */
export function toggleExcludedTier(excluded: readonly JcrTier[], tier: JcrTier, checked: boolean): JcrTier[] {
  const index = JCR_EXCLUSION_ORDER.indexOf(tier);
  if (checked) return byExclusionOrder([...excluded, ...JCR_EXCLUSION_ORDER.slice(0, index + 1)]);
  const included = new Set(JCR_EXCLUSION_ORDER.slice(index));
  return byExclusionOrder(excluded.filter((value) => !included.has(value)));
}

function parseTiers(value: unknown): JcrTier[] {
  const valid = Array.isArray(value) && value.every((item) => (JCR_TIERS as readonly unknown[]).includes(item));
  return valid ? byExclusionOrder(value as JcrTier[]) : [...PAPER_RECOMMENDATION_DEFAULTS.excludedJcr];
}

/** The stored params, each field checked on its own (parseSharedParams); the tiers likewise. */
export function parsePaperParams(stored: Record<string, unknown> | null): PaperRecommendationParams {
  if (!stored) return defaultPaperParams();
  return { ...parseSharedParams(stored, PAPER_RECOMMENDATION_DEFAULTS), excludedJCR: parseTiers(stored.excludedJCR) };
}

/** normalise: the sliders' values on their grid, and 含已评价 present only when on; load and save: localStorage. */
const storedPaperParams = storedRecommendationParams(
  PAPER_PARAMS_STORAGE_KEY,
  PAPER_RECOMMENDATION_DEFAULTS,
  parsePaperParams,
);
export const { normalise: normalisePaperParams, load: loadPaperParams, save: savePaperParams } = storedPaperParams;

/**
 * The query of GET /api/auth/recommendations/papers/: the shared settings (sharedParamsQuery) and
 * excluded_jcr, sent empty (not left out) when no tier is excluded: the API reads a missing excluded_jcr
 * as its default (4,3).
 */
export function toPaperRecommendationQuery(params: PaperRecommendationParams) {
  const { top_k, similarity_threshold, ...rest } = sharedParamsQuery(params, PAPER_RECOMMENDATION_DEFAULTS);
  return { top_k, similarity_threshold, excluded_jcr: byExclusionOrder(params.excludedJCR).join(','), ...rest };
}

export function arePaperParamsEqual(a: PaperRecommendationParams, b: PaperRecommendationParams): boolean {
  return JSON.stringify(toPaperRecommendationQuery(a)) === JSON.stringify(toPaperRecommendationQuery(b));
}

/** An excluded_jcr query value ('' for none, else tiers comma-joined); null when any part is not a tier. */
function parseExcludedJcrQuery(value: string): JcrTier[] | null {
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(Number);
  if (!parts.every((tier) => (JCR_TIERS as readonly number[]).includes(tier))) return null;
  return byExclusionOrder(parts as JcrTier[]);
}

/**
 * The settings with an empty result's suggested change merged in (`change` is in the API's query names:
 * top_k, similarity_threshold, excluded_jcr, date_filter); see mergeSharedParamsChange.
 */
export function mergePaperParamsChange(
  params: PaperRecommendationParams,
  change: Record<string, string>,
): PaperRecommendationParams {
  const next = mergeSharedParamsChange(params, change);
  if (change.excluded_jcr !== undefined) {
    next.excludedJCR = parseExcludedJcrQuery(change.excluded_jcr) ?? params.excludedJCR;
  }
  return next;
}
