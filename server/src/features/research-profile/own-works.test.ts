import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createIngestRepositories, sql, UserAdminRepository, UserRepository } from '@radar/db';
import { defaultIngestSettings, importSourceFile } from '@radar/ingest';
import { type OwnWorksServer, RECORDED_ORCID_ID, startOwnWorksServer } from '@radar/ingest/testing/own-works';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, TEST_PASSWORD_HASHING, type TestRuntime } from '../../../test/test-runtime';
import { PasswordHasher } from '../../security/password-hasher';

/**
 * Seeding the profile from one's own works over HTTP, on the real runtime (database, queue, in-process
 * worker, offline research rules), with ORCID and Crossref played by a local server answering recorded
 * real records. Malformed and oversized files are refused with a 4xx and store nothing.
 */

type Headers = Record<string, string>;

const PASSWORD = 'tr0ub4dor-horse';

async function signUp(runtime: TestRuntime, email: string, passwordHash?: string) {
  const user = await new UserRepository(runtime.database.db).create({ email, passwordHash });
  return { user, headers: { authorization: `Bearer ${await runtime.app.signIn(user)}` } as Headers };
}

async function pollTask(runtime: TestRuntime, headers: Headers, taskId: string) {
  for (let i = 0; i < 600; i++) {
    const response = await runtime.app.inject({ method: 'GET', url: `/api/auth/tasks/${taskId}/status/`, headers });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    if (body.status === 'completed' || body.status === 'failed') return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`task ${taskId} did not finish`);
}

const count = async (runtime: TestRuntime, table: string, userId: string) => {
  const result = await runtime.database.db.execute<{ n: number }>(
    sql.raw(`SELECT count(*)::int AS n FROM radar.${table} WHERE user_id = '${userId}'`),
  );
  return Number(result.rows[0]?.n);
};

/** The papers marked as the reader's own works. */
const authoredIds = async (runtime: TestRuntime, userId: string) => {
  const result = await runtime.database.db.execute<{ paper_id: string }>(
    sql`SELECT paper_id FROM radar.user_article_states WHERE user_id = ${userId}::uuid AND authored_at IS NOT NULL`,
  );
  return result.rows.map((row) => Number(row.paper_id));
};

// Two PeerJ works the Crossref stand-in knows (recorded), one without an abstract in the file: Crossref fills it.
const BIBTEX = String.raw`@article{peerj14276,
  title = {First of two works from the recorded {Crossref} page},
  author = {M{\"u}ller, Anna and Zhang, Wei},
  journal = {PeerJ},
  year = {2022},
  doi = {10.7717/peerj.14276}
}
@article{local2024,
  title = {Coral reef fish recovery after marine heatwaves},
  author = {Li, Hua},
  year = {2024},
  url = {https://example.org/papers/coral-reef-recovery},
  abstract = {We track coral reef fish communities after repeated marine heatwaves and model their recovery.}
}`;

const RIS = `TY  - JOUR
TI  - Seagrass meadows store blue carbon in estuaries
AU  - Wang, Fang
PY  - 2023
DO  - 10.5555/seagrass.2023.1
AB  - Seagrass meadows in temperate estuaries bury organic carbon in their sediments.
ER  - 
`;

const CSL_JSON = JSON.stringify([
  {
    type: 'article-journal',
    title: 'Kelp forest decline under ocean warming',
    author: [{ given: 'Min', family: 'Chen' }],
    DOI: '10.5555/kelp.2022.7',
    abstract: 'Kelp forests decline where ocean warming and urchin grazing coincide.',
    issued: { 'date-parts': [[2022, 5]] },
  },
]);

