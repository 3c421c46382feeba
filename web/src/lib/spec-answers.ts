import type {
  ArticleSearchResponse,
  EmptyExplanation,
  Freshness,
  Keyword,
  KeywordListResponse,
  KeywordSuggestionsResponse,
  LearningSummary,
  NewsItem,
  NewsListResponse,
  Paper,
  PaperRecommendationResponse,
  RecommendationReason,
  ServedInterest,
} from '@radar/shared';
import type { AuthorEntry } from './paper-display';

/**
 * Reading the API's answers as the product contract guarantees them, not as our own server writes them.
 * The web app must work against any backend that answers with only the contract's fields, so every
 * field our server adds beyond them (freshness, learning, empty explanations, reasons, alert settings,
 * pagination extras, the caller's favourite state...) is optional here: a missing one gets a neutral
 * default (false, 0, '', null) or stays absent so the screen leaves its part out. Nothing here throws
 * on a missing field; a list that is not a list reads as empty.
 */

type Json = Record<string, unknown>;

const asRecord = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
const textOrNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const numberOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const numberOr = (value: unknown, fallback: number): number => numberOrNull(value) ?? fallback;
const booleanOrUndefined = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
/** An object-valued extra kept only when it is an object, so a screen can test it for presence. */
const objectOrUndefined = <T>(value: unknown): T | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as T) : undefined;

/** `jcr_source` and `jcr_year` when the answer carries them (additions to the spec's Paper). */
function tierSourceOf(paper: Record<string, unknown>): Pick<Paper, 'jcr_source' | 'jcr_year'> {
  const source = paper.jcr_source;
  if (source !== 'scimago' && source !== 'openalex' && source !== 'imported') return {};
  const year = numberOrNull(paper.jcr_year);
  return { jcr_source: source, jcr_year: year === null ? null : Math.trunc(year) };
}

/** `published_version` when the answer carries a well-formed one (an addition to the spec's Paper). */
function publishedVersionOf(paper: Record<string, unknown>): Pick<Paper, 'published_version'> {
  const version = objectOrUndefined<Record<string, unknown>>(paper.published_version);
  const journal = textOrNull(version?.journal)?.trim();
  const url = textOrNull(version?.url)?.trim();
  if (!version || !journal || !url) return {};
  return {
    published_version: { journal, doi: textOrNull(version.doi), url, arrived_at: text(version.arrived_at) },
  };
}

/**
 * The reader's rating when the answer carries it (not in the spec): 1, -1 or null; left out when the
 * answer has no `rating` field, so the cards hide 👍/👎 for a backend without ratings.
 */
function ratingOf(item: Record<string, unknown>): { rating?: 1 | -1 | null } {
  if (!('rating' in item)) return {};
  return { rating: item.rating === 1 || item.rating === -1 ? item.rating : null };
}

/** A Paper with its authors as sources give them (names, or `{ name }` objects). */
export type ClientPaper = Omit<Paper, 'authors'> & { authors: AuthorEntry[] };

/**
 * One paper of any list. Ids become strings; `date` comes from `date` or `time` (the year stands in on
 * the card); `url` stays '' when the answer has none, and the card links the DOI instead.
 */
export function readPaper(raw: unknown): ClientPaper {
  const paper = asRecord(raw);
  const year = numberOrNull(paper.year);
  return {
    id: text(paper.id),
    title: text(paper.title),
    authors: asArray(paper.authors) as AuthorEntry[],
    abstract: text(paper.abstract),
    date: textOrNull(paper.date) ?? textOrNull(paper.time),
    year: year === null ? null : Math.trunc(year),
    journal: text(paper.journal),
    keywords: asArray(paper.keywords).filter((keyword): keyword is string => typeof keyword === 'string'),
    url: text(paper.url),
    doi: textOrNull(paper.doi),
    pdf_url: textOrNull(paper.pdf_url),
    // The preprint's page beside a journal version (not in the spec): the card's second link.
    ...(textOrNull(paper.preprint_url) ? { preprint_url: textOrNull(paper.preprint_url) } : {}),
    jcr: numberOrNull(paper.jcr),
    ...tierSourceOf(paper),
    ...publishedVersionOf(paper),
    llm_summary: textOrNull(paper.llm_summary),
    is_favorited: paper.is_favorited === true,
    is_saved: paper.is_saved === true,
    ...ratingOf(paper),
    created_at: text(paper.created_at),
    updated_at: text(paper.updated_at),
  };
}

