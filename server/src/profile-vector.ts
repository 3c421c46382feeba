import type { AiServices } from '@radar/ai';
import type { EmbeddingModelRow, UserRepository, UserRow } from '@radar/db';
import { RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from './errors';

/**
 * The user's profile vector of the active embedding model, for every recommendation (papers, news,
 * similarity). Without an English research summary: research_direction_not_set. With a summary but no
 * current vector (saved while the provider was down, or the model changed since), it is computed now; if
 * that fails too, the same error says the vector is pending.
 */
export async function profileVectorOf(
  deps: { ai: AiServices; users: UserRepository; logger: Logger },
  user: UserRow,
  /** The active model's row when the caller has read it (checked against the configuration). */
  activeRow?: EmbeddingModelRow | undefined,
): Promise<{ model: EmbeddingModelRow; vector: number[] }> {
  if (!user.researchSummaryEn.trim()) throw errors.researchDirectionNotSet();
  const { ai, logger } = deps;
  let model: EmbeddingModelRow;
  try {
    model = activeRow && ai.embeddings.isCurrent(activeRow) ? activeRow : await ai.embeddings.activeModel();
  } catch (error) {
    logger.error({ err: (error as Error).message }, 'active embedding model unavailable');
    throw errors.unavailable('推荐服务暂时不可用，请稍后重试');
  }
  if (user.profileEmbeddingModelId === model.id && user.profileEmbedding?.length === model.dimension) {
    return { model, vector: user.profileEmbedding };
  }
  try {
    const result = await ai.embeddings.embedProfile(user.id, user.researchSummaryEn);
    if (result.hasVector && result.modelId === model.id) {
      const refreshed = await deps.users.findById(user.id);
      const vector = refreshed?.profileEmbedding;
      if (refreshed?.profileEmbeddingModelId === model.id && vector?.length === model.dimension) {
        return { model, vector };
      }
    }
  } catch (error) {
    logger.warn({ userId: user.id, err: (error as Error).message }, 'profile vector could not be computed');
  }
  throw errors.researchDirectionNotSet(RESEARCH_DIRECTION_NOT_SET.detailsVectorPending);
}
