import type { AiServices } from '@radar/ai';
import {
  type EmbeddingModelRow,
  type LearningRepository,
  MAX_NEAREST_RESULTS,
  type UserRepository,
  type UserRow,
} from '@radar/db';
import type { LearningSummary } from '@radar/shared';
import type { Logger } from 'pino';
import { profileVectorOf } from '../../profile-vector';
import type { LearningService } from '../learning/learning.service';

/**
 * The vectors of a recommendation: the research summary's (threshold, shown similarity, candidates) and
 * the one that orders the candidates (the learned profile when there is one, else the summary's).
 */
export interface RankingProfile {
  model: EmbeddingModelRow;
  /** The research summary's vector: candidates, threshold and the shown similarity are about it. */
  baseVector: number[];
  /** What the candidates are ordered by: the learned profile, or baseVector. */
  vector: number[];
  learning: LearningSummary;
}

/**
 * Candidates reordered by the learned profile: the items nearest to the research summary that pass every
 * filter, at least 200 and five times top_k (at most MAX_NEAREST_RESULTS).
 */
export const rerankPoolSize = (topK: number) => Math.min(MAX_NEAREST_RESULTS, Math.max(200, topK * 5));

export interface RankingProfileDeps {
  ai: AiServices;
  users: UserRepository;
  learningRepository: LearningRepository;
  learning: LearningService;
  logger: Logger;
}

/**
 * The user's ranking profile of the active model. The learned profile is used when it was made from at
 * least one signal since the last reset and with this model; when it is behind the signals (or missing),
 * the worker is asked to recompute it and this request uses what exists (the summary alone at worst).
 */
export async function rankingProfileOf(deps: RankingProfileDeps, user: UserRow): Promise<RankingProfile> {
  const { model, vector: baseVector } = await profileVectorOf(deps, user);
  const state = await deps.learningRepository.state(user.id);
  const signalCount = state ? state.likedCount + state.dismissedCount : 0;
  if (state && deps.learning.isBehind(state, model.id)) await deps.learning.requestRelearn(user.id);
  const learned = signalCount > 0 ? await deps.learningRepository.learnedVector(user.id, model) : null;
  return {
    model,
    baseVector,
    vector: learned ?? baseVector,
    learning: { applied: learned !== null, signal_count: signalCount },
  };
}