describe('own works seed the profile', () => {
  let runtime: TestRuntime;
  let services: OwnWorksServer;

  beforeAll(async () => {
    services = await startOwnWorksServer();
    runtime = await startTestRuntime({
      env: { ORCID_BASE_URL: services.origin, CROSSREF_BASE_URL: services.origin },
    });
  });
  afterAll(async () => {
    await runtime?.stop();
    await services?.close();
  });

  const upload = (headers: Headers, content: string, fileName = 'library.bib') =>
    runtime.app.inject({
      method: 'POST',
      url: '/api/auth/research-direction/from-library/',
      headers,
      payload: { file_name: fileName, content },
    });

  it('refuses malformed, foreign and oversized files with a Chinese 4xx and stores nothing', async () => {
    const cases: [string, number, RegExp][] = [
      ['@article{broken, title={Unclosed', 400, /BibTeX/],
      ['just some words, not a library file', 400, /无法识别文件格式/],
      ['https://example.org/some-page', 400, /无法识别文件格式/],
      ['10.1234/a-doi-alone', 400, /无法识别文件格式/],
      ['[{"title": 1}, 2]', 400, /CSL-JSON/],
      ['{"not": "closed"', 400, /CSL-JSON/],
      ['[{"type": "book"}]', 400, /没有找到带标题的文献/],
      [`${BIBTEX}\n${' '.repeat(2_000_001)}`, 400, /2 MB/],
    ];
    // A reader per case: each refused upload still counts against the hourly limit (parsing costs CPU).
    for (const [index, [content, status, message]] of cases.entries()) {
      const reader = await signUp(runtime, `malformed-${index}@example.org`);
      const response = await upload(reader.headers, content);
      expect(response.statusCode, content.slice(0, 40)).toBe(status);
      expect(response.json().message).toMatch(message);
      expect(await count(runtime, 'async_tasks', reader.user.id)).toBe(0);
      expect(await count(runtime, 'user_article_states', reader.user.id)).toBe(0);
    }
    const reader = await signUp(runtime, 'huge@example.org');
    const huge = await upload(reader.headers, 'x'.repeat(3 * 1024 * 1024 + 10));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('请求内容过大');
    expect(await count(runtime, 'async_tasks', reader.user.id)).toBe(0);
  });

  it('NUL, lone surrogates and non-characters: the same 400 in every format, escaped in CSL-JSON or not', async () => {
    const refuse = async (content: string, name: string) => {
      const reader = await signUp(runtime, `chars-${name}@example.org`);
      const response = await upload(reader.headers, content);
      expect(response.statusCode, name).toBe(400);
      expect(await count(runtime, 'async_tasks', reader.user.id)).toBe(0);
      return response.json();
    };
    // A NUL in a BibTeX file's text: refused by the request's own rule for text fields.
    const expected = await refuse(`${BIBTEX.replace('Coral reef', 'Coral\u0000reef')}`, 'bibtex-nul');
    expect(expected).toEqual({
      code: 'VALIDATION_ERROR',
      message: '文件内容包含无效字符',
      fields: { content: ['文件内容包含无效字符'] },
      content: ['文件内容包含无效字符'],
    });
    const csl = (title: string) => `[{"type": "article-journal", "title": "${title}", "DOI": "10.5555/kelp.2022.7"}]`;
    const cases: [string, string][] = [
      [csl('Kelp \\u0000 forests'), 'csl-nul'],
      [csl('Kelp \\ud800 forests'), 'csl-lone-surrogate'],
      [csl('Kelp \\uffff forests'), 'csl-nonchar-escaped'],
      [csl('Kelp \uffff forests'), 'csl-nonchar'],
      [RIS.replace('Seagrass', 'Sea\ufffegrass'), 'ris-nonchar'],
      [BIBTEX.replace('Coral reef', 'Coral\ufdd0reef'), 'bibtex-nonchar'],
    ];
    for (const [content, name] of cases) expect(await refuse(content, name), name).toEqual(expected);
  });

  it('a BibTeX file: works stored as liked papers, a missing abstract filled from Crossref, a summary proposed', async () => {
    const reader = await signUp(runtime, 'bibtex@example.org');
    const response = await upload(reader.headers, BIBTEX);
    expect(response.statusCode).toBe(202);
    const task = await pollTask(runtime, reader.headers, response.json().task_id);
    expect(task.status).toBe('completed');
    expect(task.result_data.own_works).toEqual({ source: 'library', found: 2, stored: 2, with_abstract: 2 });
    expect(task.result_data.research_direction_origin).toBe('own-works');
    expect(task.result_data.research_summary_en).not.toBe('');
    expect(task.result_data.name).toBe('');
    expect(services.requests).toContain('/works/10.7717%2Fpeerj.14276');

    const authored = await authoredIds(runtime, reader.user.id);
    expect(authored).toHaveLength(2);
    const papers = await runtime.database.db.execute<{
      doi: string | null;
      abstract: string;
      is_favorited: boolean;
    }>(sql`
      SELECT p.doi, p.abstract, s.is_favorited FROM radar.papers p
      JOIN radar.user_article_states s ON s.paper_id = p.id AND s.user_id = ${reader.user.id}::uuid ORDER BY p.doi`);
    const peerj = papers.rows.find((row) => row.doi === '10.7717/peerj.14276');
    expect(peerj?.abstract.length).toBeGreaterThan(50);
    // Own works are liked for learning, but are not favourites (/library stays the reader's choice).
    expect(papers.rows.every((row) => row.is_favorited === false)).toBe(true);
    const learning = await runtime.app.inject({
      method: 'GET',
      url: '/api/auth/recommendations/learning/',
      headers: reader.headers,
    });
    expect(learning.statusCode).toBe(200);
    expect(learning.json().liked_count).toBe(2);

    // The same file again stores no second copy.
    const again = await pollTask(runtime, reader.headers, (await upload(reader.headers, BIBTEX)).json().task_id);
    expect(again.result_data.own_works.stored).toBe(2);
    expect(await count(runtime, 'user_article_states', reader.user.id)).toBe(2);
  });

  it('RIS and CSL-JSON files seed the profile too', async () => {
    const reader = await signUp(runtime, 'ris@example.org');
    for (const [content, name] of [
      [RIS, 'export.ris'],
      [CSL_JSON, 'zotero.json'],
    ] as const) {
      const response = await upload(reader.headers, content, name);
      expect(response.statusCode, name).toBe(202);
      const task = await pollTask(runtime, reader.headers, response.json().task_id);
      expect(task.status, name).toBe('completed');
      expect(task.result_data.own_works).toMatchObject({ source: 'library', found: 1, stored: 1, with_abstract: 1 });
    }
    expect(await authoredIds(runtime, reader.user.id)).toHaveLength(2);
  });

  it('an ORCID iD: checked before anything is queued, then its public works are fetched and stored', async () => {
    const reader = await signUp(runtime, 'orcid@example.org');
    const submit = (authorId: string) =>
      runtime.app.inject({
        method: 'POST',
        url: '/api/auth/research-direction/from-author-id/',
        headers: reader.headers,
        payload: { author_id: authorId },
      });
    // A typo in the last digit fails ISO 7064 11,2; OpenAlex ids need the key, which this server lacks.
    for (const bad of ['0000-0002-7416-5857', '1234', 'A5023888391']) {
      const response = await submit(bad);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
    expect(await count(runtime, 'async_tasks', reader.user.id)).toBe(0);

    const unknown = await pollTask(runtime, reader.headers, (await submit('0000-0002-1825-0097')).json().task_id);
    expect(unknown.status).toBe('failed');
    expect(unknown.error_message).toContain('ORCID');

    const response = await submit(`https://orcid.org/${RECORDED_ORCID_ID}`);
    expect(response.statusCode).toBe(202);
    const task = await pollTask(runtime, reader.headers, response.json().task_id);
    expect(task.status).toBe('completed');
    expect(task.result_data.own_works).toEqual({ source: 'orcid', found: 1, stored: 1, with_abstract: 0 });
    // No abstract and no LLM: the offline rules find no research sentence, so the draft is made of the titles.
    expect(task.result_data.research_summary_en).toBe(
      'My recent work: Possibility of entanglement of purification to be less than half of the reflected entropy.',
    );
    expect(task.result_data.research_direction_origin).toBe('own-works');
    expect(services.requests).toContain(`/v3.0/${RECORDED_ORCID_ID}/works/154061860`);
    const stored = await runtime.database.db.execute<{ title: string; doi: string; authors: string[] }>(sql`
      SELECT p.title, p.doi, p.authors FROM radar.papers p
      JOIN radar.user_article_states s ON s.paper_id = p.id
      WHERE s.user_id = ${reader.user.id}::uuid AND s.authored_at IS NOT NULL`);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]?.doi).toBe('10.1103/physreva.109.022426');
    expect(stored.rows[0]?.authors[0]).toBe('Josiah Couch');
  });

  it("an upload is its reader's alone until a public source brings it, and never rewrites a public paper", async () => {
    const passwordHash = await new PasswordHasher(1, TEST_PASSWORD_HASHING.params).hash(PASSWORD);
    const a = await signUp(runtime, 'uploader@example.org', passwordHash);
    const b = await signUp(runtime, 'other-reader@example.org');
    // A public source: a Crossref work imported from a file (`pnpm radar ingest`).
    const publicImport = async (work: {
      doi: string;
      title: string;
      family: string;
      url: string;
      abstract: string;
    }) => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-public-'));
      const filePath = path.join(dir, 'crossref-work.json');
      await fs.writeFile(
        filePath,
        JSON.stringify({
          status: 'ok',
          'message-type': 'work',
          message: {
            DOI: work.doi,
            type: 'journal-article',
            title: [work.title],
            author: [{ given: 'Ken', family: work.family, sequence: 'first' }],
            abstract: `<jats:p>${work.abstract}</jats:p>`,
            'container-title': ['Journal of Vents'],
            issued: { 'date-parts': [[2025, 6, 1]] },
            URL: `https://doi.org/${work.doi}`,
            resource: { primary: { URL: work.url } },
          },
        }),
      );
      const ingest = { repositories: createIngestRepositories(runtime.database.db), settings: defaultIngestSettings() };
      await importSourceFile(ingest, { kind: 'crossref', filePath, source: undefined });
      await fs.rm(dir, { recursive: true, force: true });
    };
    await publicImport({
      doi: '10.5555/vents.2025.1',
      title: 'Microbial mats at deep-sea hydrothermal vents',
      family: 'Sato',
      url: 'https://journal.example/vents',
      abstract: 'Microbial mats around hydrothermal vents fix carbon.',
    });
    const publicId = Number(
      (
        await runtime.database.db.execute<{ id: string }>(
          sql`SELECT id FROM radar.papers WHERE doi = '10.5555/vents.2025.1'`,
        )
      ).rows[0]?.id,
    );
    const response = await upload(
      a.headers,
      `@article{phish,
  title = {Claim your free prize hydrothermal giveaway},
  author = {Winner, Lucky},
  year = {2026},
  doi = {10.5555/giveaway.2026.1},
  url = {https://phish.example/claim},
  abstract = {Enter your bank password at the link to claim the prize.}
}
@article{vents,
  title = {Click here for hydrothermal vent prizes},
  author = {Sato, Ken},
  year = {2025},
  doi = {10.5555/vents.2025.1},
  url = {https://phish.example/vents},
  abstract = {Spam in place of the abstract.}
}`,
    );
    const task = await pollTask(runtime, a.headers, response.json().task_id);
    expect(task.result_data.own_works).toMatchObject({ found: 2, stored: 2 });
    const [uploaded] = (
      await runtime.database.db.execute<{ id: string }>(
        sql`SELECT id FROM radar.papers WHERE doi = '10.5555/giveaway.2026.1'`,
      )
    ).rows;
    const id = Number(uploaded?.id);
    // The public paper the file named is the reader's own work now, with its own title and link.
    expect((await authoredIds(runtime, a.user.id)).sort()).toEqual([id, publicId].sort());
    const vents = await runtime.database.db.execute<{ title: string; url: string; abstract: string }>(
      sql`SELECT title, url, abstract FROM radar.papers WHERE id = ${publicId}`,
    );
    expect(vents.rows[0]).toEqual({
      title: 'Microbial mats at deep-sea hydrothermal vents',
      url: 'https://journal.example/vents',
      abstract: 'Microbial mats around hydrothermal vents fix carbon.',
    });

    const search = (headers: Headers, q: string) =>
      runtime.app.inject({ method: 'GET', url: `/articles/search/?q=${encodeURIComponent(q)}`, headers });
    const found = async (headers: Headers, q: string) =>
      ((await search(headers, q)).json().results as { id: string }[]).map((paper) => Number(paper.id));
    expect(await found(b.headers, 'prize')).toEqual([]);
    expect(await found(a.headers, 'prize')).toEqual([id]);
    expect(await found(b.headers, 'hydrothermal')).toEqual([publicId]);

    // Every read or mark of it by id is "not found" for anyone but the uploader.
    const byId = (headers: Headers, method: 'GET' | 'POST', path: string, payload?: Record<string, unknown>) =>
      runtime.app.inject({ method, url: `/articles/${id}/${path}`, headers, ...(payload ? { payload } : {}) });
    const actions = [
      ['POST', 'favorite/', undefined],
      ['POST', 'save/', undefined],
      ['POST', 'share/', undefined],
      ['POST', 'read/', { progress: 50 }],
      ['GET', 'export/?format=bibtex', undefined],
    ] as const;
    for (const [method, path, payload] of actions) {
      const refused = await byId(b.headers, method, path, payload);
      expect(refused.statusCode, path).toBe(404);
      expect(refused.json(), path).toEqual({ code: 'NOT_FOUND', message: '论文不存在' });
      expect((await byId(a.headers, method, path, payload)).statusCode, path).toBe(200);
    }
    const asB = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      runtime.app.inject({ method, url, headers: b.headers, ...(payload ? { payload } : {}) });
    for (const [url, payload] of [
      [`/articles/${id}/rating/`, { value: 1 }],
      [`/articles/${id}/not-interested/`, undefined],
    ] as const) {
      const refused = await asB('POST', url, payload);
      expect(refused.statusCode, url).toBe(404);
      expect(refused.json(), url).toEqual({ code: 'NOT_FOUND', message: '论文不存在' });
    }
    // Following an author of it is refused as for a paper that does not exist.
    const follow = await asB('POST', '/api/auth/followed-authors/', { paper_id: String(id), author_index: 0 });
    expect(follow.statusCode).toBe(400);
    expect(follow.json().message).toBe('这篇论文没有这位作者，请刷新页面后重试');
    await new UserRepository(runtime.database.db).update(b.user.id, {
      researchSummaryEn: 'Hydrothermal vent ecology.',
    });
    const similarity = await asB('GET', `/api/auth/recommendations/similarity/?ids=${id},${publicId}`);
    expect(similarity.statusCode, similarity.body).toBe(200);
    expect(similarity.json().not_found).toEqual([String(id)]);
    expect(await count(runtime, 'user_article_states', b.user.id)).toBe(0);
    // A favourite B made before the paper was private (rows of migration 0026) is not listed or exported.
    await runtime.database.db.execute(
      sql`INSERT INTO radar.user_article_states (user_id, paper_id, is_favorited) VALUES (${b.user.id}::uuid, ${id}, true)`,
    );
    for (const url of ['/articles/library/', '/articles/library/export/?format=csljson']) {
      const listed = await runtime.app.inject({ method: 'GET', url, headers: b.headers });
      expect(listed.statusCode, url).toBe(200);
      expect(listed.body, url).not.toContain('prize');
    }
    expect(
      (await runtime.app.inject({ method: 'GET', url: '/articles/library/', headers: b.headers })).json().count,
    ).toBe(0);
    const exported = await byId(a.headers, 'GET', 'export/?format=bibtex');
    expect(exported.body).toContain('phish.example');

    // A public source brings the same DOI: its record replaces the upload's and everyone sees it.
    await publicImport({
      doi: '10.5555/GIVEAWAY.2026.1',
      title: 'Carbon fixation by vent chemoautotrophs',
      family: 'Winner',
      url: 'https://journal.example/chemoautotrophs',
      abstract: 'Chemoautotrophs at vents fix carbon in the dark.',
    });
    expect(await found(b.headers, 'prize')).toEqual([]);
    expect(await found(a.headers, 'prize')).toEqual([]);
    expect(await found(b.headers, 'chemoautotrophs')).toEqual([id]);
    const shared = await byId(b.headers, 'POST', 'share/');
    expect(shared.statusCode).toBe(200);
    expect(shared.json().url).toBe('https://journal.example/chemoautotrophs');
    expect(await authoredIds(runtime, a.user.id)).toContain(id);

    // The data download names A's private uploads; deleting the account deletes them, and nothing public.
    const other = Number(
      (
        await runtime.database.db.execute<{ id: string }>(sql`
        INSERT INTO radar.papers (title, url, private_to, source)
        VALUES ('A second upload', 'https://example.org/second', ${a.user.id}::uuid, 'own-works') RETURNING id`)
      ).rows[0]?.id,
    );
    await runtime.database.db.execute(
      sql`INSERT INTO radar.user_article_states (user_id, paper_id, authored_at) VALUES (${a.user.id}::uuid, ${other}, now())`,
    );
    const data = (
      await runtime.app.inject({ method: 'GET', url: '/api/auth/user/export/', headers: a.headers })
    ).json();
    expect(
      (data.articleStates as { paper_id: unknown; is_private_upload: boolean; authored_at: string | null }[])
        .filter((state) => state.authored_at)
        .map((state) => [Number(state.paper_id), state.is_private_upload])
        .sort(),
    ).toEqual(
      [
        [id, false],
        [other, true],
        [publicId, false],
      ].sort(),
    );
    expect((await new UserAdminRepository(runtime.database.db).countOwnedRecords(a.user.id)).privatePapers).toBe(1);
    const deleted = await runtime.app.inject({
      method: 'POST',
      url: '/api/auth/user/delete/',
      headers: a.headers,
      payload: { password: PASSWORD },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const left = await runtime.database.db.execute<{ id: string }>(
      sql`SELECT id FROM radar.papers WHERE id IN (${id}, ${publicId}, ${other}) ORDER BY id`,
    );
    expect(left.rows.map((row) => Number(row.id))).toEqual([publicId, id].sort((x, y) => x - y));
  });

  it('limits seedings to 5 an hour per reader', async () => {
    const reader = await signUp(runtime, 'limit@example.org');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await upload(reader.headers, 'not a file')).statusCode);
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses[5]).toBe(429);
  });
});
