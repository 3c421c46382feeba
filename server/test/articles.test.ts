import { type NewPaperRow, PaperRepository, sql, UserRepository } from '@radar/db';
import { articleLibraryResponseSchema, articleSearchResponseSchema } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/**
 * Article search and the per-user article state (favourite, save, share, reading progress) over HTTP,
 * on the real runtime and database, with a small corpus inserted through the repository.
 */

let runtime: TestRuntime;
type Headers = Record<string, string>;
let alice: { id: string; headers: Headers };
let bob: { id: string; headers: Headers };
const ids: Record<string, string> = {};

const paper = (key: string, values: Partial<NewPaperRow> & { title: string }): [string, NewPaperRow] => [
  key,
  { source: 'test', authors: ['Ada Lovelace', 'Alan Turing'], ...values },
];

/** 55 papers on one topic, one a day: more than the default page of 50. */
const OCEAN_PAPERS = 55;

const CORPUS: [string, NewPaperRow][] = [
  paper('gnnTitle', {
    title: 'Graph neural networks for molecular property prediction',
    abstract: 'We predict properties of small molecules from their structure.',
    journalName: 'Journal of Chemical Information and Modeling',
    url: 'https://example.org/gnn-molecules',
    doi: '10.1234/gnn-title',
    publishedAt: '2026-10-01',
  }),
  paper('gnnAbstract', {
    title: 'Molecular dynamics with machine learning',
    abstract: 'Force fields learned by graph neural networks speed up molecular dynamics.',
    journalName: 'Physical Review Letters',
    url: '',
    doi: '10.1234/md-ml',
    publishedAt: '2026-11-01',
  }),
  paper('chinese', {
    title: '基于图神经网络的分子性质预测',
    abstract: '本文提出一种新的分子表示学习方法。',
    journalName: '化学学报',
    url: 'https://example.cn/paper/1',
    publishedAt: '2026-09-01',
  }),
  paper('protein', {
    title: 'Protein folding with transformers',
    abstract: 'Attention models predict protein structure.',
    journalName: 'Nature Structural Biology',
    url: 'https://example.org/protein',
    publishedAt: '2026-08-01',
  }),
  paper('quantumOld', {
    title: 'A survey of quantum error correction',
    abstract: 'Codes that protect qubits.',
    url: 'https://example.org/qec-2025',
    publishedAt: '2025-01-15',
  }),
  paper('quantumNew', {
    title: 'A survey of quantum error correction',
    abstract: 'Codes that protect qubits.',
    url: 'https://example.org/qec-2026',
    publishedAt: '2026-01-15',
  }),
  paper('pdfOnly', {
    title: 'Superconducting magnets for fusion reactors',
    url: '',
    pdfUrl: 'https://example.org/magnets.pdf',
    publishedAt: '2026-02-01',
  }),
  paper('noLink', { title: 'Soil carbon under permafrost thaw', url: '', publishedAt: null }),
  ...Array.from({ length: OCEAN_PAPERS }, (_, index) =>
    paper(`ocean${index}`, {
      title: `Ocean acidification study number ${index + 1}`,
      abstract: 'Measurements of seawater pH along the coast.',
      url: `https://example.org/ocean/${index + 1}`,
      publishedAt: new Date(Date.UTC(2026, 0, 1) + index * 86_400_000).toISOString().slice(0, 10),
    }),
  ),
];

async function signUp(email: string) {
  const user = await new UserRepository(runtime.database.db).create({ email, isEmailVerified: true });
  return { id: user.id, headers: { authorization: `Bearer ${await runtime.app.signIn(user)}` } };
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  const rows = await new PaperRepository(runtime.database.db).insertMany(CORPUS.map(([, row]) => row));
  CORPUS.forEach(([key], index) => {
    ids[key] = String(rows[index]?.id);
  });
  alice = await signUp('alice@example.org');
  bob = await signUp('bob@example.org');
});

afterAll(async () => {
  await runtime?.stop();
});

const search = (query: string, headers: Headers = alice.headers) =>
  runtime.app.inject({ method: 'GET', url: `/articles/search/?${query}`, headers });

/** A successful search, its body checked against the response schema. */
async function searchOk(query: string, headers?: Headers) {
  const response = await search(query, headers);
  expect(response.statusCode, response.body).toBe(200);
  return articleSearchResponseSchema.parse(response.json());
}

const titleKeys = (results: { id: string }[]) =>
  results.map((result) => Object.entries(ids).find(([, id]) => id === result.id)?.[0]);

