import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createIngestRepositories, SourceStateRepository, UserRepository } from '@radar/db';
import { catalogueEntries, fieldsOf } from '@radar/ingest';
import { type AppQueue, createQueue, createQueueConnection, syncActiveSources } from '@radar/jobs';
import { type IngestJob, QUEUE_NAMES } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * The empty papers list of a fresh installation running the built-in catalogue (no sources file),
 * through the API, as one reader's profile changes: no field chosen, a field no active source serves,
 * then a served field (the save asks the worker for the sources sync), the first fetch queued (with
 * its start and an estimated end), its sources failing, and finished without papers. No worker runs
 * here: the test runs the sync the worker would, on the runtime's real queue.
 */

const FIELD = 'materials-science';
const GAP = 'history';
const servesPapers = (entry: ReturnType<typeof catalogueEntries>[number]) => entry.kind !== 'news-rss';
// The catalogue's entries for GAP are switched off (INGEST_DISABLED_SOURCES), so GAP has no source.
const gapEntries = catalogueEntries().filter((entry) => fieldsOf(entry).includes(GAP));
const fieldEntries = catalogueEntries().filter(
  (entry) =>
    fieldsOf(entry).includes(FIELD) && !fieldsOf(entry).includes(GAP) && servesPapers(entry) && !entry.requires?.length,
);

let runtime: TestRuntime;
let tmp: string;
let headers: Record<string, string>;
let ingestQueue: AppQueue<IngestJob>;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-explanations-'));
  runtime = await startTestRuntime({
    env: {
      RUN_WORKER: 'false',
      INGEST_ENABLED: 'true',
      SOURCES_FILE: path.join(tmp, 'absent.yaml'),
      INGEST_DISABLED_SOURCES: gapEntries.map((entry) => entry.name).join(','),
      TIME_ZONE: 'Asia/Shanghai',
    },
  });
  const user = await new UserRepository(runtime.database.db).create({
    email: 'new-reader@example.org',
    isEmailVerified: true,
  });
  headers = { authorization: `Bearer ${await runtime.app.signIn(user)}` };
  ingestQueue = createQueue<IngestJob>(
    createQueueConnection({
      redisUrl: runtime.parts.config.redisUrl,
      postgres: runtime.database.connectionConfig,
      prefix: runtime.queuePrefix,
    }),
    QUEUE_NAMES.ingest,
  );
});

