import type { AiServices } from '@radar/ai';
import type { PaperRepository, UserRepository, UserRow } from '@radar/db';
import {
  type PaperRecommendationQuery,
  type PaperRecommendationResponse,
  type SimilarityResponse,
  widestWindowDays,
} from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from '../../errors';
import { profileVectorOf } from '../../profile-vector';
import { presentPaper } from '../papers/paper.presenter';

const DAY_MS = 86_400_000;

export const UNKNOWN_TIER_NOTE = '未收录分区的期刊论文（多为预印本）不会因分区筛选被排除';

/** The first day of a window of `days` days ending today (UTC), as YYYY-MM-DD; undefined for 不限. */
export function windowStart(days: number | null, now: Date): string | undefined {
  if (days === null) return undefined;
  return new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);
}

/** Papers recommended by similarity to the research profile, and similarity of given papers or text. */
export class PaperRecommendationService {
  constructor(
    private readonly deps: {
      ai: AiServices;
      papers: PaperRepository;
      users: UserRepository;
      logger: Logger;
      now?: (() => Date) | undefined;
    },
  ) {}

  /** GET /api/auth/recommendations/papers/. */
  async recommend(user: UserRow, query: PaperRecommendationQuery): Promise<PaperRecommendationResponse> {
    const { model, vector } = await profileVectorOf(this.deps, user);
    const publishedSince = windowStart(widestWindowDays(query.dateFilter), this.now());
    const result = await this.deps.papers.recommend({
      model,
      vector,
      topK: query.topK,
      threshold: query.threshold,
      publishedSince,
      excludedTiers: query.excludedTiers,
    });
    const similarity = new Map(result.papers.map((paper) => [paper.id, paper.similarity]));
    const views = await this.deps.papers.findViews(
      result.papers.map((paper) => paper.id),
      user.id,
    );
    const recommendations = views.map((view) => ({
      ...presentPaper(view),
      similarity_score: similarity.get(view.id) ?? 0,
    }));
    const { byDate, byTier, byThreshold } = result.filteredOut;
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
