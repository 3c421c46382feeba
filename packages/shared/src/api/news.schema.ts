import { z } from 'zod';
import { NEWS_RECOMMENDATION_DEFAULTS } from '../limits';
import { splitSearchKeywords } from './article.schema';
import { servedInterestSchema } from './interest.schema';
import {
  emptyExplanationSchema,
  freshnessSchema,
  learningSummarySchema,
  recommendationReasonSchema,
} from './learning.schema';
import {
  parseDateFilter,
  parseNumber,
  parseRecommendationPaging,
  queryText,
  RECOMMENDATION_TOP_K,
  recommendationPagingQuery,
} from './paper.schema';
import { ratingValueSchema } from './rating.schema';
import { text } from './text.schema';

/**
 * News recommendations and news search. Both answer one page of news items with
 * the same pagination block.
 */

export const NEWS_LIST_LIMITS = {
  /** page_size above this is refused (400): one page is one query and one response body. */
  maxPageSize: 100,
  /** Pages past this are refused (400): deep offsets cost a scan of every match before them. */
  maxPage: 10_000,
  queryMaxLength: 200,
  /** Keyword search: every keyword is one more condition every match must meet. */
  maxKeywords: 10,
  instituteNameMaxLength: 100,
  /** Semantic search: the items nearest to the query, at most this many (over all pages)... */
  semanticMaxResults: 100,
  /** ...with at least this cosine similarity; below it an item shares next to nothing with the query. */
  semanticMinSimilarity: 0.1,
} as const;

/** The News item of the data model. */
export const newsItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Plain text (never HTML). */
  content: z.string(),
  /** '' when the source names no institute. */
  institute_name: z.string(),
  /** ISO 8601; null when the source gave no date (then crawl_date stands in for it in the date filters). */
  publish_date: z.string().nullable(),
  /** When it was fetched, ISO 8601. */
  crawl_date: z.string(),
  url: z.string(),
  /** True in recommendations (the item is among the user's recommended news); false in search results. */
  is_recommended: z.boolean(),
  /**
   * Cosine similarity, 0-1: to the research profile in recommendations, to the query in semantic
   * search; null in keyword search.
   */
  recommendation_score: z.number().nullable(),
  /** The same value as recommendation_score (the spec's client reads either name). */
  similarity_score: z.number().nullable(),
  /** Why it is recommended; null in search results. */
  reason: recommendationReasonSchema.nullable(),
  /** Not in the spec (optional for clients): the reader's interest it was drawn for, when they keep several. */
  interest: servedInterestSchema.optional(),
  /** Not in the spec (optional for clients): the caller's rating in recommendations, 1 (👍), -1 (👎) or null. */
  rating: ratingValueSchema.nullable().optional(),
});
export type NewsItem = z.infer<typeof newsItemSchema>;

export const newsPaginationSchema = z.object({
  /** Items over all pages. */
  total_count: z.number().int(),
  current_page: z.number().int(),
  page_size: z.number().int(),
  /** 0 when there is nothing; a page past the last one answers with empty `data`. */
  total_pages: z.number().int(),
});
export type NewsPagination = z.infer<typeof newsPaginationSchema>;

/** GET /api/news/recommendations/ and POST /api/news/search/. */
export const newsListResponseSchema = z.object({
  data: z.array(newsItemSchema),
  pagination: newsPaginationSchema,
});
export type NewsListResponse = z.infer<typeof newsListResponseSchema>;

/** GET /api/news/recommendations/: the list plus learning, freshness and, when empty, why. */
export const newsRecommendationResponseSchema = newsListResponseSchema.extend({
  learning: learningSummarySchema,
  freshness: freshnessSchema,
  /** Why `data` is empty over all pages (total_count 0) and the one change that would help; null otherwise. */
  empty_explanation: emptyExplanationSchema.nullable(),
  /**
   * Not in the spec (optional for clients): whether more eligible items follow the top_k set (ask again
   * with the shown ids in `exclude_ids`: 加载更多).
   */
  has_more: z.boolean().optional(),
});
export type NewsRecommendationResponse = z.infer<typeof newsRecommendationResponseSchema>;

const pageRange = { min: 1, max: NEWS_LIST_LIMITS.maxPage, integer: true, name: 'page' };
const pageSizeRange = { min: 1, max: NEWS_LIST_LIMITS.maxPageSize, integer: true, name: 'page_size' };

/**
 * GET /api/news/recommendations/ query. Every parameter is optional: absent (or empty) takes the spec's
 * default (top_k 20, similarity_threshold 0.3, date_filter 一周内, page 1, page_size 20);
 * `date_filter=` (empty) is 不限, and of several labels the widest applies. The recommended set is the
 * top_k items nearest to the profile in the window that meet the threshold; page and page_size slice it.
 */
export const newsRecommendationQuerySchema = z
  .object({
    top_k: queryText('推荐数量', 'top_k'),
    similarity_threshold: queryText('相似度阈值', 'similarity_threshold'),
    date_filter: queryText('日期筛选', 'date_filter'),
    page: queryText('页码', 'page'),
    page_size: queryText('每页数量', 'page_size'),
    ...recommendationPagingQuery,
  })
  .transform((query, ctx) => ({
    ...parseRecommendationPaging(query, ctx),
    topK: parseNumber(
      query.top_k,
      NEWS_RECOMMENDATION_DEFAULTS.topK,
      { ...RECOMMENDATION_TOP_K, integer: true, name: 'top_k' },
      ctx,
    ),
    threshold: parseNumber(
      query.similarity_threshold,
      NEWS_RECOMMENDATION_DEFAULTS.threshold,
      { min: 0, max: 1, name: 'similarity_threshold' },
      ctx,
    ),
    dateFilter: parseDateFilter(query.date_filter, ctx, NEWS_RECOMMENDATION_DEFAULTS.dateFilter),
    page: parseNumber(query.page, 1, pageRange, ctx),
    pageSize: parseNumber(query.page_size, NEWS_RECOMMENDATION_DEFAULTS.pageSize, pageSizeRange, ctx),
  }));
