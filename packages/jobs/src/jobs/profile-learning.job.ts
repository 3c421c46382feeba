import {
  type AiServices,
  CLASSIFIER_MIN_SIGNALS,
  fitReaderClassifier,
  learnedProfileVector,
  RANDOM_NEGATIVE_WEIGHT,
  RANDOM_NEGATIVES_MIN,
  RANDOM_NEGATIVES_PER_SIGNAL,
  signalsOfSummary,
  signalWeight,
} from '@radar/ai';
import type { LearningRepository, LearningState, UserRepository } from '@radar/db';
import type { ProfileLearningJob } from '@radar/shared';
import type { Logger } from 'pino';
import { defineJob } from '../job-definition';
import type { JobQueue } from '../queue-connection';

export type ProfileLearningOutcome =
  | { outcome: 'learned'; liked: number; dismissed: number; classifier: boolean }
  | { outcome: 'plain'; reason: 'no-signals' | 'no-profile-vector' | 'unknown-user' }
  | { outcome: 'superseded' };

/** A change during the computation is caught by the staleness check; this bounds the catching up. */
const MAX_PASSES = 3;

/**
 * Recomputes one user's learned profile from the current state (idempotent: any number of runs give
 * the same vector): the research summary's vector of the active model, refined toward the papers the
 * reader liked and away from those dismissed (learnedProfileVector, Rocchio); and, with enough signals,
 * the reader's classifier (fitClassifier). With other interests, both learn from the signals nearest
 * the summary only (signalsOfSummary): they order the summary's candidates alone. Without signals, or
 * without a summary vector, both are cleared and the summary alone ranks.
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
    const interests = base ? await learning.otherInterestVectors(userId, model.id) : [];
    const signals = await learning.signals(userId, model.id);
    const ofSummary = (vectors: number[][]) => (base ? signalsOfSummary(base, interests, vectors, (v) => v) : vectors);
    const liked = ofSummary(signals.liked);
    const dismissed = ofSummary(signals.dismissed);
    if (!base || base.length !== model.dimension) {
      outcome = { outcome: 'plain', reason: 'no-profile-vector' };
      if (!(await learning.saveLearned(userId, null, snapshot))) return { outcome: 'superseded' };
      await learning.saveClassifier(userId, null, snapshot);
    } else if (signals.liked.length + signals.dismissed.length === 0) {
      outcome = { outcome: 'plain', reason: 'no-signals' };
      if (!(await learning.saveLearned(userId, null, snapshot))) return { outcome: 'superseded' };
      await learning.saveClassifier(userId, null, snapshot);
    } else {
      const vector = learnedProfileVector(base, liked, dismissed);
      const saved = await learning.saveLearned(userId, { modelId: model.id, vector }, snapshot);
      if (!saved) return { outcome: 'superseded' };
      const classifier = await fitClassifier(learning, userId, model.id, base, interests, state);
      if (!(await learning.saveClassifier(userId, classifier, snapshot))) return { outcome: 'superseded' };
      outcome = {
        outcome: 'learned',
        liked: liked.length,
        dismissed: dismissed.length,
        classifier: classifier !== null,
      };
    }
    // A favourite or dismissal that landed while this pass ran is newer than its stamp: go again.
    const after = await learning.state(userId);
    if (!after?.changedSinceLearned) break;
  }
  return outcome;
}

/**
 * The reader's classifier (issue 23), from CLASSIFIER_MIN_SIGNALS signals (of the summary's, with other
 * interests) on, else null: the research summary and the liked items as positives, the dismissed and 👎 items as negatives, each weighted by its
 * age (signalWeight), and unrated recent papers as weak negatives.
 */
async function fitClassifier(
  learning: LearningRepository,
  userId: string,
  modelId: number,
  base: number[],
  otherInterests: number[][],
  state: LearningState,
): Promise<{ modelId: number; weights: number[]; bias: number; signalCount: number } | null> {
  if (state.likedCount + state.dismissedCount < CLASSIFIER_MIN_SIGNALS) return null;
  const signals = signalsOfSummary(
    base,
    otherInterests,
    await learning.classifierSignals(userId, modelId),
    (signal) => signal.vector,
  );
  if (signals.length < CLASSIFIER_MIN_SIGNALS) return null;
  const negatives = await learning.unratedSample(
    userId,
    modelId,
    Math.max(RANDOM_NEGATIVES_MIN, RANDOM_NEGATIVES_PER_SIGNAL * signals.length),
  );
  const fitted = fitReaderClassifier([
    { vector: base, label: 1, weight: 1 },
    ...signals.map((signal) => ({ vector: signal.vector, label: signal.label, weight: signalWeight(signal.ageDays) })),
    ...negatives.map((vector) => ({ vector, label: 0 as const, weight: RANDOM_NEGATIVE_WEIGHT })),
  ]);
  return fitted ? { modelId, ...fitted, signalCount: signals.length } : null;
}

/** Queue `profile-learning`: learnProfile for the payload's user. */
function createProfileLearningProcessor(deps: {
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

/**
 * Asks the worker to recompute a reader's learned profile: one waiting job per reader (deduplicated by
 * its id), or with a delay (ratings) BullMQ's debounce mode, one delayed job replaced by each new request.
 * Every caller (the server's reads and ratings, the worker's pipeline and own-works import) asks this way.
 */
export function requestProfileRelearn(queue: JobQueue<'profile-learning'>, userId: string, delayMs = 0) {
  const id = `learn-profile:${userId}`;
  return delayMs > 0
    ? queue.add(
        'learn-profile',
        { userId },
        { delay: delayMs, deduplication: { id, ttl: delayMs, extend: true, replace: true } },
      )
    : queue.add('learn-profile', { userId }, { deduplication: { id } });
}

export const profileLearningJob = defineJob({
  queue: 'profile-learning',
  processor: ({ repositories, ai, logger }) =>
    createProfileLearningProcessor({
      learning: repositories.learning,
      users: repositories.users,
      embeddings: ai.embeddings,
      logger,
    }),
});