export type ClientRecommendedPaper = ClientPaper & {
  similarity_score: number | null;
  /** Why it is recommended; absent when the backend does not say. */
  reason?: RecommendationReason | null;
  /** The reader's interest it serves (beyond the spec; only with several interests). */
  interest?: ServedInterest | undefined;
  /** Why the LLM placed it there (beyond the spec; only with the LLM rerank on). */
  rerank_reason?: string | undefined;
};

function readRecommendedPaper(raw: unknown): ClientRecommendedPaper {
  const paper = asRecord(raw);
  return {
    ...readPaper(paper),
    similarity_score: numberOrNull(paper.similarity_score) ?? numberOrNull(paper.score),
    reason: readReason(paper.reason),
    interest: readServedInterest(paper.interest),
    rerank_reason:
      typeof paper.rerank_reason === 'string' && paper.rerank_reason.trim() ? paper.rerank_reason : undefined,
  };
}

function readServedInterest(value: unknown): ServedInterest | undefined {
  const interest = objectOrUndefined<ServedInterest>(value);
  return interest && typeof interest.name === 'string' && interest.name.trim() ? interest : undefined;
}

function readReason(value: unknown): RecommendationReason | null {
  const reason = objectOrUndefined<RecommendationReason>(value);
  return reason && typeof reason.text === 'string' ? reason : null;
}

/** A paper of the section 关注的作者 (beyond the spec), with the followed authors it is by. */
export type ClientFollowedAuthorPaper = ClientPaper & {
  followed_authors: {
    id: string;
    name: string;
    match: 'id' | 'affiliation' | 'name';
    /** For a name match: what it shares with the paper the author was followed from (optional). */
    evidence?: 'field' | 'coauthor';
  }[];
};

/** The section's papers; [] when the answer has none (a backend without followed authors). */
function readFollowedAuthorPapers(value: unknown): ClientFollowedAuthorPaper[] {
  return asArray(value).flatMap((raw) => {
    const paper = asRecord(raw);
    const authors = asArray(paper.followed_authors).flatMap((rawAuthor) => {
      const author = asRecord(rawAuthor);
      const match = author.match === 'id' || author.match === 'affiliation' ? author.match : 'name';
      const evidence: 'field' | 'coauthor' | undefined =
        author.evidence === 'field' || author.evidence === 'coauthor' ? author.evidence : undefined;
      return typeof author.name === 'string' && author.name.trim()
        ? [
            {
              id: text(author.id),
              name: author.name,
              match: match as 'id' | 'affiliation' | 'name',
              ...(evidence ? { evidence } : {}),
            },
          ]
        : [];
    });
    return authors.length && typeof paper.id === 'string' ? [{ ...readPaper(paper), followed_authors: authors }] : [];
  });
}

/**
 * The section's folded name-only matches (beyond the spec): how many and the first of them; undefined
 * when the answer has none.
 */
function readFollowedAuthorNamesakes(
  value: unknown,
): { count: number; papers: ClientFollowedAuthorPaper[] } | undefined {
  const namesakes = asRecord(value);
  const count = numberOrNull(namesakes.count);
  return count ? { count: Math.trunc(count), papers: readFollowedAuthorPapers(namesakes.papers) } : undefined;
}

/** What the papers page may find beyond the contract's answer; each is optional. */
type PaperRecommendationExtras = Partial<
  Pick<
    PaperRecommendationResponse,
    'top_k' | 'excluded_jcr' | 'date_filter' | 'published_since' | 'filtered_out' | 'unknown_tier_included' | 'notes'
  >
> & {
  /** '(filtered out N)' shows only when the answer gives it. */
  filtered_out_count?: number;
  learning?: LearningSummary;
  freshness?: Freshness;
  empty_explanation?: EmptyExplanation | null;
  /** Papers by followed authors, shown above the recommendations (beyond the spec). */
  followed_author_papers?: ClientFollowedAuthorPaper[];
  /** The section's papers matched by name alone with nothing shared: possibly namesakes, folded. */
  followed_author_namesakes?: { count: number; papers: ClientFollowedAuthorPaper[] };
  /** More eligible papers follow these (beyond the spec: 加载更多); absent when the answer does not say. */
  has_more?: boolean;
};

