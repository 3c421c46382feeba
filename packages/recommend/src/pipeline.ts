import {
  CLASSIFIER_MIN_SIGNALS,
  classifierScoreFromProduct,
  documentEmbeddingText,
  type EmbeddingModels,
  isChineseText,
} from '@radar/ai';
import type {
  AlertClaim,
  AlertRanking,
  CandidateScoring,
  EmbeddingModelRow,
  FollowedAuthorRow,
  ItemKind,
  LearningState,
  NewsSearchRepository,
  NewsView,
  PaperRecommendationResult,
  PaperRepository,
  PaperView,
  RankingCandidate,
  RankingInterest,
  RecommendationDiagnosticsRepository,
  RecommendationRepository,
  UserRow,
  WindowStart,
} from '@radar/db';
import {
  type DateFilterLabel,
  type EmptyExplanation,
  type Freshness,
  INTEREST_LIMITS,
  LEARNING_TEXTS,
  type LearningSummary,
  type RecommendationReason,
  type ServedInterest,
  SUMMARY_INTEREST,
  startOfCalendarDay,
  widestWindowDays,
  windowFirstDay,
} from '@radar/shared';
import type { Logger } from 'pino';
import type { ContentSources } from './content-sources';
import { unmatchedChineseLast } from './cross-language';
import { explainEmptyResult } from './empty-explanation';
import type { FieldStanding } from './field-rule';
import { followedAuthorCandidateLimit, type MatchedAuthorPaper, matchFollowedAuthorPapers } from './followed-authors';
import { presentFreshness } from './freshness';
import { interleaveByQuota } from './interest-quotas';
import type { LlmRerank } from './llm-rerank';
import { orderRecommendations, reorders, rerankPoolSize } from './ordering';
import { type ProfileVectorDeps, profileVectorOf } from './profile-vector';
import { buildReasons, type ReasonCandidate, type ReasonDeps } from './reasons';

/*
 * The one ranking pipeline of paper recommendations, news recommendations and keyword alerts:
 *   1. context (one query): the active model, the learning state and learned profile, the items never
 *      to show (dismissed ones, and the reader's own works), the followed authors (papers);
 *   2. candidates (one round trip): the nearest items to the research summary that pass the filters,
 *      with their learned-profile similarity and research fields, and the freshness line, in the same
 *      message as their planner settings; for the section 关注的作者, the followed authors' candidate
 *      papers too (matched to the follows in memory, followed-authors.ts);
 *   3. learned or field reordering, in memory;
 *   4. cards (one query): the displayed rows of the final list, with the reader's keyword each matches
 *      (papers: and the liked paper closest to each), and those of the section 关注的作者;
 *   5. reasons, in memory; the explanation of an empty list from what step 2 returned (and the
 *      reader's source setup), plus one count query when step 2 found no candidate at all, only when
 *      the list is empty.
 * The three differ only in what PIPELINE_OPTIONS names.
 */

/** What the pipeline ranks for: paper or news recommendations, or a keyword alert's papers. */
export type PipelineChannel = ItemKind | 'keyword-alerts';

export interface PipelineOptions {
  /** Where step 2's candidates come from. */
  candidates: 'nearest to the research summary' | 'new papers matching a due keyword';
  /** Step 3: whether the learned profile and the research-field rule reorder the candidates. */
  reorders: boolean;
  /** Step 5: whether a liked paper can be the reason (news has no 'liked' counterpart). */
  likedReasons: boolean;
  /** Step 5: whether an empty list is explained (an alert with no paper sends no mail). */
  explainsEmpty: boolean;
}

export const PIPELINE_OPTIONS: Record<PipelineChannel, PipelineOptions> = {
  paper: {
    candidates: 'nearest to the research summary',
    reorders: true,
    likedReasons: true,
    explainsEmpty: true,
  },
  news: { candidates: 'nearest to the research summary', reorders: true, likedReasons: false, explainsEmpty: true },
  // Keyword alerts select in the database (KeywordRepository.claimAlertDigests: the keyword match without
  // its negative terms, never mailed before, what the reader may be shown) and are ordered here as
  // /papers is (alertRanking); the pipeline gives their reasons.
  'keyword-alerts': {
    candidates: 'new papers matching a due keyword',
    reorders: true,
    likedReasons: false,
    explainsEmpty: false,
  },
};

/**
 * Whether the learned profile misses a change: a signal newer than it, a research summary re-embedded
 * since, or signals without one (a worker that was down, a model switch).
 */