const post = (url: string, headers: Headers = alice.headers, payload?: object) =>
  runtime.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload }) });

describe('GET /articles/search/', () => {
  it('returns the Paper of the data model with count, next and previous', async () => {
    const body = await searchOk('q=graph');
    expect(body.count).toBe(2);
    expect(body.next).toBeNull();
    expect(body.previous).toBeNull();
    const first = body.results[0];
    expect(first).toMatchObject({
      id: ids.gnnTitle,
      title: 'Graph neural networks for molecular property prediction',
      authors: ['Ada Lovelace', 'Alan Turing'],
      date: '2026-10-01',
      year: 2026,
      journal: 'Journal of Chemical Information and Modeling',
      url: 'https://example.org/gnn-molecules',
      doi: '10.1234/gnn-title',
      is_favorited: false,
      is_saved: false,
    });
    // No page of its own: the DOI link.
    expect(body.results[1]).toMatchObject({ id: ids.gnnAbstract, url: 'https://doi.org/10.1234/md-ml' });
  });

  it('joins keywords with AND, each keyword matched in title, abstract or journal', async () => {
    expect(titleKeys((await searchOk('q=molecular')).results).sort()).toEqual(['gnnAbstract', 'gnnTitle']);
    expect(titleKeys((await searchOk('q=molecular%20dynamics')).results)).toEqual(['gnnAbstract']);
    expect((await searchOk('q=graph%20protein')).count).toBe(0);
    // Only the journal name says "Nature".
    expect(titleKeys((await searchOk('q=nature%20attention')).results)).toEqual(['protein']);
    // English stemming: "networks" finds "network".
    expect((await searchOk('q=network')).count).toBe(2);
    // A stop word adds no condition, and a search of stop words only finds nothing.
    expect((await searchOk('q=the%20graph')).count).toBe(2);
    expect((await searchOk('q=the')).count).toBe(0);
  });

  it('takes a quoted part as one phrase', async () => {
    expect((await searchOk(`q=${encodeURIComponent('neural graph')}`)).count).toBe(2);
    expect((await searchOk(`q=${encodeURIComponent('"neural graph"')}`)).count).toBe(0);
    expect((await searchOk(`q=${encodeURIComponent('"graph neural" molecular')}`)).count).toBe(2);
    expect((await searchOk(`q=${encodeURIComponent('“machine learning”')}`)).count).toBe(1);
  });

  it('finds a Chinese title by a two-character word, and by several words with AND', async () => {
    expect(titleKeys((await searchOk(`q=${encodeURIComponent('神经')}`)).results)).toEqual(['chinese']);
    expect(titleKeys((await searchOk(`q=${encodeURIComponent('分子 蛋白质')}`)).results)).toEqual([]);
    expect(titleKeys((await searchOk(`q=${encodeURIComponent('分子 学报')}`)).results)).toEqual(['chinese']);
    // Characters that are not next to each other are not a word of the title.
    expect((await searchOk(`q=${encodeURIComponent('神网')}`)).count).toBe(0);
    expect((await searchOk(`q=${encodeURIComponent('分子 蛋白')}`)).count).toBe(0);
    // One character matches wherever it stands in the text, the start of a word or its end (as news search).
    expect(titleKeys((await searchOk(`q=${encodeURIComponent('图')}`)).results)).toEqual(['chinese']);
    expect(titleKeys((await searchOk(`q=${encodeURIComponent('测')}`)).results)).toEqual(['chinese']);
    expect(titleKeys((await searchOk(`q=${encodeURIComponent('测 分子')}`)).results)).toEqual(['chinese']);
    // In the abstract, and in the journal name.
    expect(titleKeys((await searchOk(`q=${encodeURIComponent('表示学习')}`)).results)).toEqual(['chinese']);
    expect(titleKeys((await searchOk(`q=${encodeURIComponent('化学')}`)).results)).toEqual(['chinese']);
  });

  it('reaches English papers from a Chinese keyword through its English glosses, keywords still ANDed', async () => {
    // 图神经网络 -> "graph neural network" (stemmed, so "networks" counts): the Chinese title by its
    // bigrams, the English ones by the gloss; the English title match above the abstract match.
    const gnn = titleKeys((await searchOk(`q=${encodeURIComponent('图神经网络')}`)).results);
    expect([...gnn].sort()).toEqual(['chinese', 'gnnAbstract', 'gnnTitle']);
    expect(gnn.indexOf('gnnTitle')).toBeLessThan(gnn.indexOf('gnnAbstract'));
    // 分子 预测 -> molecule, predict: each keyword by itself or its gloss, both required.
    expect(titleKeys((await searchOk(`q=${encodeURIComponent('分子 预测')}`)).results).sort()).toEqual([
      'chinese',
      'gnnTitle',
    ]);
    // Mixed: a Chinese keyword (or its gloss) AND an English one.
    expect(titleKeys((await searchOk(`q=${encodeURIComponent('图神经网络 dynamics')}`)).results)).toEqual([
      'gnnAbstract',
    ]);
    expect(titleKeys((await searchOk(`q=${encodeURIComponent('蛋白质 transformers')}`)).results)).toEqual(['protein']);
    // A Chinese keyword the glossing cannot translate whole behaves as before: its own bigrams only.
    expect((await searchOk(`q=${encodeURIComponent('神网')}`)).count).toBe(0);
    expect((await searchOk(`q=${encodeURIComponent('新冠疫苗')}`)).count).toBe(0);
  });

  it('ranks a title match above an abstract match, and equal matches newest first', async () => {
    // The abstract match is the newer paper: relevance comes first.
    expect(titleKeys((await searchOk('q=graph%20neural')).results)).toEqual(['gnnTitle', 'gnnAbstract']);
    expect(titleKeys((await searchOk('q=quantum%20error')).results)).toEqual(['quantumNew', 'quantumOld']);
  });

  it('pages with a default of 50, and next/previous links that work as they are', async () => {
    const first = await searchOk('q=ocean%20acidification');
    expect(first.count).toBe(OCEAN_PAPERS);
    expect(first.results).toHaveLength(50);
    expect(first.previous).toBeNull();
    expect(first.next).toBe('/articles/search/?q=ocean+acidification&page=2&page_size=50');

    const seen: string[] = [];
    let link: string | null = '/articles/search/?q=ocean%20acidification&page_size=20';
    const pages: { next: string | null; previous: string | null; size: number }[] = [];
    while (link) {
      const response = await runtime.app.inject({ method: 'GET', url: link, headers: alice.headers });
      expect(response.statusCode).toBe(200);
      const body = articleSearchResponseSchema.parse(response.json());
      expect(body.count).toBe(OCEAN_PAPERS);
      seen.push(...body.results.map((result) => result.id));
      pages.push({ next: body.next, previous: body.previous, size: body.results.length });
      link = body.next;
    }
    expect(pages).toEqual([
      { next: '/articles/search/?q=ocean+acidification&page=2&page_size=20', previous: null, size: 20 },
      {
        next: '/articles/search/?q=ocean+acidification&page=3&page_size=20',
        previous: '/articles/search/?q=ocean+acidification&page=1&page_size=20',
        size: 20,
      },
      { next: null, previous: '/articles/search/?q=ocean+acidification&page=2&page_size=20', size: 15 },
    ]);
    // Every paper once, newest first (all match equally).
    expect(new Set(seen).size).toBe(OCEAN_PAPERS);
    const expectedOrder = Array.from({ length: OCEAN_PAPERS }, (_, index) => ids[`ocean${OCEAN_PAPERS - 1 - index}`]);
    expect(seen).toEqual(expectedOrder);
  });

  it('answers a page past the last one with no results, the count, no next and previous on the last page', async () => {
    const beyond = await searchOk('q=ocean%20acidification&page=9&page_size=20');
    expect(beyond).toEqual({
      results: [],
      count: OCEAN_PAPERS,
      next: null,
      previous: '/articles/search/?q=ocean+acidification&page=3&page_size=20',
    });
    expect(await searchOk('q=nothingmatchesthis&page=2')).toEqual({
      results: [],
      count: 0,
      next: null,
      previous: null,
    });
    expect((await searchOk('q=ocean&page=10000&page_size=100')).results).toEqual([]);
  });

  it('refuses bad parameters with a 400 and a Chinese message', async () => {
    const cases: [string, string][] = [
      ['', '请输入搜索关键词'],
      ['q=', '请输入搜索关键词'],
      [`q=${encodeURIComponent(' \u3000 ')}`, '请输入搜索关键词'],
      ['q=%22%22', '请输入搜索关键词'],
      [`q=${'a'.repeat(201)}`, '搜索关键词不能超过 200 个字符'],
      ['q=graph&page_size=0', 'page_size 必须是 1 到 100 之间的整数'],
      ['q=graph&page_size=10000', 'page_size 必须是 1 到 100 之间的整数'],
      ['q=graph&page_size=101', 'page_size 必须是 1 到 100 之间的整数'],
      ['q=graph&page_size=2.5', 'page_size 必须是 1 到 100 之间的整数'],
      ['q=graph&page=0', 'page 必须是 1 到 10000 之间的整数'],
      ['q=graph&page=-1', 'page 必须是 1 到 10000 之间的整数'],
      ['q=graph&page=abc', 'page 必须是 1 到 10000 之间的整数'],
      ['q=graph&page=10001', 'page 必须是 1 到 10000 之间的整数'],
      ['q=graph%00', '搜索关键词包含无效字符'],
    ];
    for (const [query, message] of cases) {
      const response = await search(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ code: 'VALIDATION_ERROR', message });
    }
    // 200 characters are still a search.
    expect((await search(`q=${'a'.repeat(200)}`)).statusCode).toBe(200);
  });

  it('requires a login', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/articles/search/?q=graph' });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('AUTH_REQUIRED');
  });
});

