import type { EmbeddingModelRow, LearningRepository, LearningState, UserRow } from '@radar/db';
import { type JobQueue, requestProfileRelearn } from '@radar/jobs';
import { isLearnedProfileBehind, suggestThreshold } from '@radar/recommend';
import type { DismissResponse, LearningStatusResponse, RatingResponse, RatingThresholdResponse } from '@radar/shared';
import type { Logger } from 'pino';
import { errors, parseRowId } from '../../errors';

export type DismissTarget = 'paper' | 'news';

const NOT_FOUND_MESSAGE: Record<DismissTarget, string> = { paper: '论文不存在', news: '新闻不存在' };

/**
 * The reader's signals and the learned profile (docs/decisions.md "Learning"): 'not interested' and its
 * undo, the status shown on /my, the reset, and asking the worker to recompute the learned profile after
 * each change. The ranking that uses it is @radar/recommend's pipeline.
 */
/** How often a read may ask for the same user's recomputation (requestRelearnFromRead). */
const RELEARN_FROM_READ_INTERVAL_MS = 60_000;
/**
 * A rating waits this long before the worker refits (debounced: each rating within it pushes the refit
 * back), so a reader rating a page in a row costs one fit, a few seconds after the last click.
 */
const RATING_REFIT_DELAY_MS = 3_000;

export class LearningService {
  private readonly relearnAskedAt = new Map<string, number>();

  constructor(
    private readonly deps: {
      learning: LearningRepository;
      queue: JobQueue<'profile-learning'>;
      /** The active embedding model's id (undefined when it cannot be read): a learned profile of another model is not in use. */
      activeModelId: () => Promise<number | undefined>;
      /** The research summary's vector of the active model (errors: no summary or vector yet). */
      profileVector: (user: UserRow) => Promise<{ model: EmbeddingModelRow; vector: number[] }>;
      logger: Logger;
    },
  ) {}

  /** POST /articles/{id}/rating/ and /api/news/{id}/rating/: 1 👍, -1 👎, 0 removes the rating. */
  async setRating(user: UserRow, target: DismissTarget, rawId: string, value: 1 | -1 | 0): Promise<RatingResponse> {
    const id = parseRowId(rawId, NOT_FOUND_MESSAGE[target]);
    const rating =
      target === 'paper'
        ? await this.deps.learning.setPaperRating(user.id, id, value)
        : await this.deps.learning.setNewsRating(user.id, id, value);
    if (rating === undefined) throw errors.notFound(NOT_FOUND_MESSAGE[target]);
    await this.requestRelearn(user.id, RATING_REFIT_DELAY_MS);
    return { success: true, id: String(id), rating };
  }

  /** GET /api/auth/recommendations/rating-threshold/: the reader's 👍 and 👎 over similarity, and a suggestion. */
  async ratingThreshold(user: UserRow): Promise<RatingThresholdResponse> {
    // Without a research summary there is no similarity to spread the ratings over: nothing to suggest
    // (the recommendation list says what to do; this optional panel stays quiet).
    if (!user.researchSummaryEn.trim()) return { success: true, ...suggestThreshold([]) };
    const { model, vector } = await this.deps.profileVector(user);
    const rated = await this.deps.learning.ratedSimilarities(user.id, model, vector);
    return { success: true, ...suggestThreshold(rated) };
  }

  /** POST (dismissed) and DELETE (undo) /articles/{id}/not-interested/ and /api/news/{id}/not-interested/. */
  async setDismissed(
    user: UserRow,
    target: DismissTarget,
    rawId: string,
    dismissed: boolean,
  ): Promise<DismissResponse> {
    const id = parseRowId(rawId, NOT_FOUND_MESSAGE[target]);
    const state =
      target === 'paper'
        ? await this.deps.learning.setPaperDismissed(user.id, id, dismissed)
        : await this.deps.learning.setNewsDismissed(user.id, id, dismissed);
    if (state === undefined) throw errors.notFound(NOT_FOUND_MESSAGE[target]);
    await this.requestRelearn(user.id);
    return { success: true, id: String(id), not_interested: state };
  }

  /** GET /api/auth/recommendations/learning/. */
  async status(user: UserRow): Promise<LearningStatusResponse> {
    const state = await this.deps.learning.state(user.id);
    if (!state) throw errors.notFound('用户不存在');
    const activeModelId = await this.deps.activeModelId();
    if (activeModelId !== undefined && isLearnedProfileBehind(state, activeModelId)) await this.requestRelearn(user.id);
    return presentStatus(state, activeModelId);
  }

  /** POST /api/auth/recommendations/learning/reset/: back to the research summary alone. */
  async reset(user: UserRow): Promise<LearningStatusResponse> {
    await this.deps.learning.reset(user.id);
    return this.status(user);
  }

  /**
   * Queues a recomputation (one waiting job per user: BullMQ drops a duplicate while one is waiting or
   * running; the job re-reads the signals when it ends, and the next recommendation re-asks if it is still
   * behind). A queue failure is logged, never the request's failure: the signal itself is stored.
   */
  /**
   * From a read (a recommendation whose first query found the profile behind): requestRelearn(), at
   * most once a minute per user and process. The queue keeps one waiting job per user anyway; this
   * spares a queue round trip on every request while a worker is catching up.
   */
  async requestRelearnFromRead(userId: string, now = Date.now()): Promise<void> {
    const last = this.relearnAskedAt.get(userId);
    if (last !== undefined && now - last < RELEARN_FROM_READ_INTERVAL_MS) return;
    if (this.relearnAskedAt.size >= 10_000) this.relearnAskedAt.clear();
    this.relearnAskedAt.set(userId, now);
    await this.requestRelearn(userId);
  }

  async requestRelearn(userId: string, delayMs = 0): Promise<void> {
    await requestProfileRelearn(this.deps.queue, userId, delayMs).catch((error: Error) =>
      this.deps.logger.error({ userId, err: error.message }, 'could not queue the learned profile'),
    );
  }
}

/** `applied`: a learned profile of the active model made from at least one signal since the reset. */
function presentStatus(state: LearningState, activeModelId: number | undefined): LearningStatusResponse {
  const applied =
    state.learnedModelId !== null &&
    state.learnedModelId === activeModelId &&
    state.likedCount + state.dismissedCount > 0;
  return {
    success: true,
    signal_count: state.likedCount + state.dismissedCount,
    liked_count: state.likedCount,
    dismissed_count: state.dismissedCount,
    applied,
    updated_at: applied ? (state.learnedAt?.toISOString() ?? null) : null,
    reset_at: state.resetAt?.toISOString() ?? null,
  };
}