export function isLearnedProfileBehind(state: LearningState, activeModelId: number): boolean {
  const signals = state.likedCount + state.dismissedCount;
  if (signals === 0) return state.learnedModelId !== null;
  return state.learnedModelId !== activeModelId || state.changedSinceLearned;
}

export interface PipelineDeps {
  /**
   * The active model's term weights for reasons (AiServices.embeddings), and whether Chinese items are
   * embedded as written (a multilingual endpoint) rather than glossed (unmatchedChineseLast).
   */
  embeddings: Pick<EmbeddingModels, 'termWeighting'> & { texts?: Pick<EmbeddingModels['texts'], 'multilingual'> };
  recommendations: RecommendationRepository;
  papers: PaperRepository;
  news: NewsSearchRepository;
  diagnostics: RecommendationDiagnosticsRepository;
  contentSources: Pick<ContentSources, 'setupOf'>;
  /**
   * The research summary's vector of the active model (`activeRow`: the row step 1 read). The caller's
   * errors (no summary, no vector yet, no model) pass through.
   */
  profileVector: (
    user: UserRow,
    activeRow: EmbeddingModelRow | undefined,
  ) => Promise<{ model: EmbeddingModelRow; vector: number[] }>;
  /** Asks the worker to recompute a learned profile found behind (the caller deduplicates and rate-limits). */
  requestRelearn: (userId: string) => Promise<void>;
  logger: Logger;
  /** The readers' IANA zone, whose calendar days the publication windows count. */
  timeZone: string;
  /** The optional LLM rerank of paper recommendations (LLM_RERANK with an LLM configured); absent: off. */
  llmRerank?: LlmRerank | undefined;
  now?: (() => Date) | undefined;
}

/** What a recommendation starts from (step 1). */
export interface RecommendationStart {
  model: EmbeddingModelRow;
  /** The research summary's vector: candidates, threshold and the shown similarity are about it. */
  baseVector: number[];
  /** The learned profile, when it is applied. */
  learnedVector: number[] | null;
  /**
   * The reader's classifier, when it orders (issue 23: at least CLASSIFIER_MIN_SIGNALS signals and a fit
   * for this model); it takes the learned profile's place in step 3.
   */
  classifier: { weights: number[]; bias: number } | null;
  learning: LearningSummary;
  /** Never recommended: items marked 'not interested' and, for papers, the reader's own works. */
  excludedIds: number[];
  /** The summary's quota and the reader's other interests with a vector of this model (none: one interest, as before). */
  interests: { summaryQuota: number; others: RankingInterest[] };
  /** The reader's followed authors (papers; none for news). */
  follows: FollowedAuthorRow[];
}

/** A candidate after steps 2 and 3: its raw similarity, field standing and known fields. */
export interface RankedCandidate {
  id: number;
  similarity: number;
  standing?: FieldStanding | undefined;
  fields?: string[] | undefined;
  /** The interest it was drawn for, when the reader keeps several (its similarity is to that interest). */
  interest?: ServedInterest | undefined;
}

export interface RecommendationFilters {
  topK: number;
  threshold: number;
  dateFilter: DateFilterLabel[];
  /** 含已评价: items the reader rated 👍 stay in the list (reader-eligibility.ts). */
  includeRated?: boolean | undefined;
  /** 加载更多: ids the page already shows, left out of this answer. */
  shownIds?: readonly number[] | undefined;
}

/** A paper recommendation before it is presented. */
export interface RankedPapers {
  items: (RankedCandidate & {
    view: PaperView;
    reason: RecommendationReason | undefined;
    /** Why the LLM placed it there (Chinese), when the LLM rerank ran. */
    rerankReason?: string | undefined;
  })[];
  /** The first calendar day of the publication window, undefined for 不限. */
  publishedSince: string | undefined;
  /**
   * The section 关注的作者: papers by followed authors in the same window (asked with
   * `followedAuthorPapers`), newest first, with each paper's matched follows and its card's row.
   */
  followedAuthorPapers: (MatchedAuthorPaper & { view: PaperView })[];
  /**
   * The section's name-only matches sharing neither a field nor a co-author with the paper the author
   * was followed from (possibly namesakes): folded on the page, never delivered.
   */
  followedAuthorNamesakes: { count: number; papers: (MatchedAuthorPaper & { view: PaperView })[] };
  filteredOut: PaperRecommendationResult['filteredOut'];
  learning: LearningSummary;
  freshness: Freshness;
  emptyExplanation: EmptyExplanation | null;
  /** Whether more eligible papers follow these (加载更多 with their ids shown). */
  hasMore: boolean;
}