describe('favourite, save, share and read', () => {
  it('toggle favourite and save back and forth, each on its own', async () => {
    const id = ids.protein;
    expect((await post(`/articles/${id}/favorite/`)).json()).toEqual({ success: true, id, is_favorited: true });
    expect((await post(`/articles/${id}/save/`)).json()).toEqual({ success: true, id, is_saved: true });
    expect((await post(`/articles/${id}/favorite/`)).json()).toEqual({ success: true, id, is_favorited: false });
    const [shown] = (await searchOk('q=protein%20folding')).results;
    expect(shown).toMatchObject({ id, is_favorited: false, is_saved: true });
    expect((await post(`/articles/${id}/save/`)).json()).toEqual({ success: true, id, is_saved: false });
    expect((await post(`/articles/${id}/favorite/`)).json()).toEqual({ success: true, id, is_favorited: true });
  });

  it("keeps each user's state apart: Bob does not see Alice's favourite", async () => {
    const id = ids.gnnTitle;
    expect((await post(`/articles/${id}/favorite/`, alice.headers)).json().is_favorited).toBe(true);
    expect((await post(`/articles/${id}/save/`, bob.headers)).json().is_saved).toBe(true);
    const forAlice = (await searchOk('q=graph', alice.headers)).results.find((result) => result.id === id);
    const forBob = (await searchOk('q=graph', bob.headers)).results.find((result) => result.id === id);
    expect(forAlice).toMatchObject({ is_favorited: true, is_saved: false });
    expect(forBob).toMatchObject({ is_favorited: false, is_saved: true });
    // Bob's toggle starts from his own state, not Alice's.
    expect((await post(`/articles/${id}/favorite/`, bob.headers)).json().is_favorited).toBe(true);
  });

  it('toggles safely under concurrent requests: an even number of toggles ends where it began', async () => {
    const id = ids.quantumOld;
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(`/articles/${id}/favorite/`, bob.headers)));
    const states = answers.map((response) => response.json().is_favorited as boolean);
    expect(states.filter(Boolean)).toHaveLength(5);
    const rows = await runtime.database.db.execute<{ is_favorited: boolean }>(
      sql`SELECT is_favorited FROM radar.user_article_states WHERE user_id = ${bob.id} AND paper_id = ${Number(id)}`,
    );
    expect(rows.rows).toEqual([{ is_favorited: false }]);
  });

  it('shares a link that opens the paper and counts the shares', async () => {
    const share = async (key: string) => {
      const response = await post(`/articles/${ids[key]}/share/`);
      expect(response.statusCode).toBe(200);
      return response.json();
    };
    expect(await share('gnnTitle')).toEqual({
      success: true,
      id: ids.gnnTitle,
      url: 'https://example.org/gnn-molecules',
      share_count: 1,
    });
    expect((await share('gnnTitle')).share_count).toBe(2);
    expect((await share('gnnAbstract')).url).toBe('https://doi.org/10.1234/md-ml');
    expect((await share('pdfOnly')).url).toBe('https://example.org/magnets.pdf');
    expect((await share('noLink')).url).toBeNull();
    const rows = await runtime.database.db.execute<{ share_count: number; shared: boolean }>(
      sql`SELECT share_count, last_shared_at IS NOT NULL AS shared FROM radar.user_article_states
          WHERE user_id = ${alice.id} AND paper_id = ${Number(ids.gnnTitle)}`,
    );
    expect(rows.rows).toEqual([{ share_count: 2, shared: true }]);
  });

  it('keeps the furthest reading progress and returns it', async () => {
    const url = `/articles/${ids.chinese}/read/`;
    const read = async (progress: number) => (await post(url, alice.headers, { progress })).json();
    expect(await read(40)).toEqual({ success: true, id: ids.chinese, progress: 40 });
    expect((await read(30)).progress).toBe(40);
    expect((await read(0)).progress).toBe(40);
    expect((await read(99.9)).progress).toBe(99);
    expect((await read(100)).progress).toBe(100);
    expect((await read(50)).progress).toBe(100);
    // Bob's progress is his own.
    expect((await post(url, bob.headers, { progress: 10 })).json().progress).toBe(10);
  });

  it('refuses progress outside 0-100 or not a number', async () => {
    const url = `/articles/${ids.chinese}/read/`;
    for (const payload of [{ progress: 101 }, { progress: -1 }, { progress: '50' }, { progress: null }, {}, []]) {
      const response = await post(url, alice.headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(/阅读进度 progress 必须是 0 到 100 之间的数字|请求内容/),
      });
    }
    const response = await post(url, alice.headers, { progress: 101 });
    expect(response.json().message).toBe('阅读进度 progress 必须是 0 到 100 之间的数字');
  });

  it('answers an unknown or malformed paper id with a JSON 404', async () => {
    for (const id of ['999999999', '0', 'abc', '-1', '1.5', '1e3', '0012', '99999999999999999999']) {
      for (const action of ['favorite', 'save', 'share', 'read']) {
        const response = await post(
          `/articles/${id}/${action}/`,
          alice.headers,
          action === 'read' ? { progress: 10 } : undefined,
        );
        expect(response.statusCode, `${action} ${id}`).toBe(404);
        expect(response.json()).toEqual({ code: 'NOT_FOUND', message: '论文不存在' });
      }
    }
    // Nothing was written for them.
    const rows = await runtime.database.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM radar.user_article_states WHERE paper_id NOT IN (SELECT id FROM radar.papers)`,
    );
    expect(rows.rows[0]?.count).toBe(0);
  });

  it('requires a login', async () => {
    for (const action of ['favorite', 'save', 'share', 'read']) {
      const response = await post(`/articles/${ids.protein}/${action}/`, {}, { progress: 1 });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('AUTH_REQUIRED');
    }
  });
});

describe('GET /articles/library/', () => {
  const library = async (query: string, headers: Headers) => {
    const response = await runtime.app.inject({ method: 'GET', url: `/articles/library/?${query}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return articleLibraryResponseSchema.parse(response.json());
  };

  it("lists the caller's favourited and saved papers, most recently marked first, each list on its own", async () => {
    const carol = await signUp('carol@example.org');
    expect((await library('', carol.headers)).count).toBe(0);
    await post(`/articles/${ids.protein}/favorite/`, carol.headers);
    await post(`/articles/${ids.gnnTitle}/save/`, carol.headers);
    await post(`/articles/${ids.chinese}/favorite/`, carol.headers);
    await post(`/articles/${ids.chinese}/read/`, carol.headers, { progress: 40 });
    const all = await library('', carol.headers);
    expect(titleKeys(all.results)).toEqual(['chinese', 'gnnTitle', 'protein']);
    expect(all.results[0]).toMatchObject({ is_favorited: true, read_progress: 40 });
    expect(titleKeys((await library('list=favorited', carol.headers)).results)).toEqual(['chinese', 'protein']);
    expect(titleKeys((await library('list=saved', carol.headers)).results)).toEqual(['gnnTitle']);
    // Unfavouriting takes a paper off the lists; another user's marks never show.
    await post(`/articles/${ids.protein}/favorite/`, carol.headers);
    expect(titleKeys((await library('list=favorited', carol.headers)).results)).toEqual(['chinese']);
    const paged = await library('page=2&page_size=1', carol.headers);
    expect(paged).toMatchObject({ count: 2, next: null, previous: '/articles/library/?list=all&page=1&page_size=1' });
    const past = await library('page=9&page_size=1', carol.headers);
    expect(past).toMatchObject({ results: [], count: 2, next: null });
  });

  it('refuses a bad list or page size', async () => {
    for (const query of ['list=mine', 'page_size=0', 'page_size=10000']) {
      const response = await runtime.app.inject({
        method: 'GET',
        url: `/articles/library/?${query}`,
        headers: alice.headers,
      });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toMatch(/list|page_size/);
    }
  });
});
