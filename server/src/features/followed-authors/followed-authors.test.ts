import { type AuthorIdentity, sql, UserRepository, VectorRepository } from '@radar/db';
import {
  calendarDayIn,
  DEFAULT_TIME_ZONE,
  followAuthorResponseSchema,
  paperRecommendationResponseSchema,
} from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * Followed authors over HTTP on the real runtime and database: following from a paper's author list
 * (the server takes the ids and affiliation it stored), listing, unfollowing, bad input, another reader's
 * id, the limit, and the section 关注的作者 of /papers over a corpus where the right answer is known: one
 * person (ORCID, OpenAlex id, Ocean University of China) and namesakes told apart by id and affiliation.
 */

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => calendarDayIn(new Date(Date.now() - days * DAY_MS), DEFAULT_TIME_ZONE);

const ZHONG: AuthorIdentity = {
  name: 'Guoqiang Zhong',
  orcid: '0000-0002-2952-6642',
  openalexId: 'A5046728432',
  affiliation: 'Ocean University of China',
};

interface CorpusPaper {
  title: string;
  authors: string[];
  identities?: AuthorIdentity[];
  age: number;
  fields?: string[];
}

const CORPUS: CorpusPaper[] = [
  // The paper the reader follows him from (OpenAlex: ids and institution).
  {
    title: 'Origin: attention survey',
    authors: ['Guoqiang Zhong', 'Hui Yu'],
    identities: [ZHONG, { name: 'Hui Yu', affiliation: 'University of Portsmouth' }],
    age: 3,
  },
  // arXiv: names only, written with an initial: a name match (possibly a namesake).
  { title: 'Name only: arXiv preprint', authors: ['G. Zhong', 'Wei Zhang'], age: 1 },
  // Crossref: the same name with another ORCID iD is another person.
  {
    title: 'Other ORCID: namesake',
    authors: ['Guoqiang Zhong'],
    identities: [{ name: 'Guoqiang Zhong', orcid: '0000-0001-5109-3700' }],
    age: 2,
  },
  // Same name key, another institution, no ids: another person.
  {
    title: 'Other institution: namesake',
    authors: ['Gang Zhong'],
    identities: [{ name: 'Gang Zhong', affiliation: 'Stanford University, Stanford, CA, USA' }],
    age: 2,
  },
  // Crossref affiliation line naming his institution: name and affiliation.
  {
    title: 'Affiliation: ocean data',
    authors: ['Zhong, Guoqiang'],
    identities: [
      { name: 'Zhong, Guoqiang', affiliation: 'College of Computer Science, Ocean University of China, Qingdao' },
    ],
    age: 4,
  },
  // His, by OpenAlex id, but outside the default window (一周内).
  {
    title: 'Old: by id',
    authors: ['G. Zhong'],
    identities: [{ ...ZHONG, name: 'G. Zhong', orcid: undefined }],
    age: 60,
  },
  // His, by ORCID, but marked 'not interested'.
  { title: 'Dismissed: by ORCID', authors: ['Guoqiang Zhong'], identities: [ZHONG], age: 1 },
  { title: 'Unrelated', authors: ['Ada Lovelace'], age: 1 },
  // A common name, names only: the paper a reader follows "Jing Wang" from (biology, with Li Chen) ...
  { title: 'Wang origin: cell imaging', authors: ['Jing Wang', 'Li Chen'], age: 5, fields: ['biology'] },
  // ... a paper with the same co-author, and one in the same field: shown, with what they share ...
  { title: 'Wang coauthor: Li Chen again', authors: ['J. Wang', 'Li Chen'], age: 1 },
  { title: 'Wang field: biology', authors: ['Jing Wang'], age: 2, fields: ['biology'] },
  // ... and eight namesakes in physics sharing nobody: folded, never listed.
  ...Array.from({ length: 8 }, (_, index) => ({
    title: `Wang namesake ${index + 1}`,
    authors: ['Jing Wang', `Other Author${index + 1}`],
    age: 1,
    fields: ['physics-astronomy'],
  })),
];

let runtime: TestRuntime;
let headers: Record<string, string>;
let otherHeaders: Record<string, string>;
let userId: string;
const ids = new Map<string, number>();

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, as = headers, payload?: unknown) =>
  runtime.app.inject({ method, url, headers: as, ...(payload === undefined ? {} : { payload: payload as object }) });
const idOf = (title: string) => String(ids.get(title));