/** A news recommendation before it is presented: the whole ranked set, and the requested page's cards. */
export interface RankedNews {
  ranked: RankedCandidate[];
  page: { views: NewsView[]; reasons: Map<number, RecommendationReason> };
  learning: LearningSummary;
  freshness: Freshness;
  emptyExplanation: EmptyExplanation | null;
  /** Whether more eligible items follow the top_k set (加载更多 with their ids shown). */
  hasMore: boolean;
}

type CandidateRow = RankingCandidate;

/** How step 2 scores the candidates for step 3: the reader's classifier, else the learned profile. */
function scoringOf(start: RecommendationStart): CandidateScoring {
  if (start.classifier) return { by: 'classifier', weights: start.classifier.weights };
  if (start.learnedVector) return { by: 'learned-profile', vector: start.learnedVector };
  return { by: 'similarity' };
}

/**
 * Whether eligible items beyond the `shown` ones exist: step 2's searches (one per interest) found more
 * distinct items at or above the threshold than the list holds. Every search asks for one more than
 * top_k at least (poolSize), so a full list tells.
 */
function moreFollow(shown: number, searches: readonly CandidateRow[][], threshold: number): boolean {
  const passing = new Set(
    searches.flatMap((rows) => rows.filter((row) => row.similarity >= threshold).map((row) => row.id)),
  );
  return passing.size > shown;
}

/**
 * How many of the nearest items beyond the window and tier filters an empty list's explanation looks
 * at (at least top_k): enough to count what a wider window would show in all but huge corpora, where
 * the count becomes "至少 N".
 */
const BEYOND_FILTERS_ROWS = 200;
/** The days of the 一周内 window. */
const WEEK_DAYS = 7;

export class RecommendationPipeline {
  constructor(private readonly deps: PipelineDeps) {}

