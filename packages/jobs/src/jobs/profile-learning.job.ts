import { type AiServices, learnedProfileVector } from '@radar/ai';
import type { LearningRepository, UserRepository } from '@radar/db';
import type { ProfileLearningJob } from '@radar/shared';
import type { Logger } from 'pino';

export type ProfileLearningOutcome =
  | { outcome: 'learned'; liked: number; dismissed: number }
  | { outcome: 'plain'; reason: 'no-signals' | 'no-profile-vector' | 'unknown-user' }
  | { outcome: 'superseded' };

/** A change during the computation is caught by the staleness check; this bounds the catching up. */
const MAX_PASSES = 3;

/**
 * Recomputes one user's learned profile from the current state (idempotent: any number of runs give
 * the same vector): the research summary's vector of the active model, refined toward the papers the
 * reader liked and away from those dismissed (learnedProfileVector, Rocchio). Without signals, or
 * without a summary vector, the learned profile is cleared and the summary alone ranks.
 */
export async function learnProfile(
  deps: { learning: LearningRepository; users: UserRepository; embeddings: AiServices['embeddings'] },
  userId: string,
): Promise<ProfileLearningOutcome> {
  const { learning, users } = deps;
  let outcome: ProfileLearningOutcome = { outcome: 'superseded' };
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const model = await deps.embeddings.activeModel();
    const state = await learning.state(userId);
    const user = await users.findById(userId);
    if (!state || !user) return { outcome: 'plain', reason: 'unknown-user' };
    const snapshot = { resetMark: state.resetMark, readMark: state.readMark };
    const base = user.profileEmbeddingModelId === model.id ? user.profileEmbedding : null;
    const signals = await learning.signals(userId, model.id);
    const { liked, dismissed } = signals;
    if (!base || base.length !== model.dimension) {
      outcome = { outcome: 'plain', reason: 'no-profile-vector' };
      if (!(await learning.saveLearned(userId, null, snapshot))) return { outcome: 'superseded' };
    } else if (liked.length + dismissed.length === 0) {
      outcome = { outcome: 'plain', reason: 'no-signals' };
      if (!(await learning.saveLearned(userId, null, snapshot))) return { outcome: 'superseded' };
    } else {
      const vector = learnedProfileVector(base, liked, dismissed);
      const saved = await learning.saveLearned(userId, { modelId: model.id, vector }, snapshot);
      if (!saved) return { outcome: 'superseded' };
      outcome = { outcome: 'learned', liked: liked.length, dismissed: dismissed.length };
    }
    // A favourite or dismissal that landed while this pass ran is newer than its stamp: go again.
    const after = await learning.state(userId);
    if (!after?.changedSinceLearned) break;
  }
  return outcome;
}

/** Queue `profile-learning`: learnProfile for the payload's user. */
export function createProfileLearningProcessor(deps: {
  learning: LearningRepository;
  users: UserRepository;
  embeddings: AiServices['embeddings'];
  logger?: Logger | undefined;
}) {
  return async (job: { data: ProfileLearningJob }) => {
    const outcome = await learnProfile(deps, job.data.userId);
    deps.logger?.debug({ userId: job.data.userId, ...outcome }, 'learned profile recomputed');
    return outcome;
  };
}
