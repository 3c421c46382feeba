import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createIngestRepositories, sql } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import type { SourceKind } from '@radar/ingest';
import {
  defaultIngestSettings,
  enqueueEnrichment,
  importSourceFile,
  ingestSettingsFromConfig,
  NEWS_TRUNCATED_NOTE,
  NEWS_TRUNCATION_MARK,
  SourceFileError,
  SourceRunError,
} from '@radar/ingest';
import { testQueueConnection } from '@radar/jobs/testing';
import { QUEUE_NAMES } from '@radar/shared';
import { ActionableError, loadConfig } from '@radar/shared/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppQueue, createQueue, type QueueConnection, removeRedisQueueData } from '../src';

/**
 * Saved files imported on a real database (issue 8): a file that cannot be imported is refused in
 * one line before anything is stored; bioRxiv feeds, long news and the jobs that follow a run.
 */

const FIXTURES = fileURLToPath(new URL('../../ingest/test/fixtures/ingest/', import.meta.url));
let database: TestDatabase;
let tmp: string;

const load = (kind: SourceKind, filePath: string, extra: { institute?: string } = {}) =>
  importSourceFile(
    { repositories: createIngestRepositories(database.db), settings: defaultIngestSettings() },
    { kind, filePath, ...extra },
  );

async function stored() {
  const result = await database.db.execute<Record<string, number>>(
    sql`SELECT (SELECT count(*)::int FROM radar.papers) AS papers,
               (SELECT count(*)::int FROM radar.news_items) AS news,
               (SELECT count(*)::int FROM radar.journals) AS journals,
               (SELECT count(*)::int FROM radar.ingest_rejects) AS rejects,
               (SELECT count(*)::int FROM radar.ingest_sources) AS sources`,
  );
  return result.rows[0];
}

beforeAll(async () => {
  database = await createTestDatabase();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-file-import-'));
});

