import { type AiServices, documentEmbeddingText, isAiProviderError } from '@radar/ai';
import type {
  EmbeddingModelRow,
  KeywordRepository,
  LearningRepository,
  NewsFilters,
  NewsSearchRepository,
  NewsView,
  RecommendationDiagnosticsRepository,
  UserRepository,
  UserRow,
} from '@radar/db';
import {
  addCalendarDays,
  NEWS_LIST_LIMITS,
  type NewsListResponse,
  type NewsRecommendationQuery,
  type NewsRecommendationResponse,
  type NewsSearchRequest,
  type RecommendationReason,
  startOfCalendarDay,
  widestWindowDays,
  windowFirstDay,
} from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from '../../errors';
import type { LearningService } from '../learning/learning.service';
import type { ContentSources } from '../recommendations/content-sources';
import { explainEmptyResult } from '../recommendations/empty-explanation';
import { presentFreshness } from '../recommendations/freshness';
import { rankingProfileOf, rerankPoolSize } from '../recommendations/ranking-profile';
import { buildReasons } from '../recommendations/recommendation-reasons';
import { presentNewsItem, presentPagination } from './news.presenter';

export const SEMANTIC_SEARCH_FAILED_MESSAGE = '语义搜索暂时不可用，请稍后重试或改用关键词搜索';
export const SEMANTIC_SEARCH_TIMEOUT_MESSAGE = '语义搜索超时，请稍后重试或改用关键词搜索';

/** News recommended by similarity to the research profile, and news search (keyword or semantic). */
export class NewsService {
  constructor(
    private readonly deps: {
      ai: AiServices;
      news: NewsSearchRepository;
      users: UserRepository;
      keywords: KeywordRepository;
      learningRepository: LearningRepository;
      learning: LearningService;
      diagnostics: RecommendationDiagnosticsRepository;
      contentSources: ContentSources;
      logger: Logger;
      /** The readers' IANA zone, whose calendar days the publication windows count. */
      timeZone: string;
      now?: (() => Date) | undefined;
    },
  ) {}

  /**
   * GET /api/news/recommendations/. The recommended set is the top_k items nearest to the profile whose
   * date (publish_date, else crawl_date) is within the widest date filter (calendar days of the reader's
   * zone), of those the ones at or above the threshold; total_count is its size and page/page_size slice
   * it (a page past the end is empty).
   */
  async recommend(user: UserRow, query: NewsRecommendationQuery): Promise<NewsRecommendationResponse> {
    const profile = await rankingProfileOf(this.deps, user);
    const { model } = profile;
    const days = widestWindowDays(query.dateFilter);
    const since = this.since(days);
    const [dismissed, keywords] = await Promise.all([
      this.deps.learningRepository.dismissedNewsIds(user.id),
      this.deps.keywords.listByUser(user.id),
    ]);
    // As for papers: the threshold and the shown similarity are about the research summary; the learned
    // profile reorders a pool of passing items and the recommended set is its top_k.
    const applied = profile.learning.applied;
    const { items: pool } = await this.deps.news.nearest({
      model,
      vector: profile.baseVector,
      topK: applied ? rerankPoolSize(query.topK) : query.topK,
      threshold: query.threshold,
      filters: { since, excludedIds: dismissed },
    });
    const learnedScores = applied
      ? await this.deps.news.similarityScores(
          pool.map((item) => item.id),
          model,
          profile.vector,
        )
      : undefined;
    const items = applied
      ? [...pool]
          .sort(
            (a, b) =>
              (learnedScores?.get(b.id) ?? b.similarity) - (learnedScores?.get(a.id) ?? a.similarity) || a.id - b.id,
          )
          .slice(0, query.topK)
      : pool;
    const page = await this.rankedPage(items, query.page, query.pageSize, true, async (views) => {
      const similarity = new Map(items.map((item) => [item.id, item.similarity]));
      return buildReasons(this.deps, {
        user,
        keywords: keywords.map((keyword) => keyword.name),
        // News has no 'liked' counterpart: its reasons are keywords and shared profile terms.
        candidates: views.map((view) => ({
          id: view.id,
          text: `${view.title}. ${view.content}`,
          baseSimilarity: similarity.get(view.id) ?? 0,
        })),
      });
    });
    const [freshness, emptyExplanation] = await Promise.all([
      this.deps.diagnostics.freshness('news'),
      items.length === 0
        ? explainEmptyResult({
            kind: 'news',
            days,
            sourceSetup: () => this.deps.contentSources.setupOf('news'),
            threshold: query.threshold,
            excludedTiers: [],
            availabilityIn: (windowDays) => this.deps.diagnostics.newsAvailability(model.id, this.since(windowDays)),
            nearestSimilarities: async () =>
              (
                await this.deps.news.nearest({
                  model,
                  vector: profile.baseVector,
                  topK: query.topK,
                  threshold: -1,
                  filters: { since, excludedIds: dismissed },
                })
              ).items.map((item) => item.similarity),
          })
        : Promise.resolve(null),
    ]);
    return {
      ...page,
      learning: profile.learning,
      freshness: presentFreshness(freshness),
      empty_explanation: emptyExplanation,
    };
  }

