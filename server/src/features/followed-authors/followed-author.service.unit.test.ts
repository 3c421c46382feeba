import type { FollowCreateResult, FollowedAuthorRepository, FollowedAuthorRow, PaperAuthor } from '@radar/db';
import { FOLLOWED_AUTHOR_LIMITS } from '@radar/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { userRow } from '../../../test/unit-support';
import { FollowedAuthorService } from './followed-author.service';

/*
 * What the service decides over an in-memory repository: a follow carries what the paper's source knew
 * of the author and nothing the client typed, the same person twice is one follow, and the refusals and
 * 404s in Chinese. The name keys, the limit checked in the INSERT and the papers found for the follows
 * are followed-authors.test.ts's, on both engines.
 */

const reader = userRow();
const other = userRow({ id: '00000000-0000-4000-8000-000000000002', email: 'other@example.edu' });

/** A lower-cased "family initial" key, standing in for radar.author_name_key; null without letters. */
const nameKey = (name: string) => {
  const words = name.toLowerCase().match(/\p{L}+/gu);
  return words ? `${words.at(-1)} ${words[0]?.[0]}` : null;
};

class InMemoryFollowedAuthors {
  papers = new Map<number, PaperAuthor[]>();
  rows: (FollowedAuthorRow & { userId: string })[] = [];
  private nextId = 1;

  async list(userId: string): Promise<FollowedAuthorRow[]> {
    return this.rows.filter((row) => row.userId === userId);
  }
  async paperAuthor(_readerId: string, paperId: number, index: number): Promise<PaperAuthor | undefined> {
    return this.papers.get(paperId)?.[index];
  }
  async create(
    userId: string,
    input: { name: string; orcid?: string; openalexId?: string; affiliation?: string; paperId: number },
    max: number,
  ): Promise<FollowCreateResult> {
    const key = nameKey(input.name);
    if (!key) return { refused: 'no_name' };
    // The same person: the same ORCID iD, else OpenAlex id, else name key and affiliation.
    const person = (
      row: { orcid?: string | null; openalexId?: string | null; affiliation?: string | null },
      k: string,
    ) =>
      row.orcid
        ? `o:${row.orcid}`
        : row.openalexId
          ? `a:${row.openalexId}`
          : `n:${k}@${(row.affiliation ?? '').toLowerCase()}`;
    const existing = this.rows.find((row) => row.userId === userId && person(row, row.nameKey) === person(input, key));
    if (existing) return { existing };
    if (this.rows.filter((row) => row.userId === userId).length >= max) return { refused: 'limit' };
    const created = {
      id: this.nextId++,
      userId,
      name: input.name,
      nameKey: key,
      orcid: input.orcid ?? null,
      openalexId: input.openalexId ?? null,
      affiliation: input.affiliation ?? null,
      paperId: input.paperId,
      createdAt: new Date('2026-11-29T08:00:00Z'),
    };
    this.rows.push(created);
    return { created };
  }
  async remove(userId: string, id: number): Promise<boolean> {
    const before = this.rows.length;
    this.rows = this.rows.filter((row) => !(row.userId === userId && row.id === id));
    return this.rows.length < before;
  }
}

let repository: InMemoryFollowedAuthors;
let service: FollowedAuthorService;

beforeEach(() => {
  repository = new InMemoryFollowedAuthors();
  repository.papers.set(42, [
    { name: 'Wang Fang', nameKey: 'fang w', orcid: '0000-0002-1825-0097', affiliation: 'Tsinghua University' },
    { name: 'Peter Müller', nameKey: 'müller p' },
    { name: '—', nameKey: null },
  ]);
  repository.papers.set(43, [{ name: 'Fang Wang', nameKey: 'fang w', orcid: '0000-0002-1825-0097' }]);
  // The service calls the methods above only; the real class holds a database handle.
  service = new FollowedAuthorService({
    followedAuthors: repository satisfies Partial<FollowedAuthorRepository> as unknown as FollowedAuthorRepository,
  });
});