/** GET /api/auth/recommendations/papers/ as the contract gives it: success, recommendations, count, threshold. */
export type PaperRecommendations = {
  success: true;
  recommendations: ClientRecommendedPaper[];
  recommendations_count: number;
  user_id: string;
  similarity_threshold: number | null;
} & PaperRecommendationExtras;

/** Reads a successful answer (the caller has checked `success` and that `recommendations` is a list). */
export function readPaperRecommendations(raw: unknown): PaperRecommendations {
  const answer = asRecord(raw);
  const recommendations = asArray(answer.recommendations).map(readRecommendedPaper);
  const filteredOut = numberOrNull(answer.filtered_out_count);
  return {
    ...(answer as PaperRecommendationExtras),
    success: true,
    recommendations,
    recommendations_count: numberOr(answer.recommendations_count, recommendations.length),
    user_id: text(answer.user_id),
    similarity_threshold: numberOrNull(answer.similarity_threshold),
    filtered_out_count: filteredOut ?? undefined,
    learning: objectOrUndefined<LearningSummary>(answer.learning),
    freshness: objectOrUndefined<Freshness>(answer.freshness),
    empty_explanation: objectOrUndefined<EmptyExplanation>(answer.empty_explanation) ?? null,
    followed_author_papers: readFollowedAuthorPapers(answer.followed_author_papers),
    followed_author_namesakes: readFollowedAuthorNamesakes(answer.followed_author_namesakes),
    has_more: booleanOrUndefined(answer.has_more),
  };
}

export type ClientNewsItem = Omit<NewsItem, 'reason'> & { reason?: RecommendationReason | null };

/**
 * One news item. The score is read under either name (`recommendation_score`, also seen as
 * `similarity_score`); a missing crawl date falls back to the publish date.
 */
function readNewsItem(raw: unknown, isRecommendedByDefault: boolean): ClientNewsItem {
  const item = asRecord(raw);
  const score = numberOrNull(item.recommendation_score) ?? numberOrNull(item.similarity_score);
  const publishDate = textOrNull(item.publish_date);
  return {
    id: text(item.id),
    title: text(item.title),
    content: text(item.content),
    institute_name: text(item.institute_name),
    publish_date: publishDate,
    crawl_date: textOrNull(item.crawl_date) ?? publishDate ?? '',
    url: text(item.url),
    is_recommended: typeof item.is_recommended === 'boolean' ? item.is_recommended : isRecommendedByDefault,
    recommendation_score: score,
    similarity_score: score,
    reason: readReason(item.reason),
    interest: readServedInterest(item.interest),
    ...ratingOf(item),
  };
}

export type NewsPage = Omit<NewsListResponse, 'data'> & { data: ClientNewsItem[] };

/**
 * A page of news (recommendations and search): `data` and `pagination { total_count, current_page }`;
 * `page_size` defaults to the page size asked for and `total_pages` is counted from them.
 */
export function readNewsPage(raw: unknown, options: { pageSize: number; isRecommended: boolean }): NewsPage {
  const answer = asRecord(raw);
  const data = asArray(answer.data).map((item) => readNewsItem(item, options.isRecommended));
  const pagination = asRecord(answer.pagination);
  const totalCount = numberOr(pagination.total_count, data.length);
  const pageSize = Math.max(1, numberOr(pagination.page_size, options.pageSize));
  return {
    data,
    pagination: {
      total_count: totalCount,
      current_page: numberOr(pagination.current_page, 1),
      page_size: pageSize,
      total_pages: numberOr(pagination.total_pages, Math.ceil(totalCount / pageSize)),
    },
  };
}

export type NewsRecommendations = NewsPage & {
  learning?: LearningSummary;
  freshness?: Freshness;
  empty_explanation?: EmptyExplanation | null;
  /** More eligible news follow the top_k set (beyond the spec: 加载更多); absent when the answer does not say. */
  has_more?: boolean;
};

