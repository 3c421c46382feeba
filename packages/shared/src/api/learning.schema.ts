import { z } from 'zod';

/**
 * Recommendations that learn from the reader and explain themselves (issue 13, not in the spec):
 * why each item is recommended, the 'not interested' action, the learning status shown on /my, and
 * how fresh the sources are / why a list is empty. Decisions are in docs/decisions.md, "Learning".
 */

/**
 * What drove a recommendation:
 * - saved: it is closest to a paper the reader favourited, saved or read (the title is in `text`);
 * - keyword: it matches one of the reader's keywords (with or without an alert);
 * - terms: it shares these profile terms (and research fields) with the research summary;
 * - profile: similar to the profile as a whole, no single shared term stands out;
 * - interest: drawn for one of the reader's other research interests (named in `text`, with the terms
 *   it shares with that interest's description, if any).
 */
export const REASON_KINDS = ['saved', 'keyword', 'terms', 'profile', 'interest'] as const;
export type ReasonKind = (typeof REASON_KINDS)[number];

export const recommendationReasonSchema = z.object({
  kind: z.enum(REASON_KINDS),
  /** One short Chinese sentence for the card, e.g. '与你的研究方向共有：graph neural network、protein'. */
  text: z.string(),
  /** The shared terms named in `text` (profile terms, or the keyword), most telling first; may be empty. */
  terms: z.array(z.string()),
});
export type RecommendationReason = z.infer<typeof recommendationReasonSchema>;

/** When the sources last brought something new, shown above the papers and news lists. */
export const freshnessSchema = z.object({
  /** When the newest item of this kind (papers or news) was stored, ISO 8601; null when there is none. */
  last_new_item_at: z.string().nullable(),
  /** When any content source last finished a run (successful or not), ISO 8601; null: never. */
  last_checked_at: z.string().nullable(),
  /**
   * When a source of this kind last finished a run successfully, ISO 8601; null: never (a failed
   * attempt is not an update). Left out by older servers.
   */
  last_success_at: z.string().nullable().optional(),
  /** Items of this kind published in the last 7 days (by publication date, as the 一周内 window counts). */
  new_items_last_7_days: z.number().int(),
});
export type Freshness = z.infer<typeof freshnessSchema>;

/**
 * Why a recommendation list is empty, most specific cause first:
 * - no_items: there is no paper / news item at all yet (sources never ran, or brought nothing);
 * - items_not_embedded: items exist but none has a vector of the active model yet (re-embedding runs);
 * - nothing_in_window: nothing in the chosen window passes the threshold (nothing published there, or
 *   nothing close enough) while a wider window has items that would be shown;
 * - excluded_tiers: everything close enough is in an excluded JCR tier (papers only);
 * - below_threshold: everything is below the similarity threshold;
 * - all_dismissed: every candidate was marked 'not interested'.
 * (A profile whose vector is not computed yet answers 400 RESEARCH_DIRECTION_NOT_SET, details say so.)
 */
export const EMPTY_CAUSES = [
  'no_items',
  'items_not_embedded',
  'nothing_in_window',
  'excluded_tiers',
  'below_threshold',
  'all_dismissed',
] as const;

/**
 * Where the reader's sources of this content stand, when that explains an empty list:
 * - no_fields: the reader names no research field and the built-in catalogue starts sources by field;
 * - no_source: no active source serves the reader's fields (`fields_without_source` names them);
 * - first_fetch: the first fetch of the reader's sources is queued or running (`first_fetch`);
 * - failing: the reader's sources fail (`failing`);
 * - scheduled_off: scheduled runs are switched off and nothing ran;
 * - waiting: sources are scheduled, no run has finished and no first fetch is queued yet;
 * - ran_empty: the sources ran and brought nothing;
 * - unreadable: the sources configuration cannot be read.
 */
export const SOURCE_STATES = [
  'no_fields',
  'no_source',
  'first_fetch',
  'failing',
  'scheduled_off',
  'waiting',
  'ran_empty',
  'unreadable',
] as const;

