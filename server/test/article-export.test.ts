import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArticleRepository, type NewPaperRow, PaperRepository, UserRepository } from '@radar/db';
import { defaultIngestSettings, importSourceFile } from '@radar/ingest';
import { articleLibraryResponseSchema } from '@radar/shared';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/**
 * Exports of one paper and of the library (BibTeX, RIS, CSL-JSON) over HTTP, each read back by a parser
 * that is not the writer (@retorquere/bibtex-parser, the parser of Better BibTeX for Zotero; a RIS
 * reader written here from the RIS tag format; JSON.parse with the CSL fields), and the journal version
 * of a favourited preprint arriving through the real ingest pipeline.
 */

let runtime: TestRuntime;
type Headers = Record<string, string>;
let reader: { id: string; headers: Headers };
let other: { id: string; headers: Headers };
const ids: Record<string, string> = {};

const TEX_TITLE = 'Costs & 50% gains: $x_1$ #1 {braces} ~tilde ^hat \\backslash in Zürich';
const MANY_AUTHORS = Array.from({ length: 30 }, (_, index) => `Author${index + 1} Family${index + 1}`);

const CORPUS: [string, NewPaperRow][] = [
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

beforeAll(async () => {
  runtime = await startTestRuntime();
  const rows = await new PaperRepository(runtime.database.db).insertMany(CORPUS.map(([, row]) => row));
  CORPUS.forEach(([key], index) => {
    ids[key] = String(rows[index]?.id);
  });
  reader = await signedIn('exporter@example.org');
  other = await signedIn('other-reader@example.org');
});

afterAll(async () => {
  await runtime?.stop();
});

describe('one paper as a citation file', () => {
  it('BibTeX: TeX specials escaped, accents and Chinese names kept, read back by an independent parser', async () => {
    const response = await get(`/articles/${ids.tex}/export/?format=bibtex`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-bibtex; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="radar-paper-${ids.tex}.bib"`);
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
    const ris = await get(`/articles/${ids.chinese}/export/?format=ris`);
    expect(ris.statusCode, ris.body).toBe(200);
    expect(ris.headers['content-type']).toBe('application/x-research-info-systems; charset=utf-8');
    expect(ris.headers['content-disposition']).toBe(`attachment; filename="radar-paper-${ids.chinese}.ris"`);
    const [record] = parseRis(ris.body);
    expect(record).toMatchObject({
      TY: ['JOUR'],
      TI: ['基于图神经网络的分子性质预测'],
      AU: ['李娜', '欧阳修'],
      T2: ['化学学报'],
      PY: ['2026'],
      UR: ['https://example.cn/paper/1'],
    });

    const csl = await get(`/articles/${ids.chinese}/export/?format=csljson`);
    expect(csl.headers['content-type']).toBe('application/vnd.citationstyles.csl+json; charset=utf-8');
    expect(csl.headers['content-disposition']).toBe(`attachment; filename="radar-paper-${ids.chinese}.json"`);
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
    const [item] = JSON.parse((await get(`/articles/${ids.preprint}/export/?format=csljson`)).body);
    expect(item).toMatchObject({
      type: 'article',
      publisher: 'arXiv',
      number: 'arXiv:2602.01234',
      DOI: '10.48550/arXiv.2602.01234',
    });
    expect(item.author).toHaveLength(30);
    expect(item.author[29]).toEqual({ family: 'Family30', given: 'Author30' });

    const bib = parseBibtex((await get(`/articles/${ids.preprint}/export/?format=bibtex`)).body);
    expect(bib.entries[0]?.type).toBe('misc');
    expect(bib.entries[0]?.fields).toMatchObject({ eprint: '2602.01234', archiveprefix: 'arXiv' });
    expect(bib.entries[0]?.fields.author).toHaveLength(30);

    const [record] = parseRis((await get(`/articles/${ids.preprint}/export/?format=ris`)).body);
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
      const response = await get(`/articles/${ids.tex}/export/${query}`);
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
    await mark(ids.tex, 'favorite');
    await mark(ids.chinese, 'favorite');
    await mark(ids.preprint, 'save');
    await mark(ids.tex, 'save', other.headers);

    const favourites = await get('/articles/library/export/?format=bibtex&list=favorited');
    expect(favourites.headers['content-disposition']).toMatch(/filename="radar-favorites-\d{4}-\d{2}-\d{2}\.bib"/);
    const entries = parseBibtex(favourites.body, { sentenceCase: false, caseProtection: false }).entries;
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
  new URL('../../packages/ingest/test/fixtures/ingest/preprints/arxiv-api-2111.07624.xml', import.meta.url),
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
    const ingest = { db: runtime.database.db, settings: defaultIngestSettings() };
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
    expect(theirs.json().results[0]).toMatchObject({ journal: 'Computational Visual Media', published_version: null });

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
