import type { AiServices } from '@radar/ai';
import type { EmbeddingModelRow, UserRepository, UserRow } from '@radar/db';
import { type ProfileVectorProblem, profileVectorOf as rankingProfileVector } from '@radar/recommend';
import { RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from './errors';

/** The API's answer to a reader without a profile vector: research_direction_not_set, or 503. */
export function profileVectorError(problem: ProfileVectorProblem): Error {
  if (problem === 'unavailable') return errors.unavailable('推荐服务暂时不可用，请稍后重试');
  return problem === 'pending'
    ? errors.researchProfileNotSet(RESEARCH_DIRECTION_NOT_SET.detailsVectorPending)
    : errors.researchProfileNotSet();
}

/**
 * The user's profile vector of the active embedding model (@radar/recommend's profileVectorOf, the one
 * rule of every channel), with the API's errors: without an English research summary
 * research_direction_not_set; with one but no vector that can be made now, the same error saying the
 * vector is pending.
 */
export function profileVectorOf(
  deps: { ai: AiServices; users: UserRepository; logger: Logger },
  user: UserRow,
  activeRow?: EmbeddingModelRow | undefined,
): Promise<{ model: EmbeddingModelRow; vector: number[] }> {
  return rankingProfileVector(
    { embeddings: deps.ai.embeddings, users: deps.users, logger: deps.logger, error: profileVectorError },
    user,
    activeRow,
  );
}