export const sourceStatusSchema = z.object({
  state: z.enum(SOURCE_STATES),
  /** Ids of the reader's research fields no active source of this content serves. */
  fields_without_source: z.array(z.string()).optional(),
  /**
   * The first fetch: when it was queued and when it should be done (an estimate), ISO 8601; also beside
   * `failing` while others of the reader's sources are still on it.
   */
  first_fetch: z
    .object({
      sources: z.array(z.string()),
      started_at: z.string(),
      expected_by: z.string(),
      /** Always true: expected_by is estimated from the queue and the typical run time. */
      is_estimate: z.boolean(),
      /** expected_by has passed and the fetch is still running (the estimate is never moved later). */
      is_late: z.boolean().optional(),
    })
    .optional(),
  /**
   * Failing sources: name, since when (ISO 8601), what went wrong in Chinese words (e.g.
   * 无法连接（域名解析失败）; the technical error is for operators: `pnpm radar sources`, /metrics), and
   * when it is tried again (ISO 8601; left out when no retry is planned).
   */
  failing: z
    .array(z.object({ source: z.string(), since: z.string(), error: z.string(), next_retry_at: z.string().optional() }))
    .optional(),
});
export type SourceStatus = z.infer<typeof sourceStatusSchema>;

export const emptyExplanationSchema = z.object({
  cause: z.enum(EMPTY_CAUSES),
  /** Why, in Chinese, e.g. '最近一周没有新论文'. */
  message: z.string(),
  /** The one change that would give results, in Chinese, e.g. '把发布时间放宽到“一月内”可看到 12 篇'. */
  suggestion: z.string(),
  /**
   * That change as request parameters to merge into the current ones (the page offers it as a button),
   * e.g. { date_filter: '一月内' } or { similarity_threshold: '0.2' } or { excluded_jcr: '' }; null when
   * no parameter change helps (no items yet: wait for the sources).
   */
  change: z.record(z.string(), z.string()).nullable(),
  /** Where the reader's sources stand, when that is part of the reason (left out otherwise). */
  sources: sourceStatusSchema.optional(),
  /**
   * What the reader's sources add, in Chinese, when the suggestion is a filter change: e.g. the first
   * fetch of their fields' sources is still running, so more items are coming. Left out when the
   * suggestion already says it (no filter change helps) or the sources are fine.
   */
  sources_note: z.string().optional(),
});
export type EmptyExplanation = z.infer<typeof emptyExplanationSchema>;

/** How the ranking uses the reader's signals, in recommendation responses and on /my. */
export const learningSummarySchema = z.object({
  /** True when the ranking used the learned profile (summary + signals), false: the summary alone. */
  applied: z.boolean(),
  /** Papers liked (favourited, saved or read >= 50%) plus items marked 'not interested', since the last reset. */
  signal_count: z.number().int(),
  /**
   * Not in the spec (optional for clients): true when the order came from the reader's classifier,
   * learned from their ratings (enough signals, fitted for the active model); false: Rocchio or none.
   */
  classifier: z.boolean().optional(),
});
export type LearningSummary = z.infer<typeof learningSummarySchema>;

/** GET /api/auth/recommendations/learning/ and POST .../learning/reset/. */
export const learningStatusResponseSchema = z.object({
  success: z.literal(true),
  /** liked + dismissed: the N of '推荐已根据你的 N 次收藏/评分/不感兴趣调整' (ratings count since issue 23). */
  signal_count: z.number().int(),
  /** Distinct papers favourited, saved or read to >= 50% since the last reset. */
  liked_count: z.number().int(),
  /** Papers and news items marked 'not interested' since the last reset. */
  dismissed_count: z.number().int(),
  /** True when recommendations use a learned profile now (it is recomputed in the background after each change). */
  applied: z.boolean(),
  /** When the learned profile was last computed, ISO 8601; null when there is none. */
  updated_at: z.string().nullable(),
  /** When the reader last reset learning, ISO 8601; null: never. */
  reset_at: z.string().nullable(),
});
export type LearningStatusResponse = z.infer<typeof learningStatusResponseSchema>;

/** POST and DELETE /articles/{id}/not-interested/ and /api/news/{id}/not-interested/. */
export const dismissResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  /** The new state: true after POST (hidden from recommendations), false after DELETE (undo). */
  not_interested: z.boolean(),
});
export type DismissResponse = z.infer<typeof dismissResponseSchema>;
