import type { AiServices } from '@radar/ai';
import type {
  KeywordRepository,
  LearningRepository,
  PaperRepository,
  PaperView,
  RecommendationDiagnosticsRepository,
  UserRepository,
  UserRow,
} from '@radar/db';
import {
  type PaperRecommendationQuery,
  type PaperRecommendationResponse,
  type SimilarityResponse,
  widestWindowDays,
  windowFirstDay,
} from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from '../../errors';
import { profileVectorOf } from '../../profile-vector';
import type { LearningService } from '../learning/learning.service';
import { presentPaper } from '../papers/paper.presenter';
import type { ContentSources } from './content-sources';
import { explainEmptyResult } from './empty-explanation';
import { presentFreshness } from './freshness';
import { rankingProfileOf, rerankPoolSize } from './ranking-profile';
import { buildReasons } from './recommendation-reasons';

export const UNKNOWN_TIER_NOTE = '未收录分区的期刊论文（多为预印本）不会因分区筛选被排除';

const paperText = (paper: Pick<PaperView, 'title' | 'abstract'>) => `${paper.title}. ${paper.abstract}`;

/** Papers recommended by similarity to the research profile, and similarity of given papers or text. */
export class PaperRecommendationService {
  constructor(
    private readonly deps: {
      ai: AiServices;
      papers: PaperRepository;
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
   * GET /api/auth/recommendations/papers/. Ranked by the learned profile when the reader's signals made
   * one (else the research summary), without the papers they marked 'not interested'; each with the
   * reason it is recommended. A keyword's negative terms (排除词) are not used here: the alert dialog
   * promises they only keep papers out of that keyword's alerts.
   */
  async recommend(user: UserRow, query: PaperRecommendationQuery): Promise<PaperRecommendationResponse> {
    const profile = await rankingProfileOf(this.deps, user);
    const { model } = profile;
    const days = widestWindowDays(query.dateFilter);
    // A paper's publication date is a calendar day (no time): it is in the window when it is on or after
    // the window's first day in the reader's zone, so 一天内 at 01:00 Beijing time is today and yesterday
    // there, whatever day it is in UTC.
    const publishedSince = this.windowFirstDay(days);
    const [dismissed, keywords] = await Promise.all([
      this.deps.learningRepository.dismissedPaperIds(user.id),
      this.deps.keywords.listByUser(user.id),
    ]);
    // The threshold and the shown similarity are about the research summary (spec: similarity to the
    // profile); learning only reorders what passes, within a pool large enough to hold every passing
    // paper in all but the widest windows.
    const reorders = profile.learning.applied;
    const result = await this.deps.papers.recommend({
      model,
      vector: profile.baseVector,
      topK: reorders ? rerankPoolSize(query.topK) : query.topK,
      threshold: query.threshold,
      publishedSince,
      excludedTiers: query.excludedTiers,
      excludedIds: dismissed,
      countTopK: query.topK,
    });
    const poolIds = result.papers.map((paper) => paper.id);
    const learnedScores = profile.learning.applied
      ? await this.deps.papers.similarityScores(poolIds, model, profile.vector)
      : undefined;
    const order = result.papers
      .map((paper) => ({
        id: paper.id,
        similarity: paper.similarity,
        rank: learnedScores?.get(paper.id) ?? paper.similarity,
      }))
      .sort((a, b) => b.rank - a.rank || a.id - b.id)
      .slice(0, query.topK);
    const views = new Map(
      (
        await this.deps.papers.findViews(
          order.map((entry) => entry.id),
          user.id,
        )
      ).map((view) => [view.id, view]),
    );
    const ranked = order.flatMap((entry) => {
      const view = views.get(entry.id);
      return view ? [{ ...entry, view }] : [];
    });

    const closestLiked = profile.learning.applied
      ? await this.deps.learningRepository.closestLiked(
          user.id,
          model.id,
          ranked.map((entry) => entry.id),
        )
      : new Map<number, { title: string; similarity: number }>();
    const reasons = await buildReasons(this.deps, {
      user,
      keywords: keywords.map((keyword) => keyword.name),
      candidates: ranked.map((entry) => ({
        id: entry.id,
        text: paperText(entry.view),
        baseSimilarity: entry.similarity,
        closestLiked: closestLiked.get(entry.id),
      })),
    });
    const recommendations = ranked.map((entry) => ({
      ...presentPaper(entry.view),
      similarity_score: entry.similarity,
      reason: reasons.get(entry.view.id) ?? {
        kind: 'profile' as const,
        text: '与你的研究方向整体相近',
        terms: [],
      },
    }));
    const { byDate, byTier, byThreshold } = result.filteredOut;
    const [freshness, emptyExplanation] = await Promise.all([
      this.deps.diagnostics.freshness('papers'),
      recommendations.length === 0
        ? explainEmptyResult({
            kind: 'papers',
            days,
            sourceSetup: () => this.deps.contentSources.setupOf('papers'),
            threshold: query.threshold,
            excludedTiers: query.excludedTiers,
            availabilityIn: (windowDays) =>
              this.deps.diagnostics.paperAvailability(model.id, this.windowFirstDay(windowDays), query.excludedTiers),
            // One search without the threshold, ranked by the summary, as the threshold applies to it.
            nearestSimilarities: async () =>
              (
                await this.deps.papers.recommend({
                  model,
                  vector: profile.baseVector,
                  topK: query.topK,
                  threshold: -1,
                  publishedSince,
                  excludedTiers: query.excludedTiers,
                  excludedIds: dismissed,
                })
              ).papers.map((paper) => paper.similarity),
          })
        : Promise.resolve(null),
    ]);
    return {
      success: true,
      recommendations,
      recommendations_count: recommendations.length,
      user_id: user.id,
      similarity_threshold: query.threshold,
      top_k: query.topK,
      excluded_jcr: query.excludedTiers,
      date_filter: query.dateFilter,
      published_since: publishedSince ?? null,
      filtered_out_count: byDate + byTier + byThreshold,
      filtered_out: { by_date: byDate, by_tier: byTier, by_threshold: byThreshold },
      unknown_tier_included: true,
      notes: query.excludedTiers.length ? [UNKNOWN_TIER_NOTE] : [],
      learning: profile.learning,
      freshness: presentFreshness(freshness),
      empty_explanation: emptyExplanation,
    };
  }

  /** GET /api/auth/recommendations/similarity/. */
  async similarity(
    user: UserRow,
    query: { ids?: string | undefined; text?: string | undefined },
  ): Promise<SimilarityResponse> {
    const { model, vector } = await profileVectorOf(this.deps, user);
    const base = { success: true as const, user_id: user.id, model_name: model.name };
    if (query.ids?.trim()) {
      const ids = [...new Set(query.ids.split(',').map((id) => Number(id.trim())))];
      const rows = await this.deps.papers.similarityOf(ids, model, vector);
      const found = new Set(rows.map((row) => row.id));
      return {
        ...base,
        results: rows.map((row) => ({ id: String(row.id), title: row.title, similarity_score: row.similarity })),
        not_found: ids.filter((id) => !found.has(id)).map(String),
        text_similarity: null,
      };
    }
    const provider = await this.deps.ai.embeddings.active().catch((error: Error) => {
      this.deps.logger.error({ err: error.message }, 'embedding provider unavailable');
      throw errors.unavailable('相似度服务暂时不可用，请稍后重试');
    });
    let textVector: number[] | undefined;
    try {
      [textVector] = await provider.embed([(query.text ?? '').trim()]);
    } catch (error) {
      this.deps.logger.error({ err: (error as Error).message }, 'text embedding failed');
      throw errors.unavailable('相似度服务暂时不可用，请稍后重试');
    }
    return { ...base, results: [], not_found: [], text_similarity: textVector ? cosine(textVector, vector) : null };
  }

  private windowFirstDay(days: number | null): string | undefined {
    return windowFirstDay(days, this.now(), this.deps.timeZone);
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA && normB ? dot / Math.sqrt(normA * normB) : 0;
}
