import { z } from 'zod';
import { DATE_FILTER_LABELS, type DateFilterLabel, isDateFilterLabel } from '../date-filters';
import { JCR_TIERS, type JcrTier, PAPER_RECOMMENDATION_DEFAULTS } from '../limits';
import { servedInterestSchema } from './interest.schema';
import {
  emptyExplanationSchema,
  freshnessSchema,
  learningSummarySchema,
  recommendationReasonSchema,
} from './learning.schema';
import { ratingValueSchema } from './rating.schema';
import { text } from './text.schema';

/**
 * The Paper of the data model as every endpoint returns it (recommendations, article search): ids are
 * strings, `url` falls back to the DOI link, `is_favorited`/`is_saved` are the caller's own state.
 */
export const paperSchema = z.object({
  id: z.string(),
  title: z.string(),
  authors: z.array(z.string()),
  abstract: z.string(),
  /** Publication date, YYYY-MM-DD; null when the source gave none. */
  date: z.string().nullable(),
  /** Publication year, from `date`. */
  year: z.number().int().nullable(),
  journal: z.string(),
  keywords: z.array(z.string()),
  /** The paper's page; the DOI link (https://doi.org/...) when the source gave no page. */
  url: z.string(),
  doi: z.string().nullable(),
  pdf_url: z.string().nullable(),
  /**
   * Not in the spec (optional for clients): the preprint's page (arXiv, bioRxiv ...) of a paper whose
   * `url` is its journal version; null when there is none or `url` is the preprint itself.
   */
  preprint_url: z.string().nullable().optional(),
  /**
   * Not in the spec (optional for clients): the journal version of a preprint the caller favourited or
   * saved, arrived after they marked it (the card says 已正式发表); null otherwise.
   */
  published_version: z
    .object({
      journal: z.string(),
      /** The journal DOI; null when the journal version came without one (an arXiv journal_ref). */
      doi: z.string().nullable(),
      /** The journal version's page (its DOI link when it has a DOI). */
      url: z.string(),
      /** When the journal version arrived, ISO 8601. */
      arrived_at: z.string(),
    })
    .nullable()
    .optional(),
  /** Journal quality tier 1 (best) to 4; null when the journal has no known tier (most preprints). */
  jcr: z.number().int().nullable(),
  /**
   * Which system `jcr` comes from (an addition to the spec's Paper; clients treat it as optional): SCImago
   * quartiles, OpenAlex two-year mean citedness quartiles within the journal's field, or a table the
   * operator imported (e.g. JCR or 中科院分区). Null when `jcr` is null.
   */
  jcr_source: z.enum(['scimago', 'openalex', 'imported']).nullable().optional(),
  /** The year of that tier table (SCImago's data year, the OpenAlex refresh year); null when unknown. */
  jcr_year: z.number().int().nullable().optional(),
  /** A 2-3 sentence AI summary; null when no LLM is configured or it is not made yet. */
  llm_summary: z.string().nullable(),
  is_favorited: z.boolean(),
  is_saved: z.boolean(),
  /** Not in the spec (optional for clients): the caller's rating, 1 (👍) or -1 (👎); null: none. */
  rating: ratingValueSchema.nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Paper = z.infer<typeof paperSchema>;

const INTEGER = /^\d+$/;
const NUMBER = /^(\d+(\.\d*)?|\.\d+)$/;

/**
 * A query parameter that is absent or empty falls back to its default. `label` names it in Chinese for
 * the character rule; `name` is the parameter, for the message when it is given twice (a list).
 */
export const queryText = (label: string, name: string) =>
  text(label, { message: `${name} 只能有一个值` })
    .max(200, { message: `${name} 过长` })
    .optional();

/** "4,3" -> [4, 3]; refuses anything but the tiers 1-4. */
function parseTiers(value: string | undefined, ctx: z.RefinementCtx): JcrTier[] {
  if (value === undefined) return [...PAPER_RECOMMENDATION_DEFAULTS.excludedJcr];
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const tiers = new Set<JcrTier>();
  for (const part of parts) {
    const tier = Number(part);
    if (!INTEGER.test(part) || !(JCR_TIERS as readonly number[]).includes(tier)) {
      ctx.addIssue({ code: 'custom', message: `excluded_jcr 只能包含 1-4 的分区，收到“${part.slice(0, 20)}”` });
      return [];
    }
    tiers.add(tier as JcrTier);
  }
  return [...tiers].sort((a, b) => b - a);
}

/** "一天内,一周内" -> the labels; refuses unknown labels, naming the valid ones. */
export function parseDateFilter(
  value: string | undefined,
  ctx: z.RefinementCtx,
  fallback: readonly DateFilterLabel[] = PAPER_RECOMMENDATION_DEFAULTS.dateFilter,
): DateFilterLabel[] {
  if (value === undefined) return [...fallback];
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const part of parts) {
    if (!isDateFilterLabel(part)) {
      ctx.addIssue({
        code: 'custom',
        message: `date_filter 只能是 ${DATE_FILTER_LABELS.join('、')}，收到“${part.slice(0, 20)}”`,
      });
      return [];
    }
  }
  return parts as DateFilterLabel[];
}

/** A numeric query parameter within a range; absent or empty takes `fallback`. */
export function parseNumber(
  value: string | undefined,
  fallback: number,
  range: { min: number; max: number; integer?: boolean; name: string },
  ctx: z.RefinementCtx,
): number {
  if (value === undefined || value.trim() === '') return fallback;
  const trimmed = value.trim();
  const parsed = Number(trimmed);
  const valid = (range.integer ? INTEGER : NUMBER).test(trimmed) && parsed >= range.min && parsed <= range.max;
  if (!valid) {
    ctx.addIssue({
      code: 'custom',
      message: `${range.name} 必须是 ${range.min} 到 ${range.max} 之间的${range.integer ? '整数' : '数'}`,
    });
  }
  return parsed;
}

export const RECOMMENDATION_TOP_K = { min: 5, max: 50 } as const;

/**
 * Not in the spec (optional for clients): what a recommendation list may leave out or keep, for
 * 加载更多 and the chip 含已评价 on /papers and /news.
 * - `exclude_ids`: comma-joined ids the page already shows; the answer is the next items after them (the
 *   list never runs dry while unseen eligible items exist). At most `maxShown` ids.
 * - `include_rated`: 'true' keeps the items the reader rated 👍 in the list (by default they leave it
 *   after the visit they were rated in); 👎 and 不感兴趣 items never come back until undone.
 */
export const RECOMMENDATION_PAGING = { maxShown: 500, maxShownChars: 6000 } as const;
const SHOWN_IDS_MESSAGE = `exclude_ids 必须是逗号分隔的编号，最多 ${RECOMMENDATION_PAGING.maxShown} 个`;

export const recommendationPagingQuery = {
  exclude_ids: text('已显示的条目', { message: 'exclude_ids 只能有一个值' })
    .max(RECOMMENDATION_PAGING.maxShownChars, { message: SHOWN_IDS_MESSAGE })
    .optional(),
  include_rated: queryText('含已评价', 'include_rated'),
};

/** `exclude_ids` and `include_rated` parsed (400 with a Chinese message on anything else). */
export function parseRecommendationPaging(
  query: { exclude_ids?: string | undefined; include_rated?: string | undefined },
  ctx: z.RefinementCtx,
): { shownIds: number[]; includeRated: boolean } {
  const parts = (query.exclude_ids ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const shownIds = [...new Set(parts.map(Number))];
  if (parts.length > RECOMMENDATION_PAGING.maxShown || !shownIds.every((id) => Number.isSafeInteger(id) && id > 0)) {
    ctx.addIssue({ code: 'custom', message: SHOWN_IDS_MESSAGE });
  }
  const flag = (query.include_rated ?? '').trim().toLowerCase();
  if (!['', 'true', 'false', '1', '0'].includes(flag)) {
    ctx.addIssue({ code: 'custom', message: 'include_rated 只能是 true 或 false' });
  }
  return {
    shownIds: shownIds.filter((id) => Number.isSafeInteger(id) && id > 0),
    includeRated: flag === 'true' || flag === '1',
  };
}

/**
 * GET /api/auth/recommendations/papers/ query. Every parameter is optional: absent (or empty) takes the
 * spec's default (top_k 20, threshold 0.3, excluded tiers 4,3, date filter 一周内). `excluded_jcr=` (empty)
 * excludes no tier; `date_filter=` (empty) is 不限. The date filters are cumulative: the widest applies.
 */
export const paperRecommendationQuerySchema = z
  .object({
    top_k: queryText('推荐数量', 'top_k'),
    similarity_threshold: queryText('相似度阈值', 'similarity_threshold'),
    excluded_jcr: queryText('排除分区', 'excluded_jcr'),
    date_filter: queryText('日期筛选', 'date_filter'),
    ...recommendationPagingQuery,
  })
  .transform((query, ctx) => ({
    ...parseRecommendationPaging(query, ctx),
    topK: parseNumber(
      query.top_k,
      PAPER_RECOMMENDATION_DEFAULTS.topK,
      { ...RECOMMENDATION_TOP_K, integer: true, name: 'top_k' },
      ctx,
    ),
    threshold: parseNumber(
      query.similarity_threshold,
      PAPER_RECOMMENDATION_DEFAULTS.threshold,
      { min: 0, max: 1, name: 'similarity_threshold' },
      ctx,
    ),
    excludedTiers: parseTiers(query.excluded_jcr, ctx),
    dateFilter: parseDateFilter(query.date_filter, ctx),
  }));
export type PaperRecommendationQuery = z.output<typeof paperRecommendationQuerySchema>;

export const recommendedPaperSchema = paperSchema.extend({
  /** Cosine similarity of the paper to the profile, 0-1 (the page shows it as a percentage). */
  similarity_score: z.number(),
  /** Why it is recommended (shared profile terms, a matching keyword, or a similar saved paper). */
  reason: recommendationReasonSchema,
  /** Not in the spec (optional for clients): the reader's interest it was drawn for, when they keep several. */
  interest: servedInterestSchema.optional(),
  /**
   * Not in the spec (optional for clients): why the LLM placed it where it is, in Chinese, when the
   * operator turned the LLM rerank on (LLM_RERANK) and it succeeded.
   */
  rerank_reason: z.string().optional(),
});
export type RecommendedPaper = z.infer<typeof recommendedPaperSchema>;

/** How a paper's author was recognised as a followed person (@radar/recommend, matchFollowedAuthor). */
export const FOLLOWED_AUTHOR_MATCHES = ['id', 'affiliation', 'name'] as const;

/** A paper of the /papers section 关注的作者, with the followed authors it is by. */
export const followedAuthorPaperSchema = paperSchema.extend({
  followed_authors: z.array(
    z.object({
      /** The follow's id (GET /api/auth/followed-authors/). */
      id: z.string(),
      /** The name as this paper writes it. */
      name: z.string(),
      /** 'id': same ORCID iD or OpenAlex id; 'affiliation': name and institution; 'name': name alone, possibly a namesake. */
      match: z.enum(FOLLOWED_AUTHOR_MATCHES),
      /**
       * For a 'name' match: what this paper shares with the paper the author was followed from ('field':
       * a research field; 'coauthor': a co-author); left out when nothing (possibly a namesake).
       */
      evidence: z.enum(['field', 'coauthor']).optional(),
    }),
  ),
});
export type FollowedAuthorPaper = z.infer<typeof followedAuthorPaperSchema>;

/** GET /api/auth/recommendations/papers/. */
export const paperRecommendationResponseSchema = z.object({
  success: z.literal(true),
  recommendations: z.array(recommendedPaperSchema),
  recommendations_count: z.number().int(),
  user_id: z.string(),
  similarity_threshold: z.number(),
  top_k: z.number().int(),
  excluded_jcr: z.array(z.number().int()),
  date_filter: z.array(z.string()),
  /** First publication date in the window (YYYY-MM-DD), null for 不限. */
  published_since: z.string().nullable(),
  /**
   * '(filtered out N)': of the top_k papers closest to the profile in the whole corpus, how many the
   * filters removed (by date window, then tier, then threshold; each paper counted once, under the first).
   */
  filtered_out_count: z.number().int(),
  filtered_out: z.object({ by_date: z.number().int(), by_tier: z.number().int(), by_threshold: z.number().int() }),
  /** Papers whose journal has no known tier (most preprints) are never excluded by excluded_jcr. */
  unknown_tier_included: z.literal(true),
  /** Remarks for the page (Chinese). */
  notes: z.array(z.string()),
  /** Whether the ranking used what the reader favourited, saved, read or dismissed. */
  learning: learningSummarySchema,
  /** When the paper sources last brought something new. */
  freshness: freshnessSchema,
  /** Why `recommendations` is empty and the one change that would give results; null when not empty. */
  empty_explanation: emptyExplanationSchema.nullable(),
  /**
   * Not in the spec (optional for clients): papers by authors the reader follows, published in the same
   * window (newest first, at most 10; the page shows the first FOLLOWED_AUTHOR_LIMITS.sectionFirstScreen),
   * shown above the recommendations; [] when there are none. A name-only match is here only with a
   * shared field or co-author (`evidence`); the others are in followed_author_namesakes.
   */
  followed_author_papers: z.array(followedAuthorPaperSchema).optional(),
  /**
   * Not in the spec (optional for clients): the section's papers matched by name alone that share neither
   * a research field nor a co-author with the paper the author was followed from (possibly namesakes):
   * how many, and the first of them (at most 10), for the folded line 另有 N 篇同名作者的论文，展开.
   */
  followed_author_namesakes: z
    .object({ count: z.number().int(), papers: z.array(followedAuthorPaperSchema) })
    .optional(),
  /**
   * Not in the spec (optional for clients): whether more eligible papers follow these (ask again with
   * their ids in `exclude_ids`: 加载更多).
   */
  has_more: z.boolean().optional(),
});
export type PaperRecommendationResponse = z.infer<typeof paperRecommendationResponseSchema>;

/**
 * GET /api/auth/recommendations/similarity/: `ids` (comma-joined paper ids, at most 100) or `text` (at
 * most 5,000 characters), not both.
 */
export const similarityQuerySchema = z
  .object({
    ids: text('论文编号').max(2000, { message: 'ids 过长' }).optional(),
    text: text('文本').max(5000, { message: 'text 不能超过 5000 个字符' }).optional(),
  })
  .superRefine((query, ctx) => {
    const hasIds = query.ids !== undefined && query.ids.trim() !== '';
    const hasText = query.text !== undefined && query.text.trim() !== '';
    if (hasIds === hasText) ctx.addIssue({ code: 'custom', message: '请提供 ids 或 text 其中之一' });
    if (hasIds) {
      const ids = (query.ids ?? '').split(',').map((id) => id.trim());
      if (ids.length > 100) ctx.addIssue({ code: 'custom', message: 'ids 最多 100 个' });
      if (!ids.every((id) => INTEGER.test(id) && id.length <= 18)) {
        ctx.addIssue({ code: 'custom', message: 'ids 必须是以逗号分隔的论文编号' });
      }
    }
  });

export const similarityResponseSchema = z.object({
  success: z.literal(true),
  user_id: z.string(),
  model_name: z.string(),
  /** For `ids`: one entry per known paper id (unknown ids listed in `not_found`); similarity null when the paper has no vector of the active model yet. */
  results: z.array(z.object({ id: z.string(), title: z.string(), similarity_score: z.number().nullable() })),
  not_found: z.array(z.string()),
  /** For `text`: its similarity to the profile. */
  text_similarity: z.number().nullable(),
});
export type SimilarityResponse = z.infer<typeof similarityResponseSchema>;