  /**
   * GET /api/auth/recommendations/papers/: steps 1 to 5 for papers. `followedAuthorPapers`: how many
   * papers the section 关注的作者 lists at most (left out: no section, as for the digest).
   */
  async recommendPapers(
    user: UserRow,
    query: RecommendationFilters & { excludedTiers: number[]; followedAuthorPapers?: number | undefined },
  ): Promise<RankedPapers> {
    const start = await this.start(user, 'paper', query);
    const { model } = start;
    const days = widestWindowDays(query.dateFilter);
    // A paper's publication date is a calendar day (no time): it is in the window when it is on or after
    // the window's first day in the reader's zone, so 一天内 at 01:00 Beijing time is today and yesterday
    // there, whatever day it is in UTC.
    const publishedSince = this.windowFirstDay(days);
    // The section 关注的作者: the same window, not filtered by tier or similarity (the reader asked for
    // this person's work); its candidates travel with step 2, its cards with step 4, so a reader who
    // follows authors pays no round trip more.
    const sectionSize = Math.max(0, Math.trunc(query.followedAuthorPapers ?? 0));
    const sectionStatement =
      sectionSize > 0 && start.follows.length > 0
        ? this.deps.recommendations.followedAuthorCandidatesStatement(user.id, start.follows, {
            publishedSince,
            includeRated: query.includeRated,
            limit: followedAuthorCandidateLimit(sectionSize),
          })
        : undefined;
    // The threshold and the shown similarity are about the research summary; learning and the field
    // rule only reorder what passes, within a pool large enough to hold every passing paper in all but
    // the widest windows.
    const {
      result,
      candidates: unthresholded,
      others,
      freshnessRow,
      followedAuthorRows,
    } = await this.deps.papers.recommendWith(
      {
        model,
        vector: start.baseVector,
        topK: this.poolSize('paper', start, user, query.topK),
        threshold: query.threshold,
        publishedSince,
        excludedTiers: query.excludedTiers,
        excludedIds: start.excludedIds,
        countTopK: query.topK,
      },
      {
        scoring: scoringOf(start),
        freshness: this.deps.diagnostics.freshnessStatement('paper', this.weekStart('paper')),
        followedAuthors: sectionStatement,
        otherVectors: start.interests.others.map((interest) => interest.vector),
      },
    );
    const {
      papers: section,
      namesakes,
      namesakeCount,
    } = sectionStatement
      ? matchFollowedAuthorPapers(
          start.follows,
          this.deps.recommendations.readFollowedAuthorCandidates(followedAuthorRows),
          sectionSize,
        )
      : { papers: [], namesakes: [], namesakeCount: 0 };
    const passing = unthresholded.filter((row) => row.similarity >= query.threshold);
    const order = start.interests.others.length
      ? this.orderByInterests('paper', start, user, [unthresholded, ...others], query)
      : this.order('paper', start, user, passing, query.topK);
    const hasMore = moreFollow(order.length, [unthresholded, ...others], query.threshold);
    const { views, matchedKeywords, closestLiked, sectionViews } = await this.deps.recommendations.cards(
      order.map((entry) => entry.id),
      user.id,
      start.learning.applied ? { modelId: model.id } : undefined,
      [...section, ...namesakes].map((paper) => paper.paperId),
    );
    const sectionViewById = new Map(sectionViews.map((view) => [view.id, view]));
    const withViews = (papers: MatchedAuthorPaper[]) =>
      papers.flatMap((paper) => {
        const view = sectionViewById.get(paper.paperId);
        return view ? [{ ...paper, view }] : [];
      });
    const viewById = new Map(views.map((view) => [view.id, view]));
    const { ranked, rerankReasons } = await this.rerank(
      user,
      start,
      this.unmatchedChineseLast(
        user,
        order.flatMap((entry) => {
          const view = viewById.get(entry.id);
          return view ? [{ ...entry, view }] : [];
        }),
        (entry) => documentEmbeddingText(entry.view.title, entry.view.abstract),
      ),
    );
    const reasons = await this.reasons(
      'paper',
      start,
      user,
      ranked.map((entry) => ({
        id: entry.id,
        title: entry.view.title,
        body: entry.view.abstract,
        baseSimilarity: entry.similarity,
        keyword: matchedKeywords.get(entry.id),
        closestLiked: closestLiked.get(entry.id),
        fieldStanding: entry.standing,
        fields: entry.fields,
        interest: this.otherInterestOf(start, entry.interest),
      })),
    );
    const emptyExplanation =
      ranked.length === 0 && PIPELINE_OPTIONS.paper.explainsEmpty
        ? await this.explainEmpty({
            kind: 'paper',
            user,
            start,
            days,
            threshold: query.threshold,
            topK: query.topK,
            excludedTiers: query.excludedTiers,
            unthresholded,
            windowStart: (windowDays) => this.windowFirstDay(windowDays),
            // Of the corpus's nearest papers, none failed the window or the tiers: no change of them helps.
            mayRelieve: result.filteredOut.byDate + result.filteredOut.byTier > 0,
            closestSimilarity: result.closestSimilarity,
          })
        : null;
    return {
      items: ranked.map((entry) => ({
        ...entry,
        reason: reasons.get(entry.id),
        rerankReason: rerankReasons.get(entry.id),
      })),
      publishedSince,
      followedAuthorPapers: withViews(section),
      followedAuthorNamesakes: { count: namesakeCount, papers: withViews(namesakes) },
      filteredOut: result.filteredOut,
      learning: start.learning,
      freshness: this.readFreshness('paper', freshnessRow),
      emptyExplanation,
      hasMore,
    };
  }