async function signUp(email: string) {
  const user = await new UserRepository(runtime.database.db).create({ email, researchSummaryEn: 'Attention models.' });
  return { user, headers: { authorization: `Bearer ${await runtime.app.signIn(user)}` } };
}

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
  for (const paper of CORPUS) {
    const result = await runtime.database.db.execute<{ id: string }>(sql`
      INSERT INTO radar.papers (title, authors, author_identities, url, published_at, source, research_fields)
      VALUES (${paper.title}, ${JSON.stringify(paper.authors)}::jsonb,
              ${paper.identities ? JSON.stringify(paper.identities) : null}::jsonb,
              ${`https://example.org/${encodeURIComponent(paper.title)}`}, ${daysAgo(paper.age)}::date, 'test',
              string_to_array(${(paper.fields ?? []).join(',')}, ','))
      RETURNING id::text AS id`);
    ids.set(paper.title, Number(result.rows[0]?.id));
  }
  const reader = await signUp('follower@example.org');
  userId = reader.user.id;
  headers = reader.headers;
  const other = await signUp('other-follower@example.org');
  otherHeaders = other.headers;
  // Recommendations need a profile vector; the section does not depend on it.
  const model = await runtime.parts.ai.embeddings.activeModel();
  const vector = Array.from({ length: model.dimension }, (_, i) => (i === 0 ? 1 : 0));
  for (const id of [userId, other.user.id]) {
    await new VectorRepository(runtime.database.db).setUserVector(id, model.id, vector);
  }
  await runtime.database.db.execute(sql`
    INSERT INTO radar.user_article_states (user_id, paper_id, dismissed_at)
    VALUES (${userId}, ${ids.get('Dismissed: by ORCID') ?? 0}, now())`);
});

afterAll(async () => {
  await runtime?.close();
});

describe('followed authors', () => {
  let followId = '';

  it('normalises names into one key: initials, order, accents and punctuation aside', async () => {
    const result = await runtime.database.db.execute<{ name: string; key: string | null }>(sql`
      SELECT n AS name, radar.author_name_key(n) AS key
      FROM unnest(ARRAY['Jiang-Jiang Liu', 'J. Liu', 'Liu, Jiangjiang', 'Juliana Hipólito', 'Hipolito, J.',
                        '张伟', 'John Smith Jr.', '  ']) AS n`);
    expect(Object.fromEntries(result.rows.map((row) => [row.name, row.key]))).toEqual({
      'Jiang-Jiang Liu': 'liu j',
      'J. Liu': 'liu j',
      'Liu, Jiangjiang': 'liu j',
      'Juliana Hipólito': 'hipolito j',
      'Hipolito, J.': 'hipolito j',
      张伟: '张伟',
      'John Smith Jr.': 'smith j',
      '  ': null,
    });
  });

  it('starts empty, follows an author from a paper with the ids and affiliation stored for them', async () => {
    const empty = await call('GET', '/api/auth/followed-authors/');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ success: true, followed_authors: [], max_followed_authors: 50 });

    const response = await call('POST', '/api/auth/followed-authors/', headers, {
      paper_id: idOf('Origin: attention survey'),
      author_index: 0,
    });
    expect(response.statusCode).toBe(201);
    const body = followAuthorResponseSchema.parse(response.json());
    expect(body.followed).toMatchObject({
      name: 'Guoqiang Zhong',
      orcid: '0000-0002-2952-6642',
      openalex_id: 'A5046728432',
      affiliation: 'Ocean University of China',
      is_name_only: false,
      paper_id: idOf('Origin: attention survey'),
    });
    expect(body.followed_authors).toHaveLength(1);
    followId = body.followed.id;

    // The same person again (from another paper, by ORCID): not a second follow.
    const again = await call('POST', '/api/auth/followed-authors/', headers, {
      paper_id: idOf('Dismissed: by ORCID'),
      author_index: 0,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().followed.id).toBe(followId);
    expect(again.json().followed_authors).toHaveLength(1);
  });

  it('puts his papers in the window first on /papers, telling namesakes apart', async () => {
    const response = await call('GET', '/api/auth/recommendations/papers/');
    expect(response.statusCode).toBe(200);
    const body = paperRecommendationResponseSchema.parse(response.json());
    // Newest first: the origin (by id), then the affiliation match. The arXiv copy matches by name alone
    // and shares neither a field nor a co-author with the origin: folded as a possible namesake.
    expect(body.followed_author_papers?.map((paper) => [paper.title, paper.followed_authors])).toEqual([
      ['Origin: attention survey', [{ id: followId, name: 'Guoqiang Zhong', match: 'id' }]],
      ['Affiliation: ocean data', [{ id: followId, name: 'Zhong, Guoqiang', match: 'affiliation' }]],
    ]);
    expect(body.followed_author_namesakes?.count).toBe(1);
    expect(body.followed_author_namesakes?.papers.map((paper) => [paper.title, paper.followed_authors])).toEqual([
      ['Name only: arXiv preprint', [{ id: followId, name: 'G. Zhong', match: 'name' }]],
    ]);
    // Papers are presented as everywhere else (the caller's state included).
    expect(body.followed_author_papers?.[0]).toMatchObject({ is_favorited: false, journal: '' });

    const wide = await call('GET', '/api/auth/recommendations/papers/?date_filter=不限');
    const titles = paperRecommendationResponseSchema
      .parse(wide.json())
      .followed_author_papers?.map((paper) => paper.title);
    expect(titles).toContain('Old: by id');
    expect(titles).not.toContain('Dismissed: by ORCID');
    expect(titles).not.toContain('Other ORCID: namesake');
    expect(titles).not.toContain('Other institution: namesake');

    // Another reader follows nobody: an empty section.
    const other = await call('GET', '/api/auth/recommendations/papers/', otherHeaders);
    expect(other.statusCode).toBe(200);
    expect(other.json().followed_author_papers).toEqual([]);
  });

  it('a common name followed by name alone: shows the papers sharing a field or a co-author, folds the namesakes', async () => {
    const reader = await signUp('common-name@example.org');
    const model = await runtime.parts.ai.embeddings.activeModel();
    await new VectorRepository(runtime.database.db).setUserVector(
      reader.user.id,
      model.id,
      Array.from({ length: model.dimension }, (_, i) => (i === 0 ? 1 : 0)),
    );
    const followed = await call('POST', '/api/auth/followed-authors/', reader.headers, {
      paper_id: idOf('Wang origin: cell imaging'),
      author_index: 0,
    });
    expect(followed.statusCode).toBe(201);
    const wangId = followed.json().followed.id;
    const response = await call('GET', '/api/auth/recommendations/papers/', reader.headers);
    const body = paperRecommendationResponseSchema.parse(response.json());
    expect(body.followed_author_papers?.map((paper) => [paper.title, paper.followed_authors])).toEqual([
      ['Wang coauthor: Li Chen again', [{ id: wangId, name: 'J. Wang', match: 'name', evidence: 'coauthor' }]],
      ['Wang field: biology', [{ id: wangId, name: 'Jing Wang', match: 'name', evidence: 'field' }]],
      ['Wang origin: cell imaging', [{ id: wangId, name: 'Jing Wang', match: 'name', evidence: 'field' }]],
    ]);
    // The eight namesakes: one count for the folded line, never in the section itself.
    expect(body.followed_author_namesakes?.count).toBe(8);
    expect(body.followed_author_namesakes?.papers).toHaveLength(8);
    expect(body.followed_author_papers?.some((paper) => paper.title.startsWith('Wang namesake'))).toBe(false);
  });

  it('says when a follow is by name alone', async () => {
    const response = await call('POST', '/api/auth/followed-authors/', headers, {
      paper_id: idOf('Name only: arXiv preprint'),
      author_index: 1,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().followed).toMatchObject({
      name: 'Wei Zhang',
      orcid: null,
      openalex_id: null,
      affiliation: null,
      is_name_only: true,
    });
  });

  it('refuses bad input with a Chinese message', async () => {
    const cases: [unknown, string][] = [
      [{ paper_id: idOf('Origin: attention survey'), author_index: -1 }, '作者序号不能小于 0'],
      [{ paper_id: idOf('Origin: attention survey'), author_index: 1.5 }, '作者序号必须是整数'],
      [{ paper_id: 'abc', author_index: 0 }, '论文编号无效'],
      [{ paper_id: idOf('Origin: attention survey'), author_index: 7 }, '这篇论文没有这位作者'],
      [{ paper_id: '999999999', author_index: 0 }, '这篇论文没有这位作者'],
      [{ author_index: 0 }, '请提供论文编号'],
    ];
    for (const [payload, message] of cases) {
      const response = await call('POST', '/api/auth/followed-authors/', headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toContain(message);
    }
  });

  it("answers 404 for another reader's follow or an id that is not one", async () => {
    const foreign = await call('DELETE', `/api/auth/followed-authors/${followId}/`, otherHeaders);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('没有关注这位作者');
    expect((await call('GET', '/api/auth/followed-authors/', otherHeaders)).json().followed_authors).toEqual([]);
    expect((await call('DELETE', '/api/auth/followed-authors/abc/')).statusCode).toBe(404);
    expect((await call('DELETE', '/api/auth/followed-authors/123456789/')).statusCode).toBe(404);
    // Still followed by its owner.
    expect((await call('GET', '/api/auth/followed-authors/')).json().followed_authors).toHaveLength(2);
  });

  it('unfollows, and the section empties', async () => {
    const list = (await call('GET', '/api/auth/followed-authors/')).json().followed_authors as { id: string }[];
    for (const author of list) {
      const response = await call('DELETE', `/api/auth/followed-authors/${author.id}/`);
      expect(response.statusCode).toBe(200);
    }
    expect((await call('GET', '/api/auth/followed-authors/')).json().followed_authors).toEqual([]);
    const papers = await call('GET', '/api/auth/recommendations/papers/');
    expect(papers.json().followed_author_papers).toEqual([]);
  });

  it('stops at 50 authors per reader', async () => {
    // 50 follows of made-up names, written directly: the limit is what is tested.
    await runtime.database.db.execute(sql`
      INSERT INTO radar.followed_authors (user_id, name, name_key)
      SELECT ${userId}::uuid, 'Author ' || i, 'author' || i FROM generate_series(1, 50) AS i`);
    const response = await call('POST', '/api/auth/followed-authors/', headers, {
      paper_id: idOf('Unrelated'),
      author_index: 0,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('最多关注 50 位作者，请先取消关注一位');
    // One already followed is still answered as followed, not refused.
    expect((await call('GET', '/api/auth/followed-authors/')).json().followed_authors).toHaveLength(50);
  });
});
