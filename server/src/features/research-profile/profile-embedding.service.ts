import type { AiServices } from '@radar/ai';
import type { UserRepository, UserRow } from '@radar/db';
import type { JobQueue } from '@radar/jobs';
import type { VectorUpdateResponse } from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from '../../errors';

const VECTOR_UPDATE_FAILED_MESSAGE = '更新用户向量失败，请稍后重试';

/** The user's profile vector: the embedding of the English research summary with the active model. */
export class ProfileEmbeddingService {
  constructor(
    private readonly deps: {
      ai: AiServices;
      users: UserRepository;
      embeddingsQueue: JobQueue<'embeddings'>;
      logger: Logger;
    },
  ) {}

  /**
   * Recomputes the vector after a profile change. A provider failure does not fail the save: the
   * vector is then computed by a background job (with retries) and this returns false.
   */
  async refreshAfterSave(user: UserRow): Promise<boolean> {
    try {
      return (await this.deps.ai.embeddings.embedProfile(user)).hasVector;
    } catch (error) {
      this.deps.logger.warn(
        { userId: user.id, err: (error as Error).message },
        'profile vector failed; retrying in the background',
      );
      await this.deps.embeddingsQueue
        .add(
          'embed-profile',
          { task: 'embed-profile', userId: user.id },
          { deduplication: { id: `embed-profile:${user.id}` } },
        )
        .catch((queueError: Error) =>
          this.deps.logger.error({ userId: user.id, err: queueError.message }, 'could not queue profile vector'),
        );
      return false;
    }
  }

  /** POST /api/auth/vector/update/. */
  async update(user: UserRow): Promise<VectorUpdateResponse> {
    if (!user.researchSummaryEn.trim()) throw errors.researchProfileNotSet();
    let model: Awaited<ReturnType<AiServices['embeddings']['activeModel']>>;
    try {
      await this.deps.ai.embeddings.embedProfile(user);
      model = await this.deps.ai.embeddings.activeModel();
    } catch (error) {
      this.deps.logger.error({ userId: user.id, err: (error as Error).message }, 'profile vector update failed');
      throw errors.unavailable(VECTOR_UPDATE_FAILED_MESSAGE);
    }
    const updated = await this.deps.users.findById(user.id);
    return {
      success: true,
      message: '用户向量已更新',
      has_vector: updated?.profileEmbeddingModelId === model.id,
      model_name: model.name,
      model_version: model.version,
      vector_dimension: model.dimension,
      updated_at: updated?.profileEmbeddedAt?.toISOString() ?? null,
    };
  }
}
