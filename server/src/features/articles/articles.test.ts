import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ArticleRepository,
  createIngestRepositories,
  type NewPaperRow,
  PaperRepository,
  sql,
  UserRepository,
} from '@radar/db';
import { defaultIngestSettings, importSourceFile } from '@radar/ingest';
import { articleLibraryResponseSchema, articleSearchResponseSchema } from '@radar/shared';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * Article search, the per-user article state (favourite, save, share, reading progress) and the
 * citation exports over HTTP, on the real runtime and database, with a small corpus inserted through the
 * repository (the exports' own, in their describe block at the end, which runs last).
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

/**
 * Exports of one paper and of the library (BibTeX, RIS, CSL-JSON) over HTTP, each read back by a parser
 * that is not the writer (@retorquere/bibtex-parser, the parser of Better BibTeX for Zotero; a RIS
 * reader written here from the RIS tag format; JSON.parse with the CSL fields), and the journal version
 * of a favourited preprint arriving through the real ingest pipeline.
 */

let reader: { id: string; headers: Headers };
let other: { id: string; headers: Headers };
const exportIds: Record<string, string> = {};

const TEX_TITLE = 'Costs & 50% gains: $x_1$ #1 {braces} ~tilde ^hat \\backslash in Zürich';
const MANY_AUTHORS = Array.from({ length: 30 }, (_, index) => `Author${index + 1} Family${index + 1}`);

const EXPORT_CORPUS: [string, NewPaperRow][] = [
  [
    'tex',
    {
      source: 'test',
      title: TEX_TITLE,
      authors: ['王小明', 'Jürgen Müller', 'Jan van der Berg', 'Ørsted, Hans Christian', "Seán O'Brien"],
      abstract: 'A 100% test_case with \\emph{markup}\nover two lines.',
      journalName: 'Nature & Science',
      doi: '10.1000/abc_def',
      url: 'https://example.org/a_b?c=1&d=2',
      publishedAt: '2026-03-05',
    },
  ],
  [
    'chinese',
    {
      source: 'test',
      title: '基于图神经网络的分子性质预测',
      authors: ['李 娜', '欧阳修'],
      abstract: '本文提出一种新的分子表示学习方法。',
      journalName: '化学学报',
      url: 'https://example.cn/paper/1',
      publishedAt: '2026-09-01',
    },
  ],
  [
    'preprint',
    {
      source: 'test',
      title: 'Attention is not all you need for radar echoes',
      authors: MANY_AUTHORS,
      abstract: 'A preprint.',
      journalName: 'arXiv',
      arxivId: '2602.01234',
      url: 'https://arxiv.org/abs/2602.01234v2',
      publishedAt: '2026-02-10',
    },
  ],
];

async function signedIn(email: string) {
  const user = await new UserRepository(runtime.database.db).create({ email, isEmailVerified: true });
  return { id: user.id, headers: { authorization: `Bearer ${await runtime.app.signIn(user)}` } };
}

async function get(url: string, headers: Headers = reader.headers) {
  return runtime.app.inject({ method: 'GET', url, headers });
}

async function mark(id: string | undefined, action: 'favorite' | 'save', headers: Headers = reader.headers) {
  const response = await runtime.app.inject({ method: 'POST', url: `/articles/${id}/${action}/`, headers });
  expect(response.statusCode, response.body).toBe(200);
}

/** A RIS reader of its own (tags "XX  - value", records ending at ER), independent of citation-js. */
function parseRis(text: string): Record<string, string[]>[] {
  const records: Record<string, string[]>[] = [];
  let current: Record<string, string[]> | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const match = /^([A-Z][A-Z0-9]) {2}- ?(.*)$/.exec(line);
    if (!match) throw new Error(`not a RIS line: ${line}`);
    const [, tag = '', value = ''] = match;
    if (tag === 'TY') current = {};
    if (!current) throw new Error(`${tag} before TY`);
    if (tag === 'ER') {
      records.push(current);
      current = undefined;
      continue;
    }
    current[tag] = [...(current[tag] ?? []), value.trim()];
  }
  if (current) throw new Error('record without ER');
  return records;
}

