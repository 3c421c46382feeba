import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Installation, openInstallation } from './installation';
import { runRadar } from './run-radar';

/**
 * `pnpm radar sources list|run` on the database of the test run's mode, with a feed served by a local
 * HTTP server. (`sources` alone and `ingest` are covered by ingest-cli.test.ts.)
 */

const FIXTURES = fileURLToPath(new URL('../../ingest/test/fixtures/ingest', import.meta.url));

let installation: Installation;
let server: http.Server;
let tmp: string;
let env: Record<string, string>;

const radar = (...args: string[]) => runRadar(['sources', ...args], env);

beforeAll(async () => {
  installation = await openInstallation();
  server = http.createServer(async (request, response) => {
    if (request.url === '/feeds/ecology.rdf') {
      response.writeHead(200, { 'content-type': 'application/rdf+xml' });
      response.end(await fs.readFile(path.join(FIXTURES, 'journal-rss1.rdf')));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-sources-cli-'));
  const sourcesFile = path.join(tmp, 'sources.json');
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
      ],
    }),
  );
  env = { ...installation.env, SOURCES_FILE: sourcesFile };
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await installation?.close();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

describe('pnpm radar sources', () => {
  it('list --json before any run: the source, never run, as one JSON document', async () => {
    const run = await radar('list', '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const listing = JSON.parse(run.stdout);
    expect(listing).toMatchObject({ sourcesFile: env.SOURCES_FILE, scheduledRuns: true });
    expect(listing.sources).toEqual([
      expect.objectContaining({ name: 'ecology', kind: 'rss', status: 'never-run', lastRunAt: null, totalAdded: 0 }),
    ]);
  });

  it('run <name>: runs the source now with the summary of ingest; list shows the run, and sources alone is list', async () => {
    const run = await radar('run', 'ecology');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ecology: added 2, updated 0, skipped 0, rejected 1 \(no title: 1\)/m);

    const listed = JSON.parse((await radar('list', '--json')).stdout);
    expect(listed.sources).toEqual([
      expect.objectContaining({ name: 'ecology', status: 'succeeded', lastAdded: 2, totalAdded: 2, lastError: null }),
    ]);
    expect(Date.parse(listed.sources[0].lastRunAt)).not.toBeNaN();

    const table = await radar('list');
    expect(table.stdout).toMatch(
      /^NAME\s+KIND\s+SCHEDULE\s+NEXT RUN\s+LAST RUN\s+STATUS\s+ADDED\s+TOTAL\s+LAST ERROR$/m,
    );
    expect(table.stdout).toMatch(/^ecology\s+rss\s+50 \*\/4 \* \* \*\s+-\s+\S+ \S+\s+succeeded\s+2\s+2$/m);
    expect((await radar()).stdout).toBe(table.stdout);
  }, 60_000);

  it('wrong command lines: one line and exit code 1', async () => {
    const unknown = await radar('run', 'geology');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^radar sources failed: no configured source named or of kind "geology" in .*\n$/);
    expect((await radar('run')).stderr).toMatch(/^radar sources failed: usage: pnpm radar sources /);
    expect((await radar('run', 'ecology', '--json')).stderr).toBe('radar sources failed: --json is for sources list\n');
    expect((await radar('fetch')).code).toBe(1);
  });
});
