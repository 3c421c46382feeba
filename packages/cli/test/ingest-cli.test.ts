import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMigratedDataDir } from '@radar/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRadar, runRadarProcess } from './run-radar';

/**
 * The ingestion commands as operators run them, on an embedded database in a fresh DATA_DIR, with
 * sources served by a local HTTP server. Most run in this process; two run as processes, for the exit
 * codes and the streams of a real one.
 */

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURES = path.join(REPO_ROOT, 'packages/ingest/test/fixtures/ingest');

let dataDir: string;
let sourcesFile: string;
let server: http.Server;
let baseUrl: string;

const commandEnv = (overrides: { dataDir?: string }) => ({
  DATA_DIR: overrides.dataDir ?? dataDir,
  SOURCES_FILE: sourcesFile,
  LOG_LEVEL: 'silent',
});
const radar = (args: string[], overrides: { dataDir?: string } = {}) => runRadar(args, commandEnv(overrides));
const radarProcess = (args: string[], overrides: { dataDir?: string } = {}) =>
  runRadarProcess(args, commandEnv(overrides));

beforeAll(async () => {
  // Migrated already: the commands' first open of an empty DATA_DIR is not what these tests are about.
  dataDir = await createMigratedDataDir();
  server = http.createServer(async (request, response) => {
    if (request.url === '/feeds/ecology.rdf') {
      response.writeHead(200, { 'content-type': 'application/rdf+xml' });
      response.end(await fs.readFile(path.join(FIXTURES, 'journal-rss1.rdf')));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sourcesFile = path.join(dataDir, 'sources.json');
  await fs.writeFile(
    sourcesFile,
    JSON.stringify({
      sources: [
        {
          name: 'ecology',
          kind: 'rss',
          url: `${baseUrl}/feeds/ecology.rdf`,
          journal: { name: 'Frontiers of Demo Ecology', issn: '2167-8359' },
        },
        { name: 'nowhere', kind: 'news-rss', url: `${baseUrl}/feeds/missing.xml`, institute: 'Nowhere' },
      ],
    }),
  );
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('pnpm radar (ingestion commands)', () => {
  it('demo: loads the demo corpus, and status counts it', async () => {
    const demo = await radar(['demo']);
    expect(demo.stderr).toBe('');
    expect(demo.code).toBe(0);
    expect(demo.stdout).toMatch(
      /demo corpus loaded \(marked as demo\): 294 papers and 105 news items across 21 research fields/,
    );
    // No server runs on this DATA_DIR: the command fits the built-in model and embeds the corpus itself.
    expect(demo.stdout).toContain('refitted the built-in model (first fit)');
    expect(demo.stdout).toMatch(/^embedded 0 user profiles, 294 papers, 105 news items with builtin\/tfidf-lsa@/m);
    const status = await radar(['status']);
    expect(status.stdout).toMatch(/papers:\s+294/);
    expect(status.stdout).toMatch(/news items:\s+105/);
    expect(status.stdout).toMatch(/journals:\s+84/);
    // The same for scripts: one JSON document on stdout.
    const json = await radar(['status', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      mode: 'embedded',
      papers: 294,
      news_items: 105,
      journals: 84,
      queue_backend: 'postgres',
      maintenance_queue: { failed: 0 },
    });
    // Fits the built-in model and embeds 399 documents: more than the default per-test time.
  }, 120_000);

  it('journals import: reads a SCImago export and reports rows skipped with their line', async () => {
    const result = await radar(['journals', 'import', path.join(FIXTURES, 'tiers-scimago.csv')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/scimago table "scimago-2024", 6 rows/);
    expect(result.stdout).toMatch(/line 6: no tier/);
  });

  it('ingest <name>: runs a configured source now and prints a summary; sources shows the run', async () => {
    const run = await radar(['ingest', 'ecology']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/ecology: added 2, updated 0, skipped 0, rejected 1 \(no title: 1\)/);
    const failing = await radar(['ingest', 'nowhere']);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/nowhere failed: .*answered 404/);
    const sources = await radar(['sources']);
    expect(sources.stdout).toMatch(
      /^ecology\s+rss\s+-\s+yes: listed in \S+\s+50 \*\/4 \* \* \*\s+-\s+\S+ \S+\s+succeeded\s+2\s+2/m,
    );
    expect(sources.stdout).toMatch(/^nowhere\s+news-rss\s+.*failed\s+0\s+0\s+.*answered 404/m);
  });

  it('ingest <kind> --file: imports a saved file (air-gapped servers), as a process that exits 0 with nothing on stderr', async () => {
    const result = await radarProcess([
      'ingest',
      'crossref',
      '--file',
      path.join(FIXTURES, 'crossref-journal-works.json'),
    ]);
    // Progress bars are drawn on a terminal only: a pipe gets the summary lines and nothing else.
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /crossref-file: added 2, updated 0, skipped 1 \(not a paper \(journal-issue\): 1\), rejected 1 \(no DOI: 1\)/,
    );
    // No worker runs (no server on this DATA_DIR): the command embeds the new papers itself, in their
    // insert (the re-embedding after it has nothing left); no LLM_MODEL here, so no summaries are
    // queued (they would only be skipped).
    expect(result.stdout).toMatch(/^to embed: +0 user profiles, 0 papers, 0 news items$/m);
    expect(result.stdout).toMatch(/^every stored vector is on the active model$/m);
    expect(result.stdout).not.toMatch(/queued/);
    expect(result.stdout).toMatch(/^no summaries: no LLM is configured \(LLM_MODEL\)$/m);
  });

  it('ingest --file: a missing, empty or other-kind file is refused in one line, before any data is created', async () => {
    const untouched = path.join(dataDir, 'never-created');
    const empty = path.join(dataDir, 'empty.xml');
    await fs.writeFile(empty, '');
    const runs = await Promise.all([
      radar(['ingest', 'rss', '--file', path.join(dataDir, 'missing.xml')], { dataDir: untouched }),
      radar(['ingest', 'news-rss', '--file', empty, '--institute', 'Demo'], { dataDir: untouched }),
      radar(['ingest', 'news-rss', '--file', path.join(FIXTURES, 'arxiv-api-2025-11.xml')], { dataDir: untouched }),
    ]);
    expect(runs.map((run) => run.code)).toEqual([1, 1, 1]);
    for (const run of runs) {
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).not.toMatch(/^\s+at /m);
    }
    expect(runs[0]?.stderr).toMatch(/^radar ingest failed: cannot read .*missing\.xml: no such file$/m);
    expect(runs[1]?.stderr).toMatch(/empty\.xml is empty: nothing to import/);
    expect(runs[2]?.stderr).toMatch(
      /arxiv-api-2025-11\.xml looks like an arXiv API answer .*not a news feed: import it with pnpm radar ingest arxiv --file/,
    );
    await expect(fs.stat(untouched)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('status: says that nothing is there instead of creating an empty database, as a process that exits 1', async () => {
    const nowhere = path.join(dataDir, 'no-data-here');
    const status = await radarProcess(['status'], { dataDir: nowhere });
    expect(status.code).toBe(1);
    expect(status.stdout).toBe('');
    expect(status.stderr.trim()).toBe(
      `radar status: no Research Radar data at ${nowhere} (no server running, no database there yet): start it with \`pnpm start\`, or set DATABASE_URL to use a PostgreSQL server`,
    );
    await expect(fs.stat(nowhere)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('explains mistakes in one line', async () => {
    const unknown = await radar(['ingest', 'no-such-source']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /no configured source named or of kind "no-such-source".*configured: ecology, nowhere/,
    );
    const badDate = await radar(['ingest', 'ecology', '--since', 'yesterday']);
    expect(badDate.stderr).toMatch(/--since must be a date like 2026-01-31/);
    // Flags are parsed before anything is opened: no database is created for a wrong command line.
    const untouched = path.join(dataDir, 'no-database-for-typos');
    const flags = await Promise.all(
      [
        ['ingest', 'ecology', '--sinse', '2026-01-31'],
        ['ingest', 'ecology', '--since'],
        ['demo', '--remove=yes'],
        ['reembed', '--everything'],
        ['journals', 'import'],
        ['sources', 'extra'],
      ].map((args) => radar(args, { dataDir: untouched })),
    );
    expect(flags.map((run) => [run.code, run.stderr])).toEqual([
      [1, 'radar ingest failed: unknown option --sinse (expected --since, --file, --institute, --journal)\n'],
      [1, 'radar ingest failed: --since needs a value\n'],
      [1, 'radar demo failed: --remove takes no value\n'],
      [1, 'radar reembed failed: unknown option --everything (expected --refit)\n'],
      [1, 'radar journals failed: usage: pnpm radar journals import <file.csv> [--label NAME]\n'],
      [1, 'radar sources failed: usage: pnpm radar sources [list [--json] | run <source name> [--since YYYY-MM-DD]]\n'],
    ]);
    await expect(fs.stat(untouched)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
