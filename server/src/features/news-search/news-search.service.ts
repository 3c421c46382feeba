import { type AiServices, englishSearchPhrases, isAiProviderError } from '@radar/ai';
import type { EmbeddingModelRow, NewsFilters, NewsSearchRepository, UserRow } from '@radar/db';
import {
  addCalendarDays,
  NEWS_LIST_LIMITS,
  type NewsListResponse,
  type NewsSearchRequest,
  startOfCalendarDay,
} from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from '../../errors';
import { presentNewsItem, presentPagination } from '../../presenters/news.presenter';

export const SEMANTIC_SEARCH_FAILED_MESSAGE = '语义搜索暂时不可用，请稍后重试或改用关键词搜索';
export const SEMANTIC_SEARCH_TIMEOUT_MESSAGE = '语义搜索超时，请稍后重试或改用关键词搜索';

/** News search: by keywords (full text) or by meaning (the query's embedding), never ranked by the profile. */
export class NewsSearchService {
  constructor(
    private readonly deps: {
      ai: AiServices;
      news: NewsSearchRepository;
      logger: Logger;
      /** The readers' IANA zone, whose calendar days date_from and date_to are. */
      timeZone: string;
    },
  ) {}

  /**
   * POST /api/news/search/. keyword: full-text, ranked by relevance then newest (a Chinese keyword also
   * matches its English glosses); semantic: the
   * NEWS_LIST_LIMITS.semanticMaxResults items nearest to the query's embedding (active model) with at
   * least semanticMinSimilarity, most similar first.
   */
  async search(user: UserRow, request: NewsSearchRequest): Promise<NewsListResponse> {
    // date_from and date_to are calendar days of the reader's zone, both inclusive: from the first's
    // midnight there to the midnight after the second.
    const dayOf = (midnightUtc: Date) => midnightUtc.toISOString().slice(0, 10);
    const { timeZone } = this.deps;
    const filters: NewsFilters = {
      instituteName: request.instituteName,
      since: request.dateFrom ? startOfCalendarDay(dayOf(request.dateFrom), timeZone) : undefined,
      until: request.dateTo ? startOfCalendarDay(addCalendarDays(dayOf(request.dateTo), 1), timeZone) : undefined,
    };
    const { page, pageSize } = request;
    if (request.searchType === 'semantic') {
      const { model, vector } = await this.embedQuery(user, request.query);
      const { items } = await this.deps.news.nearest({
        model,
        vector,
        topK: NEWS_LIST_LIMITS.semanticMaxResults,
        threshold: NEWS_LIST_LIMITS.semanticMinSimilarity,
        filters,
      });
      return this.similarityPage(items, page, pageSize);
    }
    const { total, ids } = await this.deps.news.keywordSearch({
      keywords: request.keywords,
      // A Chinese keyword also finds English items through the offline glossing (图神经网络 -> graph neural network).
      english: englishSearchPhrases,
      filters,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    const views = await this.deps.news.findViews(ids);
    return {
      data: views.map((view) => presentNewsItem(view, { isRecommended: false, score: null })),
      pagination: presentPagination(total, page, pageSize),
    };
  }

  /** One page of the semantic results (most similar first), each with its similarity as the score. */
  private async similarityPage(
    items: { id: number; similarity: number }[],
    page: number,
    pageSize: number,
  ): Promise<NewsListResponse> {
    const slice = items.slice((page - 1) * pageSize, page * pageSize);
    const similarity = new Map(slice.map((item) => [item.id, item.similarity]));
    const views = await this.deps.news.findViews(slice.map((item) => item.id));
    return {
      data: views.map((view) =>
        presentNewsItem(view, { isRecommended: false, score: similarity.get(view.id) ?? null }),
      ),
      pagination: presentPagination(items.length, page, pageSize),
    };
  }

  /**
   * The query embedded as a profile is, with the active model: a Chinese query is glossed through the
   * same glossary as a Chinese profile, interest or item (炎症性肠病 reaches "inflammatory bowel
   * disease"), or embedded as written with a multilingual endpoint.
   */
  private async embedQuery(
    user: UserRow,
    query: string,
  ): Promise<{ model: Pick<EmbeddingModelRow, 'id' | 'dimension'>; vector: number[] }> {
    const { ai, logger } = this.deps;
    try {
      const { modelId, vector } = await ai.embeddings.embedReaderText(query);
      // Compared only with items embedded by the same model (its id), whichever is active by then.
      return { model: { id: modelId, dimension: vector.length }, vector };
    } catch (error) {
      logger.error({ userId: user.id, err: (error as Error).message }, 'semantic news search: query not embedded');
      if (isAiProviderError(error) && error.kind === 'timeout') {
        throw errors.upstreamTimedOut(SEMANTIC_SEARCH_TIMEOUT_MESSAGE);
      }
      if (isAiProviderError(error)) throw errors.upstreamFailed(SEMANTIC_SEARCH_FAILED_MESSAGE);
      throw errors.unavailable(SEMANTIC_SEARCH_FAILED_MESSAGE);
    }
  }
}
