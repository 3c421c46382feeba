import type { AiServices } from '@radar/ai';
import type { InterestRepository, InterestRow } from '@radar/db';
import { INTEREST_LIMITS } from '@radar/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { capturingLogger, userRow } from '../../../test/unit-support';
import { InterestService } from './interest.service';

/*
 * The service's rules over an in-memory repository: what the summary may change, which kind of interest
 * takes which input, the shares, and when a vector and a relearn are asked for. The SQL (the limit
 * checked in the INSERT, vectors from favourites) is interests.test.ts's, on both engines.
 */

const ACTIVE_MODEL = 7;
const reader = userRow({ researchSummaryEn: 'graph neural networks for molecules' });

/** The repository's contract as interest.repository.ts states it, kept in memory. */
class InMemoryInterests {
  rows: (InterestRow & { userId: string })[] = [];
  favourites = new Set<number>();
  vectors = new Map<number, { modelId: number; vector: number[] }>();
  private nextId = 1;

  async list(userId: string): Promise<InterestRow[]> {
    return this.rows.filter((row) => row.userId === userId);
  }
  async create(
    userId: string,
    input: Pick<InterestRow, 'name' | 'description' | 'paperIds' | 'quota'> & { kind: 'typed' | 'favourites' },
    maxOthers: number,
  ): Promise<InterestRow | undefined> {
    if (this.rows.filter((row) => row.userId === userId && row.kind !== 'summary').length >= maxOthers)
      return undefined;
    const row = { ...input, id: this.nextId++, userId, embeddingModelId: null, createdAt: new Date() };
    this.rows.push(row);
    return row;
  }
  async find(userId: string, id: number): Promise<InterestRow | undefined> {
    return this.rows.find((row) => row.userId === userId && row.id === id && row.kind !== 'summary');
  }
  async update(
    userId: string,
    id: number,
    patch: Partial<Pick<InterestRow, 'name' | 'description' | 'paperIds' | 'quota'>>,
  ): Promise<InterestRow | undefined> {
    const row = await this.find(userId, id);
    if (!row) return undefined;
    const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    Object.assign(row, defined);
    // A changed description or set of papers drops the vector (the caller embeds it again).
    if (patch.description !== undefined || patch.paperIds !== undefined) row.embeddingModelId = null;
    return row;
  }
  async remove(userId: string, id: number): Promise<boolean> {
    const before = this.rows.length;
    this.rows = this.rows.filter((row) => !(row.userId === userId && row.id === id && row.kind !== 'summary'));
    return this.rows.length < before;
  }
  async setSummaryQuota(userId: string, quota: number, summaryName: string): Promise<void> {
    const summary = this.rows.find((row) => row.userId === userId && row.kind === 'summary');
    if (summary) summary.quota = quota;
    else {
      this.rows.push({
        id: this.nextId++,
        userId,
        kind: 'summary',
        name: summaryName,
        description: '',
        paperIds: [],
        quota,
        embeddingModelId: null,
        createdAt: new Date(),
      });
    }
  }
  async favoritedAmong(_userId: string, paperIds: readonly number[]): Promise<number[]> {
    return paperIds.filter((id) => this.favourites.has(id));
  }
  async setVector(id: number, modelId: number, vector: number[]): Promise<void> {
    this.vectors.set(id, { modelId, vector });
    const row = this.rows.find((candidate) => candidate.id === id);
    if (row) row.embeddingModelId = modelId;
  }
  async refreshFavoriteVectors(model: { id: number }, ids?: readonly number[]): Promise<number> {
    const rows = this.rows.filter((row) => row.kind === 'favourites' && (!ids || ids.includes(row.id)));
    for (const row of rows) row.embeddingModelId = model.id;
    return rows.length;
  }
}

/** The embeddings the service asks for: the active model's id, and a vector per text unless told to fail. */
class FakeEmbeddings {
  failing = false;
  embedded: string[] = [];
  async activeModel() {
    return { id: ACTIVE_MODEL };
  }
  async embedReaderText(text: string) {
    if (this.failing) throw new Error('provider answered 503');
    this.embedded.push(text);
    return { modelId: ACTIVE_MODEL, vector: [0.6, 0.8] };
  }
}

