import { sql, UserRepository, VectorRepository } from '@radar/db';
import { type AppQueue, createQueue, createQueueConnection } from '@radar/jobs';
import { waitForJobState } from '@radar/jobs/testing';
import { type ReceivedMail, SmtpSink } from '@radar/mail/testing';
import {
  API_PATHS,
  keywordListResponseSchema,
  keywordResponseSchema,
  keywordSuggestionsResponseSchema,
  QUEUE_NAMES,
} from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * Keywords over HTTP on the real runtime: list, add, remove and update with their rules and messages,
 * suggestions from a small corpus with known vectors, and the unsubscribe link of a real alert mail
 * (sent by the in-process worker's keyword-alert job to an SMTP server started here).
 */

let runtime: TestRuntime;
let sink: SmtpSink;
let dimension: number;
let modelId: number;

type Headers = Record<string, string>;

async function signUp(email: string, values: { summary?: string; vectorAxis?: number } = {}) {
  const user = await new UserRepository(runtime.database.db).create({
    email,
    isEmailVerified: true,
    passwordHash: 'argon2id-hash',
    researchSummaryEn: values.summary ?? '',
  });
  if (values.vectorAxis !== undefined) {
    await new VectorRepository(runtime.database.db).setUserVector(user.id, modelId, axis(values.vectorAxis));
  }
  return { user, headers: { authorization: `Bearer ${await runtime.app.signIn(user)}` } };
}

const axis = (index: number) => Array.from({ length: dimension }, (_, i) => (i === index ? 1 : 0));

async function addPaper(title: string, options: { keywords?: string[]; vectorAxis?: number } = {}) {
  const keywords = options.keywords ?? [];
  // As a source would give it: the keywords also occur in the abstract.
  const abstract = keywords.length ? `We study ${keywords.join(', ')}.` : '';
  const result = await runtime.database.db.execute<{ id: string }>(sql`
    INSERT INTO radar.papers (title, abstract, keywords, url, source)
    VALUES (${title}, ${abstract}, ${`{${keywords.map((k) => `"${k}"`).join(',')}}`}::text[],
            'https://papers.example.org/x', 'test')
    RETURNING id::text AS id`);
  const id = String(result.rows[0]?.id);
  if (options.vectorAxis !== undefined) {
    await new VectorRepository(runtime.database.db).setVectors('papers', modelId, [
      { id, vector: axis(options.vectorAxis) },
    ]);
  }
  return id;
}

const add = (headers: Headers, payload: unknown) =>
  runtime.app.inject({ method: 'POST', url: '/user-keywords/add/', headers, payload: payload as object });
const list = async (headers: Headers) => {
  const response = await runtime.app.inject({ method: 'GET', url: '/user-keywords/', headers });
  expect(response.statusCode).toBe(200);
  return keywordListResponseSchema.parse(response.json());
};
const update = (headers: Headers, id: string, payload: unknown) =>
  runtime.app.inject({ method: 'PATCH', url: `/user-keywords/${id}/update/`, headers, payload: payload as object });
const remove = (headers: Headers, id: string) =>
  runtime.app.inject({ method: 'POST', url: `/user-keywords/${id}/remove/`, headers });
const suggestions = async (headers: Headers) => {
  const response = await runtime.app.inject({ method: 'GET', url: '/user-rkeywords/', headers });
  expect(response.statusCode).toBe(200);
  return keywordSuggestionsResponseSchema.parse(response.json()).keywords;
};

beforeAll(async () => {
  sink = await new SmtpSink().start();
  runtime = await startTestRuntime({ env: { SMTP_URL: sink.url } });
  // Vectors of the active model, so the in-process worker does not re-embed them.
  const model = await runtime.parts.ai.embeddings.activeModel();
  dimension = model.dimension;
  modelId = model.id;
  // The worker's start-up embedding maintenance must be over before papers are inserted: a run that
  // found a paper between its insert and its constructed vector would overwrite that vector (seen once
  // in paper-recommendations.test.ts, which needs no worker and now runs without one).
  const embeddings = createQueue<unknown>(
    createQueueConnection({
      redisUrl: runtime.parts.config.redisUrl,
      postgres: runtime.database.connectionConfig,
      prefix: runtime.queuePrefix,
    }),
    QUEUE_NAMES.embeddings,
  );
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const counts = await embeddings.getJobCounts('waiting', 'active', 'prioritized');
      if ((counts.waiting ?? 0) + (counts.active ?? 0) + (counts.prioritized ?? 0) === 0) break;
      if (Date.now() > deadline)
        throw new Error(`the start-up embedding maintenance did not finish: ${JSON.stringify(counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await embeddings.close();
  }
});

afterAll(async () => {
  await runtime?.stop();
  await sink?.stop();
});

describe('keyword endpoints', () => {
  let owner: Awaited<ReturnType<typeof signUp>>;
  let other: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    owner = await signUp('owner@example.org');
    other = await signUp('other@example.org');
  });

  it('require a login', async () => {
    for (const [method, url] of [
      ['GET', '/user-keywords/'],
      ['POST', '/user-keywords/add/'],
      ['POST', '/user-keywords/1/remove/'],
      ['PATCH', '/user-keywords/1/update/'],
      ['GET', '/user-rkeywords/'],
    ] as const) {
      const response = await runtime.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
      expect(response.statusCode, url).toBe(401);
      expect(response.json().code).toBe('AUTH_REQUIRED');
    }
  });

  it('add keywords ({ keyword } or { name }, trimmed) and list them newest first', async () => {
    const first = await add(owner.headers, { keyword: '  Graph Neural Networks ' });
    expect(first.statusCode).toBe(201);
    const created = keywordResponseSchema.parse(first.json()).keyword;
    expect(created).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'Graph Neural Networks',
      created_at: expect.any(String),
      alert_enabled: false,
      alert_frequency: 'daily',
      negative_terms: [],
      last_alerted_at: null,
    });
    expect(Date.parse(created.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const second = await add(owner.headers, { name: 'protein folding' });
    expect(second.statusCode).toBe(201);

    const listed = await list(owner.headers);
    expect(listed.count).toBe(2);
    expect(listed.keywords.map((keyword) => keyword.name)).toEqual(['protein folding', 'Graph Neural Networks']);
    expect(listed.keywords[1]).toEqual(created);
    expect(await list(other.headers)).toEqual({ keywords: [], count: 0 });
  });

  it('refuse a name the user already follows, in any letter case (409), but not another user', async () => {
    const duplicate = await add(owner.headers, { keyword: 'graph neural NETWORKS' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: 'CONFLICT', message: '你已关注关键词“Graph Neural Networks”' });
    expect((await add(other.headers, { keyword: 'graph neural networks' })).statusCode).toBe(201);
    expect((await list(owner.headers)).count).toBe(2);
  });

  it('validate with Chinese messages', async () => {
    const cases: [unknown, string][] = [
      [{}, '请输入关键词'],
      [{ keyword: '   ' }, '关键词不能为空'],
      [{ keyword: 'x'.repeat(101) }, '关键词不能超过 100 个字符'],
      [{ keyword: 42 }, '关键词必须是文本'],
      [{ keyword: 'a\u0000b' }, '关键词包含无效字符'],
    ];
    for (const [payload, message] of cases) {
      const response = await add(owner.headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message });
    }
    expect((await add(owner.headers, { keyword: 'x'.repeat(100) })).statusCode).toBe(201);

    const [keyword] = (await list(owner.headers)).keywords;
    const id = keyword?.id ?? '';
    const updates: [unknown, string][] = [
      [{ alert_frequency: 'hourly' }, '提醒频率只能是 daily（每天）或 weekly（每周）'],
      [{ alert_enabled: 'yes' }, '提醒开关必须是 true 或 false'],
      [{ negative_terms: 'survey' }, '排除词必须是文本列表'],
      [{ negative_terms: Array.from({ length: 21 }, (_, i) => `term ${i}`) }, '排除词最多 20 个'],
      [{ negative_terms: ['ok', 'y'.repeat(101)] }, '排除词不能超过 100 个字符'],
      [{ negative_terms: [' '] }, '排除词不能为空'],
    ];
    for (const [payload, message] of updates) {
      const response = await update(owner.headers, id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message });
    }
    expect((await remove(owner.headers, id)).statusCode).toBe(200);
  });

  it('update the alert settings, keeping fields left out', async () => {
    const [protein] = (await list(owner.headers)).keywords;
    expect(protein?.name).toBe('protein folding');
    const id = protein?.id ?? '';
    const response = await update(owner.headers, id, {
      alert_enabled: true,
      alert_frequency: 'weekly',
      negative_terms: [' survey ', 'Survey', 'review'],
    });
    expect(response.statusCode).toBe(200);
    expect(keywordResponseSchema.parse(response.json()).keyword).toMatchObject({
      id,
      name: 'protein folding',
      alert_enabled: true,
      alert_frequency: 'weekly',
      negative_terms: ['survey', 'review'],
    });
    const unchanged = await update(owner.headers, id, {});
    expect(unchanged.statusCode).toBe(200);
    expect(unchanged.json().keyword).toMatchObject({ alert_enabled: true, negative_terms: ['survey', 'review'] });
    const partly = await update(owner.headers, id, { alert_frequency: 'daily' });
    expect(partly.json().keyword).toMatchObject({ alert_enabled: true, alert_frequency: 'daily' });
    expect((await list(owner.headers)).keywords[0]).toMatchObject({ alert_frequency: 'daily', alert_enabled: true });
  });

  it("answer 404 for another user's keyword, an unknown id and a malformed one", async () => {
    const [theirs] = (await list(other.headers)).keywords;
    const [mine] = (await list(owner.headers)).keywords;
    for (const id of [theirs?.id ?? '', '999999999', 'abc', '0', '-1', '1.5', '12345678901234567890', '%20']) {
      for (const response of [
        await update(owner.headers, id, { alert_enabled: true }),
        await remove(owner.headers, id),
      ]) {
        expect(response.statusCode, id).toBe(404);
        expect(response.json()).toMatchObject({ code: 'NOT_FOUND', message: '关键词不存在' });
      }
    }
    // Theirs is untouched; mine is removed once.
    expect((await list(other.headers)).keywords[0]).toMatchObject({ id: theirs?.id, alert_enabled: false });
    const removed = await remove(owner.headers, mine?.id ?? '');
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true, id: mine?.id });
    expect((await remove(owner.headers, mine?.id ?? '')).statusCode).toBe(404);
    expect((await list(owner.headers)).keywords.map((keyword) => keyword.name)).toEqual(['Graph Neural Networks']);
  });

  it('refuse more than 50 keywords per user (400)', async () => {
    const collector = await signUp('collector@example.org');
    const added = await Promise.all(
      Array.from({ length: 50 }, (_, i) => add(collector.headers, { keyword: `topic number ${i}` })),
    );
    expect(added.map((response) => response.statusCode)).toEqual(Array(50).fill(201));
    const refused = await add(collector.headers, { keyword: 'one too many' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('最多只能关注 50 个关键词'),
    });
    expect((await list(collector.headers)).count).toBe(50);
  });
});

describe('keyword suggestions (GET /user-rkeywords/)', () => {
  beforeAll(async () => {
    // Three clusters on three axes; the readers' profile vector is axis 0.
    const near = [
      'Graph neural networks for molecular property prediction',
      'Message passing graph neural networks in drug discovery',
      'Equivariant graph neural networks for molecules',
      'Scalable graph neural networks for protein-ligand binding',
      'Self-supervised pretraining of graph neural networks on molecular graphs',
      'Graph neural networks meet large language models for chemistry',
      'Uncertainty estimation for graph neural networks in drug discovery',
      'Benchmarking graph neural networks for molecular property prediction',
    ];
    for (const [i, title] of near.entries()) {
      await addPaper(title, {
        keywords: [
          'Graph Neural Networks',
          i % 2 ? 'drug discovery' : 'molecular property prediction',
          ['message passing', 'equivariance', 'self-supervised learning'][i % 3] ?? '',
        ],
        vectorAxis: 0,
      });
      await addPaper(`Coral reef bleaching under marine heatwaves at site ${String.fromCharCode(65 + i)}`, {
        keywords: ['coral reefs'],
        vectorAxis: 1,
      });
      await addPaper(`Ocean current modelling with satellite altimetry in region ${String.fromCharCode(65 + i)}`, {
        keywords: ['ocean currents'],
        vectorAxis: 2,
      });
    }
  });

  const matchingPapers = async (term: string) => {
    const result = await runtime.database.db.execute<{ count: number }>(sql`
      SELECT count(*)::int AS count FROM radar.papers
      WHERE search_vector @@ phraseto_tsquery('english', radar.cjk_bigrams(${term}))`);
    return Number(result.rows[0]?.count ?? 0);
  };

  it('are empty without a profile', async () => {
    const nobody = await signUp('no-profile@example.org');
    expect(await suggestions(nobody.headers)).toEqual([]);
  });

  it('come from the papers nearest to the profile vector, leave out what the user follows, and all match papers', async () => {
    const reader = await signUp('reader@example.org', {
      summary: 'I design graph neural networks for molecular property prediction and drug discovery.',
      vectorAxis: 0,
    });
    expect((await add(reader.headers, { keyword: 'Molecular property predictions' })).statusCode).toBe(201);

    const suggested = await suggestions(reader.headers);
    const names = suggested.map((entry) => entry.name.toLowerCase());
    expect(names.length).toBeGreaterThan(2);
    expect(names.length).toBeLessThanOrEqual(20);
    expect(names[0]).toMatch(/^graph neural network/);
    expect(suggested[0]).toMatchObject({ score: 1, source: 'similar_papers' });
    expect(names).toEqual(expect.arrayContaining(['drug discovery', 'message passing', 'equivariance']));
    // Equivalent to a followed keyword ("predictions" = "prediction"), or from papers far from the profile.
    expect(names.some((name) => name.includes('molecular property prediction'))).toBe(false);
    expect(names.some((name) => /coral|ocean|reef/.test(name))).toBe(false);
    // Best first, scores 0-1, each suggestion matches papers the way a keyword alert would, none most of the corpus.
    const scores = suggested.map((entry) => entry.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const entry of suggested) {
      expect(entry.score).toBeGreaterThan(0);
      const count = await matchingPapers(entry.name);
      expect(count, entry.name).toBeGreaterThan(0);
      expect(count, entry.name).toBeLessThanOrEqual(12);
    }
    // No two suggestions are the same query.
    expect(new Set(names.map((name) => name.replace(/s\b/g, ''))).size).toBe(names.length);
  });

  it('come from the research summary when there is no profile vector, only with terms found in the corpus', async () => {
    const writer = await signUp('writer@example.org', {
      summary: 'My group studies coral reefs and xylophone acoustics.',
    });
    const suggested = await suggestions(writer.headers);
    const names = suggested.map((entry) => entry.name);
    expect(names).toContain('coral reef');
    expect(names.every((name) => !/xylophone|acoustic/.test(name))).toBe(true);
    expect(suggested.every((entry) => entry.source === 'research_summary')).toBe(true);
  });
});

describe('keyword alert unsubscribe link', () => {
  let queue: AppQueue<unknown>;
  let reader: Awaited<ReturnType<typeof signUp>>;
  let link: URL;

  beforeAll(async () => {
    queue = createQueue<unknown>(
      createQueueConnection({
        redisUrl: runtime.parts.config.redisUrl,
        postgres: runtime.database.connectionConfig,
        prefix: runtime.queuePrefix,
      }),
      QUEUE_NAMES.keywordAlerts,
    );
  });

  afterAll(async () => {
    await queue?.close();
  });

  /** One run of the keyword-alert job by the runtime's own in-process worker (its mailer, secret and web address). */
  const runAlerts = async () => {
    const job = await queue.add('send-now', {});
    return (await waitForJobState(queue, String(job.id), 'completed')).returnvalue;
  };

  const page = (method: 'GET' | 'POST', query: string, extra: { payload?: string; contentType?: string } = {}) =>
    runtime.app.inject({
      method,
      url: `${API_PATHS.keywordAlertUnsubscribe}${query}`,
      ...(extra.payload !== undefined ? { payload: extra.payload } : {}),
      headers: extra.contentType ? { 'content-type': extra.contentType } : {},
    });

  it('is in the alert mail the worker sends', async () => {
    reader = await signUp('alerts-reader@example.org');
    const created = (await add(reader.headers, { keyword: 'sparse attention' })).json().keyword;
    await update(reader.headers, created.id, { alert_enabled: true });
    await add(reader.headers, { keyword: 'long documents' }).then((response) =>
      update(reader.headers, response.json().keyword.id, { alert_enabled: true }),
    );
    await addPaper('Sparse attention for long documents');

    expect(await runAlerts()).toMatchObject({ mailed: 1, papers: 1 });
    const mail: ReceivedMail = await sink.waitForMail('alerts-reader@example.org');
    const match = /退订：(\S+)/.exec(mail.text);
    link = new URL(match?.[1] ?? '');
    expect(`${link.origin}${link.pathname}`).toBe(
      `${runtime.parts.config.webBaseUrl}${API_PATHS.keywordAlertUnsubscribe}`,
    );
    expect(mail.headers?.['list-unsubscribe']).toBe(`<${link.toString()}>`);
  });

  it('shows a confirmation page on GET and changes nothing yet', async () => {
    const response = await page('GET', link.search);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain('确认退订');
    expect(response.body).toContain(`action="${API_PATHS.keywordAlertUnsubscribe}?token=`);
    expect((await list(reader.headers)).keywords.every((keyword) => keyword.alert_enabled)).toBe(true);
  });

  it('answers a missing, forged or malformed token with a 400 page, never a 5xx', async () => {
    const token = link.searchParams.get('token') ?? '';
    const [id, mac] = token.split('.');
    const forged = `${id}.${mac?.[0] === 'A' ? 'B' : 'A'}${mac?.slice(1)}`;
    const otherUser = `00000000-0000-4000-8000-000000000000.${mac}`;
    for (const query of [
      '',
      '?token=',
      `?token=${forged}`,
      `?token=${otherUser}`,
      '?token=abc',
      `?token=${'x'.repeat(400)}`,
    ]) {
      for (const method of ['GET', 'POST'] as const) {
        const response = await page(method, query);
        expect(response.statusCode, `${method} ${query}`).toBe(400);
        expect(response.body).toContain('退订链接无效');
      }
    }
    // Refused by the query schema (JSON error body), still a 400.
    expect((await page('GET', '?token=%00')).statusCode).toBe(400);
    expect((await list(reader.headers)).keywords.every((keyword) => keyword.alert_enabled)).toBe(true);
  });

  it('unsubscribes every keyword on a one-click POST (RFC 8058), and no further alert is mailed', async () => {
    const response = await page('POST', link.search, {
      payload: 'List-Unsubscribe=One-Click',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('已退订关键词提醒');
    const keywords = (await list(reader.headers)).keywords;
    expect(keywords).toHaveLength(2);
    expect(keywords.every((keyword) => !keyword.alert_enabled)).toBe(true);

    // Again (the confirmation page's button, a form with an empty body): still fine.
    expect(
      (await page('POST', link.search, { payload: '', contentType: 'multipart/form-data; boundary=x' })).statusCode,
    ).toBe(200);
    expect((await page('POST', link.search)).statusCode).toBe(200);

    await runtime.database.db.execute(
      sql`UPDATE radar.user_keywords SET last_alerted_at = now() - interval '2 days' WHERE user_id = ${reader.user.id}`,
    );
    await addPaper('Sparse attention kernels revisited');
    expect(await runAlerts()).toMatchObject({ mailed: 0 });
    expect(sink.mailsTo('alerts-reader@example.org')).toHaveLength(1);

    // The token (and so the link) never reaches the logs; the address neither.
    const token = link.searchParams.get('token') ?? '';
    expect(runtime.logLines.filter((line) => line.includes(token.split('.')[1] ?? token))).toEqual([]);
    expect(runtime.logLines.filter((line) => line.includes('alerts-reader@example.org'))).toEqual([]);
  });
});