describe('FollowedAuthorService.follow', () => {
  it('follows the author at that place of the paper, with what the source knew of them', async () => {
    const { created, body } = await service.follow(reader, { paper_id: '42', author_index: 0 });
    expect(created).toBe(true);
    expect(body.followed).toEqual({
      id: '1',
      name: 'Wang Fang',
      affiliation: 'Tsinghua University',
      orcid: '0000-0002-1825-0097',
      openalex_id: null,
      is_name_only: false,
      paper_id: '42',
      created_at: '2026-11-29T08:00:00.000Z',
    });
    expect(body.followed_authors.map((author) => author.name)).toEqual(['Wang Fang']);
    expect(body.max_followed_authors).toBe(FOLLOWED_AUTHOR_LIMITS.perReader);
  });

  it('says when a follow is by name alone', async () => {
    const { body } = await service.follow(reader, { paper_id: '42', author_index: 1 });
    expect(body.followed).toMatchObject({ name: 'Peter Müller', is_name_only: true });
  });

  it('keeps one follow for the same person met on another paper, and answers with it (created false)', async () => {
    await service.follow(reader, { paper_id: '42', author_index: 0 });
    const again = await service.follow(reader, { paper_id: '43', author_index: 0 });
    expect(again.created).toBe(false);
    expect(again.body.followed).toMatchObject({ id: '1', name: 'Wang Fang', paper_id: '42' });
    expect(repository.rows).toHaveLength(1);
  });

  it('refuses a place the paper has no author at, and a name without letters, in Chinese', async () => {
    await expect(service.follow(reader, { paper_id: '42', author_index: 3 })).rejects.toMatchObject({
      statusCode: 400,
      message: '这篇论文没有这位作者，请刷新页面后重试',
      extra: { fields: { author_index: ['这篇论文没有这位作者'] } },
    });
    await expect(service.follow(reader, { paper_id: '7', author_index: 0 })).rejects.toMatchObject({ statusCode: 400 });
    await expect(service.follow(reader, { paper_id: '42', author_index: 2 })).rejects.toMatchObject({
      statusCode: 400,
      message: '这位作者的姓名无法识别，不能关注',
      extra: { fields: { author_index: ['姓名无法识别'] } },
    });
    expect(repository.rows).toEqual([]);
  });

  it(`stops at ${FOLLOWED_AUTHOR_LIMITS.perReader} authors per reader, counting each reader apart`, async () => {
    const many = Array.from({ length: FOLLOWED_AUTHOR_LIMITS.perReader + 1 }, (_, i) => ({
      name: `Author Number${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
      nameKey: `n${i}`,
      openalexId: `A${i}`,
    }));
    repository.papers.set(50, many);
    for (let i = 0; i < FOLLOWED_AUTHOR_LIMITS.perReader; i++) {
      await service.follow(reader, { paper_id: '50', author_index: i });
    }
    await expect(
      service.follow(reader, { paper_id: '50', author_index: FOLLOWED_AUTHOR_LIMITS.perReader }),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: `最多关注 ${FOLLOWED_AUTHOR_LIMITS.perReader} 位作者，请先取消关注一位`,
    });
    expect((await service.follow(other, { paper_id: '50', author_index: 0 })).created).toBe(true);
  });
});

describe('FollowedAuthorService.unfollow', () => {
  it("answers 404 for an id that is not one and for another reader's follow, then unfollows", async () => {
    await service.follow(other, { paper_id: '42', author_index: 0 });
    await service.follow(reader, { paper_id: '42', author_index: 1 });
    for (const id of ['abc', '0', '01', '1.5', '1', '1234567890123456']) {
      await expect(service.unfollow(reader, id), id).rejects.toMatchObject({
        statusCode: 404,
        message: '没有关注这位作者',
      });
    }
    expect((await service.unfollow(reader, '2')).followed_authors).toEqual([]);
    expect(repository.rows.map((row) => row.userId)).toEqual([other.id]);
  });
});