let interests: InMemoryInterests;
let embeddings: FakeEmbeddings;
let relearned: string[];
let log: ReturnType<typeof capturingLogger>;
let service: InterestService;

beforeEach(() => {
  interests = new InMemoryInterests();
  embeddings = new FakeEmbeddings();
  relearned = [];
  log = capturingLogger();
  service = new InterestService({
    // The service calls the methods above only; the real classes hold a database handle.
    interests: interests satisfies Partial<InterestRepository> as unknown as InterestRepository,
    ai: { embeddings } as unknown as Pick<AiServices, 'embeddings'>,
    logger: log.logger,
    requestRelearn: async (userId) => {
      relearned.push(userId);
    },
  });
});

describe('InterestService.list', () => {
  it('puts the research summary first and shares the quotas among the interests that have a vector', async () => {
    await service.create(reader, { name: '蛋白质结构', description: 'protein structure prediction', quota: 3 });
    await service.create(reader, { name: '药物发现', description: 'drug discovery with language models' });
    // One whose vector is of another (older) model waits for the embeddings job: no share meanwhile.
    const stale = await service.create(reader, { name: '旧模型', description: 'kept from an old model' });
    const staleRow = interests.rows.find((row) => row.id === Number(stale.interests[3]?.id));
    if (staleRow) staleRow.embeddingModelId = ACTIVE_MODEL - 1;

    const { interests: listed, max_interests } = await service.list(reader);
    expect(max_interests).toBe(INTEREST_LIMITS.perReader);
    expect(listed.map((interest) => [interest.id, interest.kind, interest.has_vector])).toEqual([
      ['summary', 'summary', true],
      [expect.any(String), 'typed', true],
      [expect.any(String), 'typed', true],
      [expect.any(String), 'typed', false],
    ]);
    const defaultQuota = INTEREST_LIMITS.defaultQuota;
    const total = defaultQuota + 3 + defaultQuota;
    expect(listed.map((interest) => interest.share)).toEqual([
      defaultQuota / total,
      3 / total,
      defaultQuota / total,
      0,
    ]);
    expect(listed[0]?.description).toBe(reader.researchSummaryEn);
  });

  it('gives the summary no vector and no share while the reader has written no research summary', async () => {
    const newcomer = userRow({ id: '00000000-0000-4000-8000-000000000002', researchSummaryEn: '  ' });
    await service.create(newcomer, { name: '蛋白质结构', description: 'protein structure prediction' });
    const { interests: listed } = await service.list(newcomer);
    expect(listed.map((interest) => [interest.kind, interest.has_vector, interest.share])).toEqual([
      ['summary', false, 0],
      ['typed', true, 1],
    ]);
  });

  it('shows every interest as waiting when the embedding provider cannot name its active model', async () => {
    await service.create(reader, { name: '蛋白质结构', description: 'protein structure prediction' });
    embeddings.activeModel = async () => {
      throw new Error('no model yet');
    };
    const { interests: listed } = await service.list(reader);
    expect(listed.map((interest) => interest.has_vector)).toEqual([true, false]);
  });
});