afterAll(async () => {
  await database?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('importing saved files', () => {
  it('refuses a missing, empty or other-kind file in one line, and stores nothing (items 13, 18)', async () => {
    const empty = path.join(tmp, 'empty.xml');
    await fs.writeFile(empty, '');
    const refusals: [SourceKind, string, RegExp][] = [
      ['rss', path.join(tmp, 'missing.xml'), /^cannot read .*missing\.xml: no such file$/],
      ['news-rss', empty, /^.*empty\.xml is empty: nothing to import$/],
      [
        'news-rss',
        path.join(FIXTURES, 'arxiv-api-2025-11.xml'),
        /looks like an arXiv API answer .*ingest arxiv --file/,
      ],
      ['arxiv', path.join(FIXTURES, 'arxiv-rss-cs.IR.xml'), /looks like an arXiv announcement feed .*ingest arxiv-rss/],
      ['rss', path.join(FIXTURES, 'news-wordpress-rss2.xml'), /news or blog feed .*ingest news-rss --file/],
      ['crossref', path.join(FIXTURES, 'openalex-works.json'), /OpenAlex works answer .*ingest openalex --file/],
    ];
    for (const [kind, file, message] of refusals) {
      const error = await load(kind, file, { institute: 'Demo' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SourceFileError);
      expect(error).toBeInstanceOf(ActionableError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
    expect(await stored()).toEqual({ papers: 0, news: 0, journals: 0, rejects: 0, sources: 0 });
  });

  it('refuses a broken JSON document as a whole, without a reject per line (item 17)', async () => {
    const broken = path.join(tmp, 'openalex-broken.json');
    const text = await fs.readFile(path.join(FIXTURES, 'openalex-works.json'), 'utf8');
    const pretty = JSON.stringify(JSON.parse(text), null, 2);
    await fs.writeFile(broken, pretty.slice(0, Math.floor(pretty.length / 2)));
    const error = await load('openalex', broken).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SourceRunError);
    expect(error).toBeInstanceOf(ActionableError);
    expect((error as SourceRunError).message).toMatch(/openalex-broken\.json: malformed JSON: .*\(line \d+\)/);
    expect((error as SourceRunError).summary.counts).toMatchObject({ seen: 0, rejected: 0 });
    expect(await stored()).toEqual({ papers: 0, news: 0, journals: 0, rejects: 0, sources: 0 });
  });

  it('imports a bioRxiv feed saved as a journal feed as preprints: all authors, bioRxiv, paragraphs (14, 19)', async () => {
    const summary = await load('rss', path.join(FIXTURES, 'biorxiv-rss1.rdf'));
    expect(summary.counts).toMatchObject({ added: 2, rejected: 0 });
    const rows = await database.db.execute<{
      doi: string;
      authors: string[];
      journal_name: string;
      journal_id: number | null;
      abstract: string;
    }>(sql`SELECT doi, authors, journal_name, journal_id, abstract FROM radar.papers ORDER BY doi`);
    expect(rows.rows.map((row) => [row.doi, row.authors.length, row.journal_name, row.journal_id])).toEqual([
      ['10.1101/2025.06.02.657001', 10, 'bioRxiv', null],
      ['10.1101/2025.06.03.657122', 2, 'bioRxiv', null],
    ]);
    expect(rows.rows[0]?.abstract).toMatch(/twelve mice\.\n\nReplay was biased/);
    // No journal "bioRxiv Subject Collection: Neuroscience", and no tier for preprints.
    expect(await stored()).toMatchObject({ journals: 0 });
  });

  it('cuts news text over 50,000 characters with a note the reader sees, and records the cut (item 19)', async () => {
    const long = Array.from({ length: 2_000 }, (_, index) => `Paragraph ${index} of a very long report.`).join(
      '</p><p>',
    );
    const feed = path.join(tmp, 'long-news.xml');
    await fs.writeFile(
      feed,
      `<rss version="2.0"><channel><title>Demo news</title><item><title>A very long report</title>
       <link>https://news.example.org/long</link><pubDate>Mon, 02 Jun 2025 08:00:00 GMT</pubDate><description><![CDATA[<p>${long}</p>]]></description></item></channel></rss>`,
    );
    const summary = await load('news-rss', feed, { institute: 'Demo Institute' });
    expect(summary.notes).toEqual({ [NEWS_TRUNCATED_NOTE]: 1 });
    const rows = await database.db.execute<{ content: string }>(sql`SELECT content FROM radar.news_items`);
    const content = rows.rows[0]?.content ?? '';
    expect(content.length).toBeLessThanOrEqual(50_000);
    expect(content.length).toBeGreaterThan(49_900);
    expect(content.endsWith(NEWS_TRUNCATION_MARK)).toBe(true);
    expect(content).toMatch(/已截断/);
    const rejects = await database.db.execute<{ severity: string; reason: string }>(
      sql`SELECT severity, reason FROM radar.ingest_rejects WHERE item_key = 'https://news.example.org/long'`,
    );
    expect(rejects.rows).toEqual([{ severity: 'warning', reason: NEWS_TRUNCATED_NOTE }]);
  });
});

describe('jobs after a run (item 19)', () => {
  let connection: QueueConnection;
  let summaries: AppQueue<unknown>;
  let embeddings: AppQueue<unknown>;

  beforeAll(() => {
    connection = testQueueConnection(database);
    summaries = createQueue<unknown>(connection, QUEUE_NAMES.paperSummary);
    embeddings = createQueue<unknown>(connection, QUEUE_NAMES.contentEmbed);
  });

  afterAll(async () => {
    for (const queue of [summaries, embeddings]) {
      await queue?.obliterate({ force: true }).catch(() => {});
      await queue?.close();
    }
    if (process.env.REDIS_URL && connection) await removeRedisQueueData(process.env.REDIS_URL, connection.prefix);
  });

  it('queues summary jobs only when an LLM is configured (LLM_MODEL)', async () => {
    const enqueue = (queue: string, name: string, data: unknown) =>
      (queue === QUEUE_NAMES.paperSummary ? summaries : embeddings).add(name, data);
    const run = { newPaperIds: [1, 2], changedPaperIds: [], newNewsIds: [3], changedNewsIds: [] };
    const withoutLlm = ingestSettingsFromConfig(loadConfig({}));
    expect(withoutLlm.summariesEnabled).toBe(false);
    expect(await enqueueEnrichment(enqueue, run, { summaries: withoutLlm.summariesEnabled })).toEqual({
      embedJobs: 2,
      summaryJobs: 0,
    });
    expect(await summaries.count()).toBe(0);
    expect(await embeddings.count()).toBe(2);
    const withLlm = ingestSettingsFromConfig(loadConfig({ LLM_MODEL: 'demo-model' }));
    expect(await enqueueEnrichment(enqueue, run, { summaries: withLlm.summariesEnabled })).toEqual({
      embedJobs: 2,
      summaryJobs: 1,
    });
    expect(await summaries.count()).toBe(1);
  });
});