export type NewsRecommendationQuery = z.output<typeof newsRecommendationQuerySchema>;

export const NEWS_SEARCH_TYPES = ['keyword', 'semantic'] as const;
export type NewsSearchType = (typeof NEWS_SEARCH_TYPES)[number];

export const NEWS_SEARCH_EMPTY_QUERY_MESSAGE = '请输入搜索关键词';
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' of a real calendar day -> midnight UTC of that day; undefined otherwise. */
function parseDay(value: string): Date | undefined {
  const match = DATE.exec(value);
  if (!match) return undefined;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return day.toISOString().slice(0, 10) === value ? day : undefined;
}

/** A JSON number, or its text (a form may send "2"); null, absent or '' take the default. */
const pageNumber = (name: string, label: string) =>
  z
    .preprocess(
      (value) => (typeof value === 'number' ? String(value) : value),
      text(label, { message: `${name} 必须是整数` }).nullish(),
    )
    .transform((value) => (value === null || value === undefined ? undefined : value));

/** A text field that may be left out, null or ''. */
const optionalText = (label: string, max: number) =>
  text(label)
    .trim()
    .max(max, { message: `${label}不能超过 ${max} 个字符` })
    .nullish()
    .transform((value) => value || undefined);

/**
 * POST /api/news/search/ body. `query` is required. keyword (default): whitespace-separated keywords
 * (a part in double quotes is one keyword), all of which must match title or content, Chinese and
 * English alike. semantic: the items nearest in meaning to the whole query. `institute_name` keeps items
 * whose institute's name contains it (ignoring case); `date_from`/`date_to` (YYYY-MM-DD, calendar days of
 * the readers' zone, both inclusive) bound the item's date (publish_date, else crawl_date). Fields that
 * are null or '' count as left out.
 */
export const newsSearchRequestSchema = z
  .object({
    query: text('搜索关键词')
      .trim()
      .max(NEWS_LIST_LIMITS.queryMaxLength, {
        message: `搜索关键词不能超过 ${NEWS_LIST_LIMITS.queryMaxLength} 个字符`,
      })
      .nullish(),
    search_type: z.enum(NEWS_SEARCH_TYPES, { error: `search_type 只能是 ${NEWS_SEARCH_TYPES.join(' 或 ')}` }).nullish(),
    institute_name: optionalText('机构名称', NEWS_LIST_LIMITS.instituteNameMaxLength),
    date_from: optionalText('开始日期', 20),
    date_to: optionalText('结束日期', 20),
    page: pageNumber('page', '页码'),
    page_size: pageNumber('page_size', '每页数量'),
  })
  .transform((body, ctx) => {
    const query = body.query ?? '';
    const searchType: NewsSearchType = body.search_type ?? NEWS_RECOMMENDATION_DEFAULTS.searchType;
    const keywords = splitSearchKeywords(query).filter((keyword) => /[\p{L}\p{N}]/u.test(keyword));
    if (query === '') {
      ctx.addIssue({ code: 'custom', message: NEWS_SEARCH_EMPTY_QUERY_MESSAGE, path: ['query'] });
    } else if (keywords.length === 0) {
      ctx.addIssue({ code: 'custom', message: '搜索关键词需包含文字或数字', path: ['query'] });
    } else if (searchType === 'keyword' && keywords.length > NEWS_LIST_LIMITS.maxKeywords) {
      ctx.addIssue({
        code: 'custom',
        message: `搜索关键词最多 ${NEWS_LIST_LIMITS.maxKeywords} 个`,
        path: ['query'],
      });
    }
    const from = body.date_from === undefined ? undefined : parseDay(body.date_from);
    const to = body.date_to === undefined ? undefined : parseDay(body.date_to);
    if (body.date_from !== undefined && !from) {
      ctx.addIssue({ code: 'custom', message: '开始日期格式应为 YYYY-MM-DD', path: ['date_from'] });
    }
    if (body.date_to !== undefined && !to) {
      ctx.addIssue({ code: 'custom', message: '结束日期格式应为 YYYY-MM-DD', path: ['date_to'] });
    }
    if (from && to && from > to) {
      ctx.addIssue({ code: 'custom', message: '开始日期不能晚于结束日期', path: ['date_from'] });
    }
    return {
      query,
      searchType,
      keywords,
      instituteName: body.institute_name,
      /** Midnight UTC of date_from. */
      dateFrom: from,
      /** Midnight UTC of date_to: the window ends a day later. */
      dateTo: to,
      page: parseNumber(body.page, 1, pageRange, ctx),
      pageSize: parseNumber(body.page_size, NEWS_RECOMMENDATION_DEFAULTS.pageSize, pageSizeRange, ctx),
    };
  });
export type NewsSearchRequest = z.output<typeof newsSearchRequestSchema>;
