import type { EmbeddingModels } from '@radar/ai';
import type { EmbeddingModelRow, UserRepository, UserRow } from '@radar/db';
import type { Logger } from 'pino';

/** Why a reader has no profile vector to rank by. */
export type ProfileVectorProblem =
  /** No English research summary. */
  | 'not-set'
  /** A summary, but its vector of the active model could not be made now (provider down, model changed). */
  | 'pending'
  /** The active embedding model cannot be read. */
  | 'unavailable';

export interface ProfileVectorDeps {
  embeddings: Pick<EmbeddingModels, 'activeModel' | 'isCurrent' | 'embedProfile'>;
  users: Pick<UserRepository, 'findById'>;
  logger: Logger;
  /** The error each caller shows for a problem (the server's HTTP errors; a plain Error in the worker). */
  error: (problem: ProfileVectorProblem) => Error;
}

/**
 * The reader's profile vector of the active embedding model, the same way for every channel (/papers,
 * /news, the similarity route, the digest, the Atom feed, robot pushes, keyword alerts' order): the
 * stored one when it is of the active model; else, when there is a summary, it is computed now.
 */
export async function profileVectorOf(
  deps: ProfileVectorDeps,
  user: UserRow,
  /** The active model's row when the caller has read it (checked against the configuration). */
  activeRow?: EmbeddingModelRow | undefined,
): Promise<{ model: EmbeddingModelRow; vector: number[] }> {
  if (!user.researchSummaryEn.trim()) throw deps.error('not-set');
  const { embeddings, logger } = deps;
  let model: EmbeddingModelRow;
  try {
    model = activeRow && embeddings.isCurrent(activeRow) ? activeRow : await embeddings.activeModel();
  } catch (error) {
    logger.error({ err: (error as Error).message }, 'active embedding model unavailable');
    throw deps.error('unavailable');
  }
  if (user.profileEmbeddingModelId === model.id && user.profileEmbedding?.length === model.dimension) {
    return { model, vector: user.profileEmbedding };
  }
  try {
    const result = await embeddings.embedProfile(user);
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
  throw deps.error('pending');
}