export function readNewsRecommendations(raw: unknown, pageSize: number): NewsRecommendations {
  const answer = asRecord(raw);
  return {
    ...readNewsPage(answer, { pageSize, isRecommended: true }),
    learning: objectOrUndefined<LearningSummary>(answer.learning),
    freshness: objectOrUndefined<Freshness>(answer.freshness),
    empty_explanation: objectOrUndefined<EmptyExplanation>(answer.empty_explanation) ?? null,
    has_more: booleanOrUndefined(answer.has_more),
  };
}

export type PaperPage<P extends ClientPaper = ClientPaper> = Omit<ArticleSearchResponse, 'results'> & {
  results: P[];
};

/** GET /articles/search/ (and the library, which answers alike): `results`, `count`, `next`. */
export function readPaperPage<P extends ClientPaper = ClientPaper>(
  raw: unknown,
  readItem: (item: unknown) => P = readPaper as (item: unknown) => P,
): PaperPage<P> {
  const answer = asRecord(raw);
  const results = asArray(answer.results).map(readItem);
  return {
    results,
    count: numberOr(answer.count, results.length),
    next: textOrNull(answer.next),
    previous: textOrNull(answer.previous),
  };
}

/** One keyword: id, name, created_at; alert settings default to off, daily, no excluded words. */
function readKeyword(raw: unknown): Keyword {
  const keyword = asRecord(raw);
  return {
    id: text(keyword.id),
    name: text(keyword.name) || text(keyword.keyword),
    created_at: text(keyword.created_at),
    alert_enabled: keyword.alert_enabled === true,
    alert_frequency: keyword.alert_frequency === 'weekly' ? 'weekly' : 'daily',
    negative_terms: asArray(keyword.negative_terms).filter((term): term is string => typeof term === 'string'),
    last_alerted_at: textOrNull(keyword.last_alerted_at),
  };
}

/** GET /user-keywords/ "returns the keyword list": a bare list, or our `{ keywords, count }`. */
export function readKeywordList(raw: unknown): KeywordListResponse {
  const answer = asRecord(raw);
  const list = Array.isArray(raw) ? raw : Array.isArray(answer.keywords) ? answer.keywords : asArray(answer.results);
  const keywords = list.map(readKeyword).filter((keyword) => keyword.id !== '' && keyword.name !== '');
  return { keywords, count: keywords.length };
}

/** GET /user-rkeywords/ "returns recommended keywords": names, or objects with a name; best first. */
export function readKeywordSuggestions(raw: unknown): KeywordSuggestionsResponse {
  const answer = asRecord(raw);
  const list = Array.isArray(raw) ? raw : Array.isArray(answer.keywords) ? answer.keywords : asArray(answer.results);
  const keywords: KeywordSuggestionsResponse['keywords'] = [];
  for (const entry of list) {
    const record = asRecord(entry);
    const name = typeof entry === 'string' ? entry : text(record.name) || text(record.keyword);
    if (name.trim() === '') continue;
    keywords.push({
      name,
      score: numberOr(record.score, 0),
      source: record.source === 'similar_papers' ? 'similar_papers' : 'research_summary',
    });
  }
  return { keywords };
}

/**
 * GET /api/auth/recommendations/stats/, as far as a screen uses it: the papers that can be recommended
 * (the contract's current_user.available_recommendations); null when the answer does not say.
 */
export function readPaperAvailability(raw: unknown): { availablePapers: number | null } {
  return { availablePapers: numberOrNull(asRecord(asRecord(raw).current_user).available_recommendations) };
}

/**
 * The keyword in the answer to an add or an update (the contract does not show these answers): ours is
 * `{ success, keyword }`, another backend may answer the keyword itself or nothing. Without one, the
 * keyword is named as it was sent, with an empty id, and the list is left to its refetch.
 */
export function readKeywordAnswer(raw: unknown, sent: { id?: string; name: string }): { keyword: Keyword } {
  const answer = asRecord(raw);
  const candidate = readKeyword('keyword' in answer ? answer.keyword : answer);
  if (candidate.id !== '' && candidate.name !== '') return { keyword: candidate };
  return { keyword: readKeyword({ id: sent.id ?? '', name: sent.name }) };
}