  /**
   * GET /api/news/recommendations/. The recommended set is the top_k items nearest to the profile whose
   * date (publish_date, else crawl_date) is within the widest date filter (calendar days of the reader's
   * zone), of those the ones at or above the threshold, reordered as papers are; cards and reasons are
   * made for one page of it.
   */
  async recommendNews(
    user: UserRow,
    query: RecommendationFilters & { page: number; pageSize: number },
  ): Promise<RankedNews> {
    const start = await this.start(user, 'news', query);
    const days = widestWindowDays(query.dateFilter);
    const {
      candidates: unthresholded,
      others,
      freshnessRow,
    } = await this.deps.news.nearestWith(
      {
        model: start.model,
        vector: start.baseVector,
        topK: this.poolSize('news', start, user, query.topK),
        threshold: query.threshold,
        filters: { since: this.windowStart(days), excludedIds: start.excludedIds },
      },
      {
        scoring: scoringOf(start),
        freshness: this.deps.diagnostics.freshnessStatement('news', this.weekStart('news')),
        otherVectors: start.interests.others.map((interest) => interest.vector),
      },
    );
    const passing = unthresholded.filter((row) => row.similarity >= query.threshold);
    const ordered = start.interests.others.length
      ? this.orderByInterests('news', start, user, [unthresholded, ...others], query)
      : this.order('news', start, user, passing, query.topK);
    const hasMore = moreFollow(ordered.length, [unthresholded, ...others], query.threshold);
    const first = (query.page - 1) * query.pageSize;
    // Placing Chinese items by what they share with the summary needs every ranked item's text: the
    // cards of the whole set are read then (one statement, as for the page alone), else the page's.
    const readsAll = this.crossLanguageApplies(user);
    const cards = await this.deps.news.findCards(
      (readsAll ? ordered : ordered.slice(first, first + query.pageSize)).map((item) => item.id),
      user.id,
    );
    const cardById = new Map(cards.views.map((view) => [view.id, view]));
    const ranked = readsAll
      ? this.unmatchedChineseLast(user, ordered, (item) => {
          const view = cardById.get(item.id);
          return view ? documentEmbeddingText(view.title, view.content) : undefined;
        })
      : ordered;
    const slice = ranked.slice(first, first + query.pageSize);
    const views = slice.flatMap((item) => cardById.get(item.id) ?? []);
    const { matchedKeywords } = cards;
    const byId = new Map(slice.map((item) => [item.id, item]));
    const reasons = await this.reasons(
      'news',
      start,
      user,
      views.map((view) => ({
        id: view.id,
        title: view.title,
        body: view.content,
        baseSimilarity: byId.get(view.id)?.similarity ?? 0,
        keyword: matchedKeywords.get(view.id),
        fieldStanding: byId.get(view.id)?.standing,
        fields: byId.get(view.id)?.fields,
        interest: this.otherInterestOf(start, byId.get(view.id)?.interest),
      })),
    );
    const emptyExplanation =
      ranked.length === 0 && PIPELINE_OPTIONS.news.explainsEmpty
        ? await this.explainEmpty({
            kind: 'news',
            user,
            start,
            days,
            threshold: query.threshold,
            topK: query.topK,
            excludedTiers: [],
            unthresholded,
            windowStart: (windowDays) => this.windowStart(windowDays),
          })
        : null;
    return {
      ranked,
      page: { views, reasons },
      learning: start.learning,
      freshness: this.readFreshness('news', freshnessRow),
      emptyExplanation,
      hasMore,
    };
  }

  /**
   * Step 1. The learned profile is used when it was made from at least one signal since the last reset
   * and with this model; when it is behind the signals (or missing), the worker is asked to recompute it
   * (deps.requestRelearn) and this request uses what exists (the summary alone at worst).
   */
  private async start(
    user: UserRow,
    kind: ItemKind,
    paging: Pick<RecommendationFilters, 'includeRated' | 'shownIds'> = {},
  ): Promise<RecommendationStart> {
    const context = await this.deps.recommendations.context(user.id, kind, {
      includeRated: paging.includeRated,
    });
    const { model, vector: baseVector } = await this.deps.profileVector(user, context.activeModel);
    const state = context.learning;
    const signalCount = state ? state.likedCount + state.dismissedCount : 0;
    if (state && isLearnedProfileBehind(state, model.id)) await this.deps.requestRelearn(user.id);
    const sameModel = context.activeModel?.id === model.id;
    const learned =
      signalCount > 0 && sameModel && context.learnedVector?.length === model.dimension ? context.learnedVector : null;
    // Another model made active since the fit: its weights mean nothing for these vectors (the context
    // reads the active model's row only; the dimension check guards a model re-created in place).
    const classifier =
      signalCount >= CLASSIFIER_MIN_SIGNALS && sameModel && context.classifier?.weights.length === model.dimension
        ? { weights: context.classifier.weights, bias: context.classifier.bias }
        : null;
    return {
      model,
      baseVector,
      learnedVector: learned,
      classifier,
      learning: {
        applied: learned !== null || classifier !== null,
        signal_count: signalCount,
        classifier: classifier !== null,
      },
      // What the reader judged (reader-eligibility.ts) and, for 加载更多, what the page already shows.
      excludedIds: [...new Set([...context.excludedIds, ...(paging.shownIds ?? [])])],
      follows: context.follows,
      interests: {
        summaryQuota: context.interests.summaryQuota ?? INTEREST_LIMITS.defaultQuota,
        // Vectors of the model in use only (the context read the active one; a summary vector of
        // another model means the configuration changed under it).
        others: context.interests.others.filter((interest) => interest.vector.length === model.dimension),
      },
    };
  }

