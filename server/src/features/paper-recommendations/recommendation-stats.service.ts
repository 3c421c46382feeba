import type { AiServices } from '@radar/ai';
import type { UserRow } from '@radar/db';
import type { RecommendationStatsResponse } from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from '../../errors';

const STATS_FAILED_MESSAGE = '获取推荐统计失败';

/** The statistics of recommending for a user: their profile vector, the corpus, the active models. */
export class RecommendationStatsService {
  constructor(private readonly deps: { ai: AiServices; logger: Logger }) {}

  /** GET /api/auth/recommendations/stats/. */
  async stats(user: UserRow): Promise<RecommendationStatsResponse> {
    const { ai } = this.deps;
    try {
      const { model, pending } = await ai.embeddings.countPending();
      const available = await ai.embeddings.countRecommendable();
      return {
        current_user: {
          has_vector: user.profileEmbeddingModelId === model.id,
          available_recommendations: available,
          has_research_summary: user.researchSummaryEn.trim() !== '',
          vector_updated_at: user.profileEmbeddedAt?.toISOString() ?? null,
        },
        service_status: {
          model_name: model.name,
          model_version: model.version,
          vector_dimension: model.dimension,
          embedding_provider: model.provider,
          llm_provider: ai.languageModel ? 'llm' : 'offline',
          llm_model: ai.researchExtractor.model,
          vectors_pending_reembed: pending.users + pending.papers + pending.news,
        },
      };
    } catch (error) {
      this.deps.logger.error({ err: (error as Error).message }, 'recommendation stats failed');
      throw errors.unavailable(STATS_FAILED_MESSAGE);
    }
  }
}
