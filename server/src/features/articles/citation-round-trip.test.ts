import { type NewPaperRow, PaperRepository, UserRepository } from '@radar/db';
import { parseLibraryFileOffThread } from '@radar/ingest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * Every citation export read back by the product's own library import (the parser of 我的论文 uploads):
 * papers stored in the real database, exported over HTTP as BibTeX, RIS and CSL-JSON, and each file
 * parsed by parseLibraryFileOffThread must give back the stored title, authors, abstract, journal, date, DOI,
 * URL, arXiv id and keywords unchanged.
 */

let runtime: TestRuntime;
let headers: Record<string, string>;
const ids: string[] = [];

/** Long enough that any fixed-width wrapping would cut inside English and Chinese words alike. */
const LONG_ABSTRACT = [
  '本研究利用肠道类器官模型系统地探讨了微生物代谢产物对上皮屏障功能的影响，并比较了不同供体来源的类器官对丁酸盐的反应。',
  'We present evidence that short-chain fatty acids strengthen tight junctions in human intestinal organoids, and that this effect depends on the receptor GPR43 and on the hypoxia-inducible factor pathway.',
  '结果表明，屏障功能的增强在炎症性肠病患者来源的类器官中显著减弱（P < 0.01），提示宿主因素调节了代谢产物的保护作用。',
  'Taken together, these findings suggest that organoid models can stratify patients by their expected response to microbiome-targeted therapies.',
].join(' ');

const PAPERS: NewPaperRow[] = [
  {
    source: 'test',
    title: '基于肠道类器官的短链脂肪酸屏障功能研究：来自人源模型的证据与机制分析',
    authors: ['王小明', '欧阳修', 'Jürgen Müller', 'Jan van der Berg', 'Hans Christian Ørsted'],
    abstract: LONG_ABSTRACT,
    journalName: '中华消化杂志',
    doi: '10.3760/cma.j.issn.0254-1432.2026.03.005',
    url: 'https://example.cn/zhxh/2026/03/005',
    publishedAt: '2026-03-05',
    keywords: ['肠道类器官', '短链脂肪酸', 'tight junctions', 'GPR43'],
  },
  {
    source: 'test',
    title: 'Evidence that gut organoids model epithelial barrier repair: a multi-centre study of 412 donors',
    authors: ['Li Na', 'Seán O’Brien', 'María José García', 'Zhang Wei'],
    abstract: `${LONG_ABSTRACT} ${LONG_ABSTRACT}`,
    journalName: 'Gastroenterology',
    doi: '10.1053/j.gastro.2026.01.017',
    url: 'https://example.org/gastro/2026/017',
    publishedAt: '2026-01-17',
    keywords: ['organoids', 'epithelial barrier', '类器官'],
  },
  {
    source: 'test',
    title: '大语言模型辅助的科研文献推荐：一项预印本研究',
    authors: ['陈 静', 'Alan Turing'],
    abstract: LONG_ABSTRACT,
    journalName: 'arXiv',
    arxivId: '2611.04321',
    url: 'https://arxiv.org/abs/2611.04321',
    publishedAt: '2026-11-02',
    keywords: ['推荐系统', 'large language models'],
  },
];

/** What a stored paper should come back as: the fields the library import reads. */
function expected(paper: NewPaperRow) {
  const arxivId = paper.arxivId ?? undefined;
  return {
    title: paper.title,
    // A CJK name is kept whole; the space some sources put in it (陈 静) is not part of the name.
    authors: (paper.authors ?? []).map((name) => (/^\p{Script=Han}/u.test(name) ? name.replace(/ /g, '') : name)),
    abstract: paper.abstract,
    // A preprint without a DOI of its own is exported with arXiv's DOI for it.
    doi: paper.doi ?? (arxivId ? `10.48550/arxiv.${arxivId}` : undefined),
    arxivId,
    url: paper.url,
    publishedAt: paper.publishedAt,
    journal: paper.journalName,
    keywords: paper.keywords,
  };
}

beforeAll(async () => {
  // No in-process worker: nothing here runs a job, and its start is most of a runtime's boot.
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
  const rows = await new PaperRepository(runtime.database.db).insertMany(PAPERS);
  ids.push(...rows.map((row) => String(row.id)));
  const user = await new UserRepository(runtime.database.db).create({
    email: 'round-trip@example.org',
    isEmailVerified: true,
  });
  headers = { authorization: `Bearer ${await runtime.app.signIn(user)}` };
  for (const id of ids) {
    const response = await runtime.app.inject({ method: 'POST', url: `/articles/${id}/favorite/`, headers });
    expect(response.statusCode, response.body).toBe(200);
  }
});

afterAll(async () => {
  await runtime?.stop();
});

async function exportLibrary(format: string): Promise<string> {
  const response = await runtime.app.inject({
    method: 'GET',
    url: `/articles/library/export/?format=${format}&list=favorited`,
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
}

describe.each([
  ['bibtex', 'bibtex'],
  ['ris', 'ris'],
  ['csljson', 'csl-json'],
] as const)('%s export read back by the library import', (format, importedAs) => {
  it('gives back every stored field unchanged', async () => {
    const parsed = await parseLibraryFileOffThread(await exportLibrary(format));
    expect(parsed.format).toBe(importedAs);
    expect(parsed.total).toBe(PAPERS.length);
    const byTitle = new Map(parsed.works.map((work) => [work.title, work]));
    for (const paper of PAPERS) {
      const work = byTitle.get(paper.title);
      expect(work, paper.title).toBeDefined();
      expect(
        {
          title: work?.title,
          authors: work?.authors,
          abstract: work?.abstract,
          doi: work?.doi,
          arxivId: work?.arxivId,
          url: work?.url,
          publishedAt: work?.publishedAt,
          journal: work?.journal?.name,
          keywords: work?.keywords,
        },
        `${format}: ${paper.title}`,
      ).toEqual(expected(paper));
    }
  });
});

describe('RIS lines', () => {
  it('one line per tag, however long the value; values trimmed; no continuation lines', async () => {
    const body = await exportLibrary('ris');
    const lines = body.split('\n').filter(Boolean);
    for (const line of lines) expect(line, line.slice(0, 80)).toMatch(/^[A-Z][A-Z0-9] {2}- (?:\S.*\S|\S)?$/);
    expect(lines.filter((line) => line.startsWith('AB  - ')).sort()).toEqual(
      PAPERS.map((paper) => `AB  - ${paper.abstract}`).sort(),
    );
    expect(lines).toContain('KW  - tight junctions');
    expect(lines).toContain('KW  - 短链脂肪酸');
    expect(body).not.toMatch(/KW {2}- {2}/);
  });

  it('a single paper as RIS is the same one-line-per-tag file', async () => {
    const response = await runtime.app.inject({
      method: 'GET',
      url: `/articles/${ids[0]}/export/?format=ris`,
      headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const titles = response.body.split('\n').filter((line) => line.startsWith('TI  - '));
    expect(titles).toEqual([`TI  - ${PAPERS[0]?.title}`]);
    expect(response.body.endsWith('ER  - \n')).toBe(true);
  });
});