  /**
   * Keyword alerts' step 3: the per-candidate columns the claim computes (learned score, fields) and the
   * order over them, the reader's learned order as on /papers. Undefined for a reader without a profile
   * vector (the claim then keeps similarity, then recency).
   */
  async alertRanking(user: UserRow): Promise<AlertRanking | undefined> {
    let start: RecommendationStart;
    try {
      start = await this.start(user, 'paper');
    } catch (error) {
      this.deps.logger.debug({ userId: user.id, err: (error as Error).message }, 'alert kept in similarity order');
      return undefined;
    }
    return {
      scoring: scoringOf(start),
      dimension: start.model.dimension,
      order: (candidates) =>
        this.order('keyword-alerts', start, user, candidates, candidates.length).map((row) => row.id),
    };
  }

  /** How many candidates step 2 asks for: a pool when learning or the field rule reorders them. */
  private poolSize(kind: PipelineChannel, start: RecommendationStart, user: UserRow, topK: number): number {
    const reordered = PIPELINE_OPTIONS[kind].reorders && reorders(start.learning.applied, user.researchFields);
    // One more than shown at least, so the answer knows whether more follow (has_more).
    return reordered ? rerankPoolSize(topK) : topK + 1;
  }

  /**
   * Step 3 for a reader with several interests: each interest's candidates (its own similarity, its own
   * threshold pass) ordered as one interest's are, then drawn in proportion to the quotas
   * (interleaveByQuota). The learned profile refines the research summary, so it orders only the
   * summary's candidates; the others are ordered by their interest's similarity and the field rule.
   */
  private orderByInterests(
    kind: PipelineChannel,
    start: RecommendationStart,
    user: UserRow,
    candidates: CandidateRow[][],
    query: { threshold: number; topK: number },
  ): RankedCandidate[] {
    const interests: { served: ServedInterest; quota: number }[] = [
      { served: { ...SUMMARY_INTEREST }, quota: start.interests.summaryQuota },
      ...start.interests.others.map((interest) => ({
        served: { id: String(interest.id), name: interest.name },
        quota: interest.quota,
      })),
    ];
    const lists = interests.map(({ quota }, index) => {
      const passing = (candidates[index] ?? []).filter((row) => row.similarity >= query.threshold);
      return {
        key: String(index),
        quota,
        items: this.order(kind, start, user, passing, passing.length, index === 0),
      };
    });
    return interleaveByQuota(lists, query.topK, (entry) => entry.id).map(({ item, key }) => ({
      ...item,
      interest: interests[Number(key)]?.served,
    }));
  }

  /**
   * The optional LLM rerank of the first papers (papers only; deps.llmRerank): an order, never a score,
   * with a reason in Chinese per paper; any failure keeps the pipeline's order (logged).
   */
  private async rerank<Entry extends RankedCandidate & { view: PaperView }>(
    user: UserRow,
    start: RecommendationStart,
    ranked: Entry[],
  ): Promise<{ ranked: Entry[]; rerankReasons: Map<number, string> }> {
    const rerank = this.deps.llmRerank;
    if (!rerank || ranked.length < 2) return { ranked, rerankReasons: new Map() };
    const head = ranked.slice(0, rerank.maxItems);
    try {
      const answer = await rerank.rerank({
        readerId: user.id,
        profile: user.researchSummaryEn,
        interests: start.interests.others.map((interest) => interest.name),
        items: head.map((entry) => ({ id: entry.id, title: entry.view.title, abstract: entry.view.abstract })),
      });
      const byId = new Map(head.map((entry) => [entry.id, entry]));
      const reordered = answer.order.flatMap((id) => byId.get(id) ?? []);
      return { ranked: [...reordered, ...ranked.slice(head.length)], rerankReasons: answer.reasons };
    } catch (error) {
      this.deps.logger.warn(
        { userId: user.id, err: (error as Error).message },
        'LLM rerank failed; the recommendations keep their order',
      );
      return { ranked, rerankReasons: new Map() };
    }
  }

  /** Step 3: learned or field reordering of the candidates, the first topK. */
  private order(
    kind: PipelineChannel,
    start: RecommendationStart,
    user: UserRow,
    passing: CandidateRow[],
    topK: number,
    /** Whether the learned profile may order them (it refines the research summary, not other interests). */
    useLearned = true,
  ): RankedCandidate[] {
    if (!PIPELINE_OPTIONS[kind].reorders)
      return passing.slice(0, topK).map(({ id, similarity }) => ({ id, similarity }));
    const { classifier } = start;
    // The classifier's probability (0-1, so the field rule's factor keeps its meaning), else the learned
    // profile's similarity; neither for another interest's candidates (both learn the research summary).
    const learnedScores = !useLearned
      ? undefined
      : classifier
        ? new Map(
            passing.flatMap((row) =>
              row.classifierProduct === null
                ? []
                : [[row.id, classifierScoreFromProduct(classifier, row.classifierProduct)]],
            ),
          )
        : start.learning.applied
          ? new Map(passing.flatMap((row) => (row.learnedSimilarity === null ? [] : [[row.id, row.learnedSimilarity]])))
          : undefined;
    const fields = new Map(passing.map((row) => [row.id, row.fields]));
    return orderRecommendations({
      pool: passing.map(({ id, similarity }) => ({ id, similarity })),
      readerFields: user.researchFields,
      fields,
      learnedScores,
      topK,
    });
  }