describe('InterestService.create', () => {
  it('embeds a typed interest when it is saved and asks the worker to relearn the reader', async () => {
    await service.create(reader, { name: '蛋白质结构', description: 'protein structure prediction' });
    expect(embeddings.embedded).toEqual(['protein structure prediction']);
    expect([...interests.vectors.values()]).toEqual([{ modelId: ACTIVE_MODEL, vector: [0.6, 0.8] }]);
    expect(relearned).toEqual([reader.id]);
  });

  it('saves the interest as waiting when the provider fails, and logs its id without the text', async () => {
    embeddings.failing = true;
    const { interests: listed } = await service.create(reader, { name: '蛋白质结构', description: 'my secret plan' });
    expect(listed[1]).toMatchObject({ name: '蛋白质结构', has_vector: false, share: 0 });
    const warning = log.lines.find((line) => line.level === 40);
    expect(warning).toMatchObject({
      interestId: 1,
      msg: 'interest saved without a vector; the embeddings job will make it',
    });
    expect(JSON.stringify(log.lines)).not.toContain('my secret plan');
  });

  it('refuses a sixth interest with the Chinese limit message and stores nothing', async () => {
    for (let n = 1; n < INTEREST_LIMITS.perReader; n++) {
      await service.create(reader, { name: `兴趣${n}`, description: `interest number ${n}` });
    }
    await expect(service.create(reader, { name: '再来一个', description: 'one too many' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: `最多保留 ${INTEREST_LIMITS.perReader} 个研究兴趣（含研究概述），请先删除一个`,
    });
    expect(interests.rows).toHaveLength(INTEREST_LIMITS.perReader - 1);
  });

  it('makes an interest from favourites only, each paper counted once', async () => {
    interests.favourites = new Set([11, 12]);
    await expect(service.create(reader, { name: '收藏', paper_ids: ['11', '13'] })).rejects.toMatchObject({
      statusCode: 400,
      message: '只能选择你收藏的论文',
      extra: { fields: { paper_ids: ['只能选择你收藏的论文'] } },
    });
    expect(interests.rows).toEqual([]);

    await service.create(reader, { name: '收藏', paper_ids: ['12', '11', '12'] });
    expect(interests.rows[0]).toMatchObject({ kind: 'favourites', paperIds: [12, 11], embeddingModelId: ACTIVE_MODEL });
    expect(embeddings.embedded).toEqual([]);
  });
});

describe('InterestService.update and remove', () => {
  it('lets the research summary change its quota only', async () => {
    await expect(service.update(reader, 'summary', { name: '改名' })).rejects.toMatchObject({
      statusCode: 400,
      message: '研究概述由 AI 生成，请在“研究方向”中修改；这里只能调整它的配额',
    });
    const { interests: listed } = await service.update(reader, 'summary', { quota: 4 });
    expect(listed[0]).toMatchObject({ id: 'summary', quota: 4 });
    expect(relearned).toEqual([]);
  });

  it('keeps each kind to its own input', async () => {
    interests.favourites = new Set([11]);
    await service.create(reader, { name: '描述', description: 'typed from a description' });
    await service.create(reader, { name: '收藏', paper_ids: ['11'] });
    await expect(service.update(reader, '1', { paper_ids: ['11'] })).rejects.toMatchObject({
      message: '这个兴趣由描述生成，不能改为收藏论文；请新建一个兴趣',
    });
    await expect(service.update(reader, '2', { description: 'now typed' })).rejects.toMatchObject({
      message: '这个兴趣由收藏论文生成，不能改为描述；请新建一个兴趣',
    });
  });

  it('embeds again and relearns only when the description changed, not for a new name, quota or the same text', async () => {
    await service.create(reader, { name: '描述', description: 'protein structure prediction' });
    relearned = [];
    embeddings.embedded = [];
    await service.update(reader, '1', { name: '新名字', quota: 2, description: 'protein structure prediction' });
    expect([embeddings.embedded, relearned]).toEqual([[], []]);
    expect(interests.rows[0]).toMatchObject({ name: '新名字', quota: 2, embeddingModelId: ACTIVE_MODEL });

    await service.update(reader, '1', { description: 'protein design' });
    expect([embeddings.embedded, relearned]).toEqual([['protein design'], [reader.id]]);
  });

  it('answers 404 for an id that is not a number, not the reader’s or the summary’s own row, and never removes the summary', async () => {
    const other = userRow({ id: '00000000-0000-4000-8000-000000000003' });
    await service.create(other, { name: '别人的', description: 'another reader’s interest' });
    await service.update(reader, 'summary', { quota: 2 }); // the summary's row, id 2
    for (const id of ['abc', '0', '01', '1', '2', '99999999999999999']) {
      await expect(service.remove(reader, id), id).rejects.toMatchObject({
        statusCode: 404,
        message: '研究兴趣不存在',
      });
      await expect(service.update(reader, id, { quota: 1 }), id).rejects.toMatchObject({ statusCode: 404 });
    }
    await expect(service.remove(reader, 'summary')).rejects.toMatchObject({
      statusCode: 400,
      message: '研究概述是第一个研究兴趣，不能删除',
    });
    expect(interests.rows).toHaveLength(2);
  });

  it('removes the reader’s interest and asks for a relearn', async () => {
    await service.create(reader, { name: '描述', description: 'protein structure prediction' });
    relearned = [];
    const { interests: listed } = await service.remove(reader, '1');
    expect(listed.map((interest) => interest.id)).toEqual(['summary']);
    expect(relearned).toEqual([reader.id]);
  });
});
