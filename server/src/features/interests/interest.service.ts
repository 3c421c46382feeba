import type { AiServices } from '@radar/ai';
import type { InterestRepository, InterestRow, UserRow } from '@radar/db';
import {
  INTEREST_LIMITS,
  type Interest,
  type InterestCreateRequest,
  type InterestListResponse,
  type InterestUpdateRequest,
  SUMMARY_INTEREST,
} from '@radar/shared';
import type { Logger } from 'pino';
import { errors, parseRowId } from '../../errors';

const NOT_FOUND = '研究兴趣不存在';

/**
 * A reader's research interests (docs/decisions.md "Issue 23: several interests"): the research summary
 * first (its quota only), then up to four they typed or made from favourites. A typed interest is
 * embedded when it is saved; one made from favourites is the mean of those papers' vectors. When that
 * fails (provider down, papers not embedded yet) it is saved without a vector, shown as waiting, and the
 * embeddings job gives it one (EmbeddingModels.reembedInterests).
 */
export class InterestService {
  constructor(
    private readonly deps: {
      interests: InterestRepository;
      ai: Pick<AiServices, 'embeddings'>;
      logger: Logger;
      /**
       * Asks the worker to recompute the reader's learned profile and classifier: each signal teaches
       * the interest it is nearest to, so adding, changing or removing an interest moves signals.
       */
      requestRelearn?: ((userId: string) => Promise<void>) | undefined;
    },
  ) {}

  /** GET /api/auth/interests/. */
  async list(user: UserRow): Promise<InterestListResponse> {
    const rows = await this.deps.interests.list(user.id);
    const activeModelId = await this.deps.ai.embeddings.activeModel().then(
      (model) => model.id,
      () => undefined,
    );
    const summaryRow = rows.find((row) => row.kind === 'summary');
    const hasSummary = user.researchSummaryEn.trim() !== '';
    const interests: Omit<Interest, 'share'>[] = [
      {
        id: SUMMARY_INTEREST.id,
        kind: 'summary',
        name: SUMMARY_INTEREST.name,
        description: user.researchSummaryEn,
        paper_ids: [],
        quota: summaryRow?.quota ?? INTEREST_LIMITS.defaultQuota,
        has_vector: hasSummary,
      },
      ...rows
        .filter((row) => row.kind !== 'summary')
        .map((row) => presentInterest(row, activeModelId !== undefined && row.embeddingModelId === activeModelId)),
    ];
    const inUse = interests.filter((interest) => interest.has_vector);
    const total = inUse.reduce((sum, interest) => sum + interest.quota, 0);
    return {
      success: true,
      interests: interests.map((interest) => ({
        ...interest,
        share: interest.has_vector && total > 0 ? interest.quota / total : 0,
      })),
      max_interests: INTEREST_LIMITS.perReader,
    };
  }

  /** POST /api/auth/interests/: a typed interest or one made from favourites. */
  async create(user: UserRow, body: InterestCreateRequest): Promise<InterestListResponse> {
    const paperIds = body.paper_ids ? [...new Set(body.paper_ids.map(Number))] : [];
    if (body.paper_ids) await this.checkFavorites(user, paperIds);
    const created = await this.deps.interests.create(
      user.id,
      {
        kind: body.paper_ids ? 'favourites' : 'typed',
        name: body.name,
        description: body.description ?? '',
        paperIds,
        quota: body.quota ?? INTEREST_LIMITS.defaultQuota,
      },
      INTEREST_LIMITS.perReader - 1,
    );
    if (!created) {
      throw errors.validation(`最多保留 ${INTEREST_LIMITS.perReader} 个研究兴趣（含研究概述），请先删除一个`, {
        name: [`最多保留 ${INTEREST_LIMITS.perReader} 个研究兴趣`],
      });
    }
    await this.embed(created);
    await this.deps.requestRelearn?.(user.id);
    return this.list(user);
  }