  /**
   * The first instant of a window of `days` days: midnight, in the reader's zone, of its first calendar
   * day (see windowFirstDay). News carries times, so an item is in the window when its calendar day in
   * that zone is, as the relative-time label counts it.
   */
  private since(days: number | null): Date | undefined {
    const firstDay = windowFirstDay(days, this.now(), this.deps.timeZone);
    return firstDay === undefined ? undefined : startOfCalendarDay(firstDay, this.deps.timeZone);
  }

  /**
   * POST /api/news/search/. keyword: full-text, ranked by relevance then newest; semantic: the
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
      return this.rankedPage(items, page, pageSize, false);
    }
    const { total, ids } = await this.deps.news.keywordSearch({
      keywords: request.keywords,
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

  /** One page of a ranked list of (id, similarity), as displayed. */
  private async rankedPage(
    items: { id: number; similarity: number }[],
    page: number,
    pageSize: number,
    isRecommended: boolean,
    reasonsOf?: (views: NewsView[]) => Promise<Map<number, RecommendationReason>>,
  ): Promise<NewsListResponse> {
    const start = (page - 1) * pageSize;
    const slice = items.slice(start, start + pageSize);
    const similarity = new Map(slice.map((item) => [item.id, item.similarity]));
    const views = await this.deps.news.findViews(slice.map((item) => item.id));
    const reasons = reasonsOf ? await reasonsOf(views) : undefined;
    return {
      data: views.map((view) =>
        presentNewsItem(view, { isRecommended, score: similarity.get(view.id) ?? null, reason: reasons?.get(view.id) }),
      ),
      pagination: presentPagination(items.length, page, pageSize),
    };
  }

  /** The query embedded like a document that has only a title, with the active model. */
  private async embedQuery(
    user: UserRow,
    query: string,
  ): Promise<{ model: Pick<EmbeddingModelRow, 'id' | 'dimension'>; vector: number[] }> {
    const { ai, logger } = this.deps;
    try {
      const provider = await ai.embeddings.active();
      const [vector] = await provider.embed([documentEmbeddingText(query, '')]);
      if (!vector) throw new Error('the embedding provider returned no vector');
      // Compared only with items embedded by the same model (its id), whichever is active by then.
      return { model: { id: provider.modelId, dimension: provider.model.dimension }, vector };
    } catch (error) {
      logger.error({ userId: user.id, err: (error as Error).message }, 'semantic news search: query not embedded');
      if (isAiProviderError(error) && error.kind === 'timeout') {
        throw errors.upstreamTimedOut(SEMANTIC_SEARCH_TIMEOUT_MESSAGE);
      }
      if (isAiProviderError(error)) throw errors.upstreamFailed(SEMANTIC_SEARCH_FAILED_MESSAGE);
      throw errors.unavailable(SEMANTIC_SEARCH_FAILED_MESSAGE);
    }
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