  /** Whether Chinese items are compared with this reader's summary through glosses (unmatchedChineseLast). */
  private crossLanguageApplies(user: UserRow): boolean {
    return (
      !this.deps.embeddings.texts?.multilingual &&
      !!user.researchSummaryEn.trim() &&
      !isChineseText(user.researchSummaryEn)
    );
  }

  /**
   * Step 3's last rule: a Chinese item that shares no glossary term with the English summary goes after
   * those that do (unmatchedChineseLast). Items drawn for another of the reader's interests keep their
   * place: that interest, not the summary, placed them.
   */
  private unmatchedChineseLast<Entry extends RankedCandidate>(
    user: UserRow,
    entries: Entry[],
    textOf: (entry: Entry) => string | undefined,
  ): Entry[] {
    if (!this.crossLanguageApplies(user)) return entries;
    const drawnForOther = (entry: Entry) => !!entry.interest && entry.interest.id !== SUMMARY_INTEREST.id;
    return unmatchedChineseLast(
      entries,
      (entry) => (drawnForOther(entry) ? undefined : textOf(entry)),
      user.researchSummaryEn,
      { multilingual: false },
    );
  }

  /** Step 5: why each item is recommended (buildReasons, one way for every kind). */
  private async reasons(
    kind: PipelineChannel,
    start: RecommendationStart,
    user: UserRow,
    candidates: ReasonCandidate[],
  ): Promise<Map<number, RecommendationReason>> {
    const { likedReasons } = PIPELINE_OPTIONS[kind];
    const reasons = await buildReasons(
      { termWeighting: () => this.deps.embeddings.termWeighting(start.model), logger: this.deps.logger },
      {
        reader: user,
        candidates: likedReasons
          ? candidates
          : candidates.map((candidate) => ({ ...candidate, closestLiked: undefined })),
      },
    );
    if (!start.classifier) return reasons;
    // The classifier ordered the research summary's candidates: their cards say so before what they
    // share with the profile. A card drawn for another interest was placed by that interest's own
    // similarity, and its reason names the interest alone.
    const drawnForOther = new Set(candidates.flatMap((candidate) => (candidate.interest ? [candidate.id] : [])));
    return new Map(
      [...reasons].map(([id, reason]) => [
        id,
        drawnForOther.has(id) ? reason : { ...reason, text: `${LEARNING_TEXTS.learnedOrder}；${reason.text}` },
      ]),
    );
  }

  /** The reader's other interest a card was drawn for (undefined: the research summary's, or one interest). */
  private otherInterestOf(
    start: RecommendationStart,
    served: ServedInterest | undefined,
  ): { name: string; description: string } | undefined {
    if (!served || served.id === SUMMARY_INTEREST.id) return undefined;
    const interest = start.interests.others.find((other) => String(other.id) === served.id);
    return { name: served.name, description: interest?.description ?? '' };
  }

