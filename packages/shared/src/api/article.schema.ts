import { z } from 'zod';
import { LIMITS } from '../limits';
import { paperSchema } from './paper.schema';
import { text } from './text.schema';

/** page_size above this is refused (400): one page is one query and one response body. */
export const ARTICLE_SEARCH_MAX_PAGE_SIZE = 100;
/** Pages past this are refused (400): deep offsets cost a scan of every match before them. */
export const ARTICLE_SEARCH_MAX_PAGE = 10_000;
export const ARTICLE_SEARCH_QUERY_MAX_LENGTH = 200;

const INTEGER = /^\d+$/;

/**
 * The keywords of a search text: separated by whitespace (the ideographic space too); a part in double
 * quotes ("..." or “...”) is one keyword with its spaces. Repeats (ignoring case) are dropped.
 */
export function splitSearchKeywords(query: string): string[] {
  const keywords = new Map<string, string>();
  for (const match of query.matchAll(/"([^"]*)"|“([^”]*)”|(\S+)/g)) {
    const keyword = (match[1] ?? match[2] ?? match[3] ?? '').trim();
    if (keyword && !keywords.has(keyword.toLowerCase())) keywords.set(keyword.toLowerCase(), keyword);
  }
  return [...keywords.values()];
}

function parsePositiveInteger(
  value: string | undefined,
  fallback: number,
  max: number,
  name: string,
  ctx: z.RefinementCtx,
): number {
  if (value === undefined || value.trim() === '') return fallback;
  const trimmed = value.trim();
  const parsed = Number(trimmed);
  if (!INTEGER.test(trimmed) || parsed < 1 || parsed > max) {
    ctx.addIssue({ code: 'custom', message: `${name} 必须是 1 到 ${max} 之间的整数` });
  }
  return parsed;
}

/** `page` and `page_size` of a paged list (search, library), as query text. */
const pageFields = {
  page: text('页码').max(20, { message: 'page 过长' }).optional(),
  page_size: text('每页数量').max(20, { message: 'page_size 过长' }).optional(),
};

/** Those fields as numbers: page from 1 (default 1), page_size 1-100 (default 50). */
const parsePage = (query: { page?: string | undefined; page_size?: string | undefined }, ctx: z.RefinementCtx) => ({
  page: parsePositiveInteger(query.page, 1, ARTICLE_SEARCH_MAX_PAGE, 'page', ctx),
  pageSize: parsePositiveInteger(
    query.page_size,
    LIMITS.paperSearchPageSize,
    ARTICLE_SEARCH_MAX_PAGE_SIZE,
    'page_size',
    ctx,
  ),
});

const EMPTY_QUERY = '请输入搜索关键词';

/**
 * GET /articles/search/ query. `q` is required; its keywords are joined with AND. `page` starts at 1
 * (default 1); `page_size` defaults to 50, at most ARTICLE_SEARCH_MAX_PAGE_SIZE.
 */
export const articleSearchQuerySchema = z
  .object({
    q: text('搜索关键词', { message: EMPTY_QUERY })
      .trim()
      .min(1, { message: EMPTY_QUERY })
      .max(ARTICLE_SEARCH_QUERY_MAX_LENGTH, {
        message: `搜索关键词不能超过 ${ARTICLE_SEARCH_QUERY_MAX_LENGTH} 个字符`,
      }),
    ...pageFields,
  })
  .transform((query, ctx) => {
    const keywords = splitSearchKeywords(query.q);
    if (keywords.length === 0) ctx.addIssue({ code: 'custom', message: EMPTY_QUERY });
    return {
      q: query.q,
      keywords,
      ...parsePage(query, ctx),
    };
  });
export type ArticleSearchQuery = z.output<typeof articleSearchQuerySchema>;

/** GET /articles/search/. */
export const articleSearchResponseSchema = z.object({
  /** Most relevant first (keyword in the title before the abstract, then the journal), then newest. */
  results: z.array(paperSchema),
  /** Papers matching every keyword, over all pages. */
  count: z.number().int(),
  /** Path and query of the next page (`/articles/search/?q=...&page=2&page_size=50`); null on the last page. */
  next: z.string().nullable(),
  /** Path and query of the page before, or of the last page when this one is past it; null on page 1. */
  previous: z.string().nullable(),
});
export type ArticleSearchResponse = z.infer<typeof articleSearchResponseSchema>;

/** `/articles/{id}/...`: any text; an id that names no paper (or is no paper id at all) is a 404. */
export const articleIdParamsSchema = z.object({ id: text('论文编号') });

