import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createIngestRepositories, SourceStateRepository, sql } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { defaultIngestSettings } from '@radar/ingest';
import type { IngestJob } from '@radar/shared';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIngestProcessor } from '../src/jobs/ingest.job';
import { type LocalHttpServer, startLocalHttpServer } from './helpers/local-http';

/**
 * A failing source is logged at warn once, when it has failed for a day, not at every run; its
 * recovery once, at info. Runs of the ingest job against a real local HTTP server that fails (503) and
 * then recovers, on a real database; the day is aged in the database (failing_since), not waited for.
 */

const FIXTURES = fileURLToPath(new URL('../../ingest/test/fixtures/ingest/', import.meta.url));
let database: TestDatabase;
let feeds: LocalHttpServer;
let tmp: string;
let failing = true;
const logs: { level: number; msg: string; source?: string; failingSince?: string; failures?: number; err?: string }[] =
  [];
let run: (job: { data: IngestJob }) => Promise<unknown>;

const WARN = 40;
const INFO = 30;
const since = (start: number) => logs.slice(start);
const warnings = (start: number) => since(start).filter((line) => line.level >= WARN);

beforeAll(async () => {
  database = await createTestDatabase();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-failing-'));
  const feed = await fs.readFile(path.join(FIXTURES, 'journal-rss1.rdf'));
  feeds = await startLocalHttpServer({
    '/feeds/ecology.rdf': (_request, response) => {
      if (failing) response.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance');
      else response.writeHead(200, { 'content-type': 'application/rdf+xml' }).end(feed);
    },
  });
  const sourcesFile = path.join(tmp, 'sources.json');
  await fs.writeFile(
    sourcesFile,
    JSON.stringify({
      sources: [
        {
          name: 'ecology',
          kind: 'rss',
          url: `${feeds.url}/feeds/ecology.rdf`,
          journal: { name: 'Frontiers of Demo Ecology', issn: '2167-8359' },
        },
      ],
    }),
  );
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  run = createIngestProcessor({
    repositories: createIngestRepositories(database.db),
    states: new SourceStateRepository(database.db),
    settings: defaultIngestSettings({ sourcesFile, httpMaxAttempts: 1, httpTimeoutMs: 5_000, summariesEnabled: false }),
    enqueue: async () => undefined,
    logger: pino({ level: 'info' }, sink),
  });
});

afterAll(async () => {
  await feeds?.close();
  await database?.close();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

const state = () => new SourceStateRepository(database.db).get('ecology');

describe('a failing source in the logs', () => {
  it('logs each failed run at info, and nothing at warn before a day of failures', async () => {
    const start = logs.length;
    await expect(run({ data: { source: 'ecology' } })).rejects.toThrow(/503/);
    await expect(run({ data: { source: 'ecology' } })).rejects.toThrow(/503/);
    expect(
      since(start)
        .filter((line) => line.msg === 'source run failed')
        .map((line) => line.level),
    ).toEqual([INFO, INFO]);
    expect(warnings(start)).toEqual([]);
    expect(await state()).toMatchObject({ status: 'failed', consecutiveFailures: 2, failureWarnedAt: null });
    expect((await state())?.failingSince).toBeInstanceOf(Date);
  });

  it('warns once when the source has failed for a day, not at the runs after that', async () => {
    await database.db.execute(
      sql`UPDATE radar.ingest_sources SET failing_since = now() - interval '25 hours' WHERE name = 'ecology'`,
    );
    const start = logs.length;
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(run({ data: { source: 'ecology' } })).rejects.toThrow(/503/);
    }
    const warned = warnings(start);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: WARN, msg: 'source failing for a day', source: 'ecology', failures: 3 });
    expect(warned[0]?.err).toMatch(/503/);
    expect(Date.now() - Date.parse(String(warned[0]?.failingSince))).toBeGreaterThan(24 * 3_600_000);
    expect((await state())?.consecutiveFailures).toBe(5);
  });

  it('logs the recovery once at info and starts a new spell from nothing', async () => {
    failing = false;
    const start = logs.length;
    await expect(run({ data: { source: 'ecology' } })).resolves.toMatchObject({ outcome: 'success' });
    const recovered = since(start).filter((line) => line.msg === 'source recovered');
    expect(recovered).toHaveLength(1);
    expect(recovered[0]).toMatchObject({ level: INFO, source: 'ecology', failures: 5 });
    expect(await state()).toMatchObject({
      status: 'succeeded',
      consecutiveFailures: 0,
      failingSince: null,
      failureWarnedAt: null,
    });
    await expect(run({ data: { source: 'ecology' } })).resolves.toMatchObject({ outcome: 'success' });
    expect(since(start).filter((line) => line.msg === 'source recovered')).toHaveLength(1);

    failing = true;
    const again = logs.length;
    await expect(run({ data: { source: 'ecology' } })).rejects.toThrow(/503/);
    expect(warnings(again)).toEqual([]);
    expect((await state())?.consecutiveFailures).toBe(1);
  });
});