  /** PATCH /api/auth/interests/{id}/: name, description, papers or quota; the summary takes its quota only. */
  async update(user: UserRow, rawId: string, body: InterestUpdateRequest): Promise<InterestListResponse> {
    if (rawId === SUMMARY_INTEREST.id) {
      if (body.name !== undefined || body.description !== undefined || body.paper_ids !== undefined) {
        throw errors.validation('研究概述由 AI 生成，请在“研究方向”中修改；这里只能调整它的配额');
      }
      if (body.quota !== undefined)
        await this.deps.interests.setSummaryQuota(user.id, body.quota, SUMMARY_INTEREST.name);
      return this.list(user);
    }
    const id = this.parseId(rawId);
    const existing = await this.deps.interests.find(user.id, id);
    if (!existing) throw errors.notFound(NOT_FOUND);
    if (existing.kind === 'typed' && body.paper_ids !== undefined)
      throw errors.validation('这个兴趣由描述生成，不能改为收藏论文；请新建一个兴趣');
    if (existing.kind === 'favourites' && body.description !== undefined)
      throw errors.validation('这个兴趣由收藏论文生成，不能改为描述；请新建一个兴趣');
    const paperIds = body.paper_ids ? [...new Set(body.paper_ids.map(Number))] : undefined;
    if (paperIds) await this.checkFavorites(user, paperIds);
    const description =
      body.description !== undefined && body.description !== existing.description ? body.description : undefined;
    const changedPapers =
      paperIds !== undefined && paperIds.join(',') !== existing.paperIds.join(',') ? paperIds : undefined;
    const updated = await this.deps.interests.update(user.id, id, {
      name: body.name,
      description,
      paperIds: changedPapers,
      quota: body.quota,
    });
    if (!updated) throw errors.notFound(NOT_FOUND);
    if (description !== undefined || changedPapers !== undefined) {
      await this.embed(updated);
      await this.deps.requestRelearn?.(user.id);
    }
    return this.list(user);
  }

  /** DELETE /api/auth/interests/{id}/. */
  async remove(user: UserRow, rawId: string): Promise<InterestListResponse> {
    if (rawId === SUMMARY_INTEREST.id) throw errors.validation('研究概述是第一个研究兴趣，不能删除');
    if (!(await this.deps.interests.remove(user.id, this.parseId(rawId)))) throw errors.notFound(NOT_FOUND);
    await this.deps.requestRelearn?.(user.id);
    return this.list(user);
  }

  private parseId(rawId: string): number {
    return parseRowId(rawId, NOT_FOUND);
  }

  private async checkFavorites(user: UserRow, paperIds: number[]): Promise<void> {
    const favorited = await this.deps.interests.favoritedAmong(user.id, paperIds);
    if (favorited.length !== paperIds.length) {
      throw errors.validation('只能选择你收藏的论文', { paper_ids: ['只能选择你收藏的论文'] });
    }
  }

  /** The interest's vector now; a failure leaves it waiting for the embeddings job (logged). */
  private async embed(interest: InterestRow): Promise<void> {
    try {
      if (interest.kind === 'typed') {
        const { modelId, vector } = await this.deps.ai.embeddings.embedReaderText(interest.description);
        await this.deps.interests.setVector(interest.id, modelId, vector);
      } else if (interest.kind === 'favourites') {
        const model = await this.deps.ai.embeddings.activeModel();
        await this.deps.interests.refreshFavoriteVectors(model, [interest.id]);
      }
    } catch (error) {
      this.deps.logger.warn(
        { interestId: interest.id, err: (error as Error).message },
        'interest saved without a vector; the embeddings job will make it',
      );
    }
  }
}

function presentInterest(row: InterestRow, hasVector: boolean): Omit<Interest, 'share'> {
  return {
    id: String(row.id),
    kind: row.kind,
    name: row.name,
    description: row.description,
    paper_ids: row.paperIds.map(String),
    quota: row.quota,
    has_vector: hasVector,
  };
}