export const articleFavoriteResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  /** The new state after the toggle. */
  is_favorited: z.boolean(),
});
export type ArticleFavoriteResponse = z.infer<typeof articleFavoriteResponseSchema>;

export const articleSaveResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  /** The new state after the toggle. */
  is_saved: z.boolean(),
});
export type ArticleSaveResponse = z.infer<typeof articleSaveResponseSchema>;

export const articleShareResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  /** A link that opens the paper: its page, else its DOI link, else its PDF; null when it has none. */
  url: z.string().nullable(),
  /** How often this user has shared this paper, this time included. */
  share_count: z.number().int(),
});
export type ArticleShareResponse = z.infer<typeof articleShareResponseSchema>;

const PROGRESS_MESSAGE = '阅读进度 progress 必须是 0 到 100 之间的数字';

/** POST /articles/{id}/read/. A fraction is rounded down (99.9 is not yet read to the end). */
export const articleReadRequestSchema = z.object({
  progress: z
    .number({ error: PROGRESS_MESSAGE })
    .min(0, { message: PROGRESS_MESSAGE })
    .max(100, { message: PROGRESS_MESSAGE })
    .transform(Math.floor),
});

export const articleReadResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  /** The furthest this user has read, 0-100: a lower progress never replaces a higher one. */
  progress: z.number().int(),
});
export type ArticleReadResponse = z.infer<typeof articleReadResponseSchema>;

export const ARTICLE_LIBRARY_LISTS = ['all', 'favorited', 'saved'] as const;
export type ArticleLibraryList = (typeof ARTICLE_LIBRARY_LISTS)[number];

/**
 * GET /articles/library/ (not in the spec; the 'saved and favourites' screen needs it): the caller's
 * favourited and/or saved papers, most recently marked first. `list` all (default: favourited or saved),
 * favorited or saved; `page`/`page_size` as in search.
 */
export const articleLibraryQuerySchema = z
  .object({
    list: z.enum(ARTICLE_LIBRARY_LISTS, { error: `list 只能是 ${ARTICLE_LIBRARY_LISTS.join('、')}` }).optional(),
    ...pageFields,
  })
  .transform((query, ctx) => ({
    list: query.list ?? 'all',
    ...parsePage(query, ctx),
  }));
export type ArticleLibraryQuery = z.output<typeof articleLibraryQuerySchema>;

export const libraryPaperSchema = paperSchema.extend({
  /** How far the caller has read, 0-100. */
  read_progress: z.number().int(),
  /** When the caller last changed this paper's state (favourite, save, read), ISO 8601. */
  marked_at: z.string(),
});
export type LibraryPaper = z.infer<typeof libraryPaperSchema>;

/** GET /articles/library/. */
export const articleLibraryResponseSchema = z.object({
  results: z.array(libraryPaperSchema),
  count: z.number().int(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
});
export type ArticleLibraryResponse = z.infer<typeof articleLibraryResponseSchema>;

/** The citation file formats of an export: what Zotero, EndNote, NoteExpress and JabRef import. */
export const CITATION_FORMATS = ['bibtex', 'ris', 'csljson'] as const;
export type CitationFormat = (typeof CITATION_FORMATS)[number];

const citationFormat = z.enum(CITATION_FORMATS, {
  error: `导出格式 format 只能是 ${CITATION_FORMATS.join('、')}`,
});

/** GET /articles/{id}/export/ (not in the spec): one paper as a citation file. */
export const articleExportQuerySchema = z.object({ format: citationFormat });
export type ArticleExportQuery = z.infer<typeof articleExportQuerySchema>;

/**
 * GET /articles/library/export/ (not in the spec): the caller's favourites and/or saved papers as one
 * citation file, `list` as in GET /articles/library/ (all, favorited, saved; default all).
 */
export const articleLibraryExportQuerySchema = z.object({
  format: citationFormat,
  list: z.enum(ARTICLE_LIBRARY_LISTS, { error: `list 只能是 ${ARTICLE_LIBRARY_LISTS.join('、')}` }).default('all'),
});
export type ArticleLibraryExportQuery = z.infer<typeof articleLibraryExportQuerySchema>;

/**
 * The 200 of an export, for the OpenAPI document: the file's text, sent as it is under its own media
 * type (not JSON).
 */
export const citationFileSchema = z
  .string()
  .describe(
    'The citation file: BibTeX (application/x-bibtex), RIS (application/x-research-info-systems) or CSL-JSON (application/vnd.citationstyles.csl+json), UTF-8, as an attachment',
  );