afterAll(async () => {
  await ingestQueue?.close();
  await runtime?.stop();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

async function papersExplanation() {
  const response = await runtime.app.inject({
    method: 'GET',
    url: '/api/auth/recommendations/papers/?date_filter=不限&similarity_threshold=0',
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  expect(body.recommendations).toEqual([]);
  return body.empty_explanation;
}

const syncJobs = async () =>
  (await runtime.parts.queues.maintenance.getJobs(['waiting', 'prioritized'])).filter(
    (job) => job.data.task === 'sync-sources',
  ).length;

describe('why a reader of a fresh catalogue installation has no papers', () => {
  it('moves from no field, to a field without source, to the first fetch, failing sources and an empty run', async () => {
    expect(fieldEntries.length).toBeGreaterThan(0);
    const confirm = async (body: Record<string, unknown>) => {
      const response = await runtime.app.inject({
        method: 'POST',
        url: '/api/auth/research-direction/confirm/',
        headers,
        payload: body,
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    // A summary (the built-in model computes its vector) and no field yet: nothing asks for a sync.
    await confirm({ research_summary_en: 'Thin-film perovskite solar cells and their defect chemistry.' });
    expect(await syncJobs()).toBe(0);
    const noField = await papersExplanation();
    expect(noField).toMatchObject({ cause: 'no_items', change: null, sources: { state: 'no_fields' } });
    expect(noField.message).toBe('还没有任何论文：你还没有选择研究领域，内置来源按研究领域开启');
    expect(noField.suggestion).toContain('选择研究领域');

    // PATCH of the user's fields: a field whose sources are all switched off.
    const patched = await runtime.app.inject({
      method: 'PATCH',
      url: '/api/auth/user/',
      headers,
      payload: { research_fields: [GAP] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(await syncJobs()).toBe(1);
    const gap = await papersExplanation();
    expect(gap).toMatchObject({ sources: { state: 'no_source', fields_without_source: [GAP] } });
    expect(gap.message).toBe('还没有任何论文：你的研究领域（历史学）还没有论文来源');
    expect(gap.suggestion).not.toMatch(/稍后|自动/);

    // The confirm route with a served field: a second sync request; before the worker syncs, waiting.
    await confirm({ research_fields: [FIELD] });
    expect(await syncJobs()).toBe(2);
    const waiting = await papersExplanation();
    expect(waiting).toMatchObject({ sources: { state: 'waiting' } });

    // The sync the worker runs for those requests queues the first fetch.
    const sync = await syncActiveSources({
      repositories: createIngestRepositories(runtime.database.db),
      states: new SourceStateRepository(runtime.database.db),
      settings: runtime.parts.ingest,
      queue: ingestQueue,
    });
    expect([...sync.firstRuns].sort()).toEqual(expect.arrayContaining(fieldEntries.map((entry) => entry.name).sort()));
    const fetching = await papersExplanation();
    expect(fetching.sources.state).toBe('first_fetch');
    expect(fetching.message).toMatch(/^还没有任何论文：论文来源正在首次抓取（\d\d:\d\d 开始）$/);
    expect(fetching.suggestion).toMatch(/^预计 \d\d:\d\d 前完成（此为估计/);
    const { started_at: startedAt, expected_by: expectedBy, is_estimate: isEstimate } = fetching.sources.first_fetch;
    expect(isEstimate).toBe(true);
    expect(Date.parse(expectedBy)).toBeGreaterThan(Date.parse(startedAt));
    expect(Date.parse(expectedBy)).toBeGreaterThan(Date.now());

    // One first run fails while the others still wait: the page no longer promises a first fetch, it
    // says which source fails, since when, in Chinese words, and that the others are still fetching.
    const states = new SourceStateRepository(runtime.database.db);
    const [firstEntry, ...otherEntries] = fieldEntries;
    if (!firstEntry) throw new Error('no catalogue entry for the field');
    await states.markRunning(firstEntry.name, firstEntry.kind);
    await states.recordFailure(
      firstEntry.name,
      firstEntry.kind,
      'rss.arxiv.org: unknown host (DNS) (after 4 attempts)',
    );
    const oneFailing = await papersExplanation();
    expect(oneFailing.sources.state).toBe('failing');
    expect(oneFailing.message).toContain(`${firstEntry.name} 自 `);
    expect(oneFailing.message).toContain('起无法连接（域名解析失败），下次重试 ');
    if (otherEntries.length) expect(oneFailing.message).toContain(`其余 ${otherEntries.length} 个来源仍在首次抓取`);
    expect(oneFailing.message).not.toContain('正在首次抓取（');
    expect(oneFailing.suggestion).toBe('请联系管理员处理');

    // Every first run fails: grouped by what went wrong, the technical error left to operators.
    for (const entry of otherEntries) {
      await states.recordFailure(entry.name, entry.kind, 'HTTP 503 Service Unavailable\n<html>busy</html>');
    }
    const failing = await papersExplanation();
    expect(failing.sources.state).toBe('failing');
    expect(failing.sources.failing).toHaveLength(fieldEntries.length);
    expect(failing.sources.failing[0]).toMatchObject({ error: '无法连接（域名解析失败）' });
    if (otherEntries.length) expect(failing.message).toContain('起来源服务器出错');
    expect(JSON.stringify(failing)).not.toMatch(/HTTP 503|unknown host|radar/);

    for (const entry of fieldEntries) {
      await states.markRunning(entry.name, entry.kind);
      await states.recordSuccess(entry.name, {
        added: 0,
        updated: 0,
        skipped: 0,
        rejected: 0,
        summary: {},
        cursor: {},
      });
    }
    const ranEmpty = await papersExplanation();
    expect(ranEmpty).toMatchObject({ sources: { state: 'ran_empty' } });
    expect(ranEmpty.message).toBe('还没有任何论文：论文来源已运行，但没有抓取到论文');
  });
});