describe('citation export and published preprints', () => {
  beforeAll(async () => {
    const rows = await new PaperRepository(runtime.database.db).insertMany(EXPORT_CORPUS.map(([, row]) => row));
    EXPORT_CORPUS.forEach(([key], index) => {
      exportIds[key] = String(rows[index]?.id);
    });
    reader = await signedIn('exporter@example.org');
    other = await signedIn('other-reader@example.org');
  });

  describe('one paper as a citation file', () => {
    it('BibTeX: TeX specials escaped, accents and Chinese names kept, read back by an independent parser', async () => {
      const response = await get(`/articles/${exportIds.tex}/export/?format=bibtex`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/x-bibtex; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="radar-paper-${exportIds.tex}.bib"`);
      const library = parseBibtex(response.body, { sentenceCase: false, caseProtection: false });
      expect(library.errors).toEqual([]);
      const [entry] = library.entries;
      expect(entry?.type).toBe('article');
      expect(entry?.key).toBe('paper2026costs');
      expect(entry?.fields.title).toBe(TEX_TITLE);
      expect(entry?.fields.journal).toBe('Nature & Science');
      expect(entry?.fields.doi).toBe('10.1000/abc_def');
      expect(entry?.fields.url).toBe('https://example.org/a_b?c=1&d=2');
      expect(entry?.fields.abstract).toBe('A 100% test_case with \\emph{markup} over two lines.');
      expect(entry?.fields.year).toBe('2026');
      expect(entry?.fields.month).toBe('3');
      expect(entry?.fields.author).toEqual([
        { name: '王小明' },
        { lastName: 'Müller', firstName: 'Jürgen' },
        // BibTeX's own name model: "van der" is the von part.
        { prefix: 'van der', lastName: 'Berg', firstName: 'Jan' },
        { lastName: 'Ørsted', firstName: 'Hans Christian' },
        { lastName: "O'Brien", firstName: 'Seán' },
      ]);
    });

    it('RIS and CSL-JSON of a Chinese paper keep its characters and whole names', async () => {
      const ris = await get(`/articles/${exportIds.chinese}/export/?format=ris`);
      expect(ris.statusCode, ris.body).toBe(200);
      expect(ris.headers['content-type']).toBe('application/x-research-info-systems; charset=utf-8');
      expect(ris.headers['content-disposition']).toBe(`attachment; filename="radar-paper-${exportIds.chinese}.ris"`);
      const [record] = parseRis(ris.body);
      expect(record).toMatchObject({
        TY: ['JOUR'],
        TI: ['基于图神经网络的分子性质预测'],
        AU: ['李娜', '欧阳修'],
        T2: ['化学学报'],
        PY: ['2026'],
        UR: ['https://example.cn/paper/1'],
      });

      const csl = await get(`/articles/${exportIds.chinese}/export/?format=csljson`);
      expect(csl.headers['content-type']).toBe('application/vnd.citationstyles.csl+json; charset=utf-8');
      expect(csl.headers['content-disposition']).toBe(`attachment; filename="radar-paper-${exportIds.chinese}.json"`);
      const [item] = JSON.parse(csl.body);
      expect(item).toMatchObject({
        type: 'article-journal',
        title: '基于图神经网络的分子性质预测',
        author: [{ literal: '李娜' }, { literal: '欧阳修' }],
        'container-title': '化学学报',
        issued: { 'date-parts': [[2026, 9, 1]] },
        URL: 'https://example.cn/paper/1',
      });
      expect(Object.keys(item).filter((key) => key.startsWith('_'))).toEqual([]);
    });

    it('a preprint is a CSL article (@misc with its arXiv eprint), all thirty authors kept', async () => {
      const [item] = JSON.parse((await get(`/articles/${exportIds.preprint}/export/?format=csljson`)).body);
      expect(item).toMatchObject({
        type: 'article',
        publisher: 'arXiv',
        number: 'arXiv:2602.01234',
        DOI: '10.48550/arXiv.2602.01234',
      });
      expect(item.author).toHaveLength(30);
      expect(item.author[29]).toEqual({ family: 'Family30', given: 'Author30' });

      const bib = parseBibtex((await get(`/articles/${exportIds.preprint}/export/?format=bibtex`)).body);
      expect(bib.entries[0]?.type).toBe('misc');
      expect(bib.entries[0]?.fields).toMatchObject({ eprint: '2602.01234', archiveprefix: 'arXiv' });
      expect(bib.entries[0]?.fields.author).toHaveLength(30);

      const [record] = parseRis((await get(`/articles/${exportIds.preprint}/export/?format=ris`)).body);
      expect(record?.AU).toHaveLength(30);
      expect(record?.DO).toEqual(['10.48550/arXiv.2602.01234']);
    });

    it('is in the OpenAPI document, guarded, with its formats', async () => {
      const doc = (await get('/api/docs/json')).json();
      for (const path of ['/articles/{id}/export/', '/articles/library/export/']) {
        expect(doc.paths[path]?.get?.security, path).toEqual([{ bearerAuth: [] }]);
        expect(JSON.stringify(doc.paths[path]?.get?.parameters), path).toContain('csljson');
      }
    });

    it('an unknown format is a 400 in Chinese; an unknown or malformed paper id a 404', async () => {
      for (const query of ['?format=docx', '', '?format=BIBTEX']) {
        const response = await get(`/articles/${exportIds.tex}/export/${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().message).toContain('导出格式 format 只能是 bibtex、ris、csljson');
      }
      for (const id of ['999999999', 'abc', '0']) {
        const response = await get(`/articles/${id}/export/?format=bibtex`);
        expect(response.statusCode, id).toBe(404);
        expect(response.json().message).toBe('论文不存在');
      }
      const library = await get('/articles/library/export/?format=endnote');
      expect(library.statusCode).toBe(400);
      const list = await get('/articles/library/export/?format=ris&list=later');
      expect(list.statusCode).toBe(400);
      expect(list.json().message).toContain('list 只能是');
    });
  });

  describe('the library as a citation file', () => {
    it('an empty library is a valid empty file of each format', async () => {
      const bib = await get('/articles/library/export/?format=bibtex&list=favorited', other.headers);
      expect(bib.statusCode, bib.body).toBe(200);
      expect(bib.headers['content-disposition']).toMatch(
        /^attachment; filename="radar-favorites-\d{4}-\d{2}-\d{2}\.bib"$/,
      );
      expect(parseBibtex(bib.body).entries).toEqual([]);
      expect((await get('/articles/library/export/?format=ris', other.headers)).body).toBe('');
      expect(JSON.parse((await get('/articles/library/export/?format=csljson', other.headers)).body)).toEqual([]);
    });

    it('favourites, saved and both: each list exports only its own papers, the reader’s own', async () => {
      await mark(exportIds.tex, 'favorite');
      await mark(exportIds.chinese, 'favorite');
      await mark(exportIds.preprint, 'save');
      await mark(exportIds.tex, 'save', other.headers);

      const favorites = await get('/articles/library/export/?format=bibtex&list=favorited');
      expect(favorites.headers['content-disposition']).toMatch(/filename="radar-favorites-\d{4}-\d{2}-\d{2}\.bib"/);
      const entries = parseBibtex(favorites.body, { sentenceCase: false, caseProtection: false }).entries;
      expect(entries.map((entry) => entry.fields.title).sort()).toEqual(
        [TEX_TITLE, '基于图神经网络的分子性质预测'].sort(),
      );
      expect(new Set(entries.map((entry) => entry.key)).size).toBe(2);

      const saved = await get('/articles/library/export/?format=ris&list=saved');
      expect(saved.headers['content-disposition']).toMatch(/filename="radar-saved-\d{4}-\d{2}-\d{2}\.ris"/);
      expect(parseRis(saved.body).map((record) => record.TI?.[0])).toEqual([
        'Attention is not all you need for radar echoes',
      ]);

      const all = await get('/articles/library/export/?format=csljson');
      expect(all.headers['content-disposition']).toMatch(/filename="radar-library-\d{4}-\d{2}-\d{2}\.json"/);
      expect(JSON.parse(all.body)).toHaveLength(3);
      const others = JSON.parse((await get('/articles/library/export/?format=csljson', other.headers)).body);
      expect(others.map((item: { title: string }) => item.title)).toEqual([TEX_TITLE]);
    });
  });

  const PREPRINT_XML = fileURLToPath(
    new URL('../../../../packages/ingest/test/fixtures/ingest/preprints/arxiv-api-2111.07624.xml', import.meta.url),
  );

  /** The journal version of arXiv 2111.07624 as Crossref answers a work (shape of a recorded answer). */
  const JOURNAL_WORK = {
    status: 'ok',
    'message-type': 'work',
    'message-version': '1.0.0',
    message: {
      publisher: 'Springer Science and Business Media LLC',
      DOI: '10.1007/s41095-022-0271-y',
      type: 'journal-article',
      created: { 'date-parts': [[2022, 3, 15]], 'date-time': '2022-03-15T10:03:11Z', timestamp: 1647338591000 },
      source: 'Crossref',
      author: [
        { given: 'Meng-Hao', family: 'Guo', sequence: 'first', affiliation: [] },
        { given: 'Tian-Xing', family: 'Xu', sequence: 'additional', affiliation: [] },
      ],
      'container-title': ['Computational Visual Media'],
      issued: { 'date-parts': [[2022, 3, 15]] },
      URL: 'https://doi.org/10.1007/s41095-022-0271-y',
      ISSN: ['2096-0433', '2096-0662'],
      published: { 'date-parts': [[2022, 3, 15]] },
      title: ['Attention mechanisms in computer vision: a survey'],
      resource: { primary: { URL: 'https://link.springer.com/article/10.1007/s41095-022-0271-y' } },
    },
  };

  describe('a favourited preprint is published', () => {
    it('the library card and the digest listing say so once the journal version arrives', async () => {
      const ingest = { repositories: createIngestRepositories(runtime.database.db), settings: defaultIngestSettings() };
      await importSourceFile(ingest, { kind: 'arxiv', filePath: PREPRINT_XML, source: undefined });
      const search = await get('/articles/search/?q=attention%20mechanisms%20survey');
      const preprintId = search.json().results[0]?.id as string;
      expect(search.json().results[0]).toMatchObject({ journal: 'arXiv', published_version: null });
      await mark(preprintId, 'favorite');
      const before = new Date(Date.now() - 1000);
      const articles = new ArticleRepository(runtime.database.db);
      expect(await articles.listPublishedPreprints(reader.id, before)).toEqual([]);

      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-published-'));
      const journalFile = path.join(dir, 'crossref-work.json');
      fs.writeFileSync(journalFile, JSON.stringify(JOURNAL_WORK));
      await importSourceFile(ingest, { kind: 'crossref', filePath: journalFile, source: undefined });

      const library = articleLibraryResponseSchema.parse((await get('/articles/library/?list=favorited')).json());
      const card = library.results.find((paper) => paper.id === preprintId);
      expect(card?.published_version).toMatchObject({
        journal: 'Computational Visual Media',
        doi: '10.1007/s41095-022-0271-y',
        url: 'https://doi.org/10.1007/s41095-022-0271-y',
      });
      // Another reader, who never marked the preprint, sees the journal paper and no such notice.
      const theirs = await get('/articles/search/?q=attention%20mechanisms%20survey', other.headers);
      expect(theirs.json().results[0]).toMatchObject({
        journal: 'Computational Visual Media',
        published_version: null,
      });

      const published = await articles.listPublishedPreprints(reader.id, before);
      expect(published.map((paper) => [String(paper.id), paper.journalName])).toEqual([
        [preprintId, 'Computational Visual Media'],
      ]);
      expect(await articles.listPublishedPreprints(reader.id, new Date(Date.now() + 60_000))).toEqual([]);
      expect(await articles.listPublishedPreprints(other.id, before)).toEqual([]);
      // Favourited after the journal version arrived: nothing to tell.
      await mark(preprintId, 'favorite', other.headers);
      expect(await articles.listPublishedPreprints(other.id, before)).toEqual([]);
      fs.rmSync(dir, { recursive: true, force: true });
    });
  });
});