  /**
   * Step 5, for an empty list: the closest similarities from step 2's search without the threshold;
   * with a window or excluded tiers, the nearest items beyond those filters (one search, so a wider
   * window or the tiers are offered with the count they would show); the reader's sources; and, only
   * when neither search found anything, the counts of the request's window (one query, capped:
   * AVAILABILITY_COUNT_CAP).
   */
  private async explainEmpty(input: {
    kind: ItemKind;
    user: UserRow;
    start: RecommendationStart;
    days: number | null;
    threshold: number;
    topK: number;
    excludedTiers: readonly number[];
    unthresholded: { id: number; similarity: number }[];
    /** The start of a window of that many days (null: 不限). */
    windowStart: (days: number | null) => WindowStart;
    /** False when step 2 shows the window and tiers kept none of the nearest out. */
    mayRelieve?: boolean;
    /** The corpus's closest item's similarity before any filter, when step 2 read it. */
    closestSimilarity?: number | undefined;
  }): Promise<EmptyExplanation> {
    const { kind, days, start } = input;
    const limit = Math.max(BEYOND_FILTERS_ROWS, input.topK);
    const search = { model: start.model, vector: start.baseVector, excludedIds: start.excludedIds, limit };
    return explainEmptyResult({
      kind,
      days,
      sourceSetup: () => this.deps.contentSources.setupOf(kind, input.user.researchFields),
      timeZone: this.deps.timeZone,
      now: this.now(),
      threshold: input.threshold,
      topK: input.topK,
      excludedTiers: input.excludedTiers,
      availability: async () => {
        const { total, embedded, inWindow, allowed, cap } = await this.deps.diagnostics.availabilityByWindow(
          kind,
          start.model.id,
          [input.windowStart(days)],
          input.excludedTiers,
        );
        return { total, embedded, inWindow, allowed, cap };
      },
      beyondFilters: async () => {
        const rows =
          kind === 'paper'
            ? (await this.deps.papers.nearestBeyondFilters(search)).map((row) => ({
                similarity: row.similarity,
                date: row.publishedAt,
                tier: row.jcrTier,
              }))
            : (await this.deps.news.nearestBeyondFilters(search)).map((row) => ({ ...row, tier: null }));
        return { rows, complete: rows.length < limit };
      },
      mayRelieve: input.mayRelieve,
      closestSimilarity: input.closestSimilarity,
      windowStart: input.windowStart,
      // The same search without the threshold, ranked by the summary, as the threshold applies to it.
      nearestSimilarities: async () => input.unthresholded.slice(0, input.topK).map((row) => row.similarity),
    });
  }

  /** The freshness line, from its statement's row (sent with step 2). */
  private readFreshness(kind: ItemKind, row: Record<string, unknown> | undefined): Freshness {
    return presentFreshness(this.deps.diagnostics.readFreshness(kind, row, this.weekStart(kind)));
  }

  /** The start of the 一周内 window, what the freshness line's "近 7 天新增" counts by publication date. */
  private weekStart(kind: ItemKind): WindowStart {
    return kind === 'paper' ? this.windowFirstDay(WEEK_DAYS) : this.windowStart(WEEK_DAYS);
  }

  /** The first calendar day, in the readers' zone, of a window of `days` days (papers' dates are days). */
  private windowFirstDay(days: number | null): string | undefined {
    return windowFirstDay(days, this.now(), this.deps.timeZone);
  }

  /**
   * The first instant of a window of `days` days: midnight, in the reader's zone, of its first calendar
   * day. News carries times, so an item is in the window when its calendar day in that zone is, as the
   * relative-time label counts it.
   */
  private windowStart(days: number | null): Date | undefined {
    const firstDay = this.windowFirstDay(days);
    return firstDay === undefined ? undefined : startOfCalendarDay(firstDay, this.deps.timeZone);
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}

/**
 * Keyword alerts' step 5, usable without the rest of the pipeline (the worker has no HTTP-side
 * dependencies): each digest paper's reason, with the keyword that selected it (claimAlertDigests
 * matched it, and none of its negative terms, with matchesKeyword).
 */
export function keywordAlertReasons(
  deps: ReasonDeps,
  claim: Pick<AlertClaim, 'researchSummaryEn' | 'papers'>,
): Promise<Map<number, RecommendationReason>> {
  return buildReasons(deps, {
    reader: { researchSummaryEn: claim.researchSummaryEn, researchFields: [] },
    candidates: claim.papers.map((paper) => ({
      id: paper.id,
      title: paper.title,
      body: paper.abstract,
      baseSimilarity: paper.similarity ?? 0,
      keyword: paper.keyword,
    })),
  });
}

/** What every process builds its pipelines from: the pipeline's parts but the zone, and the profile rule's. */
export type RecommendationPipelineParts = Omit<PipelineDeps, 'profileVector' | 'timeZone'> & {
  profile: Omit<ProfileVectorDeps, 'logger'>;
};

/**
 * The one way server and worker build the ranking pipeline (/papers, /news, the Atom feed, the digest
 * mail, robot pushes, keyword alerts' order): the same parts and the same profile rule (a missing vector
 * is computed on demand; a learned profile found behind is recomputed), per readers' time zone.
 */
export function createRecommendationPipelines(
  parts: RecommendationPipelineParts,
): (timeZone: string) => RecommendationPipeline {
  const { profile, ...deps } = parts;
  const profileVector: PipelineDeps['profileVector'] = (user, activeRow) =>
    profileVectorOf({ ...profile, logger: deps.logger }, user, activeRow);
  return (timeZone) => new RecommendationPipeline({ ...deps, profileVector, timeZone });
}
