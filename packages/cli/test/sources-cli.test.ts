import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, UserRepository } from '@radar/db';
import { catalogueEntries, fieldsOf } from '@radar/ingest';
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
      /^NAME\s+KIND\s+FIELDS\s+ACTIVE\s+SCHEDULE\s+NEXT RUN\s+LAST RUN\s+STATUS\s+ADDED\s+TOTAL\s+LAST ERROR$/m,
    );
    expect(table.stdout).toMatch(
      /^ecology\s+rss\s+-\s+yes: listed in \S+\s+50 \*\/4 \* \* \*\s+-\s+\S+ \S+\s+succeeded\s+2\s+2$/m,
    );
    expect((await radar()).stdout).toBe(table.stdout);
  }, 60_000);

  it('list without a sources file: the built-in catalogue, each entry active while a reader names one of its fields', async () => {
    const catalogueEnv = { ...installation.env, SOURCES_FILE: path.join(tmp, 'no-such-sources.yaml') };
    // The catalogue's entries (the file's source, run by the test before, is listed as no longer configured).
    const list = async () => {
      const overview = JSON.parse((await runRadar(['sources', 'list', '--json'], catalogueEnv)).stdout);
      const sources = overview.sources.filter((source: { schedule: string }) => source.schedule !== 'not configured');
      return { ...overview, sources };
    };
    const materials = catalogueEntries().filter((entry) => fieldsOf(entry).includes('materials-science'));
    expect(materials.length).toBeGreaterThan(0);

    const before = await list();
    expect(before).toMatchObject({ catalogue: true, origin: 'built-in catalogue' });
    expect(before.sources.map((source: { name: string }) => source.name)).toEqual(
      catalogueEntries().map((entry) => entry.name),
    );
    for (const source of before.sources) {
      expect(source).toMatchObject({ schedule: 'off', readers: 0 });
      expect(source.why).toMatch(/^no reader names |^needs /);
    }

    // Two readers of materials science, one of them also in chemistry; an unverified account counts for nothing.
    const users = new UserRepository(installation.database.db);
    await users.create({ email: 'm1@example.org', isEmailVerified: true, researchFields: ['materials-science'] });
    await users.create({
      email: 'm2@example.org',
      isEmailVerified: true,
      researchFields: ['materials-science', 'chemistry'],
    });
    await users.create({ email: 'm3@example.org', isEmailVerified: false, researchFields: ['materials-science'] });
    const after = await list();
    for (const source of after.sources) {
      const entry = catalogueEntries().find((candidate) => candidate.name === source.name);
      if (!entry) throw new Error(`${source.name} is not a catalogue entry`);
      const named = fieldsOf(entry).filter((field) => field === 'materials-science' || field === 'chemistry');
      if (named.length && !entry?.requires?.length) {
        expect(source).toMatchObject({ active: true, readers: named.includes('materials-science') ? 2 : 1 });
        expect(source.readerFields).toEqual(named);
        expect(source.why).toMatch(/^[12] readers? name /);
        expect(source.schedule).not.toBe('off');
      } else if (!named.length) {
        expect(source).toMatchObject({ active: false, schedule: 'off' });
      }
    }
    const table = (await runRadar(['sources'], catalogueEnv)).stdout;
    expect(table).toMatch(
      /^sources: built-in catalogue \(no sources file at .*\), each entry on while a reader names one of its fields; \d+ of \d+ active; scheduled runs on$/m,
    );
    expect(table).toContain(`yes: 2 readers name materials-science`);
    await installation.database.db.execute(sql`DELETE FROM radar.users`);
  });

  it('wrong command lines: one line and exit code 1', async () => {
    const unknown = await radar('run', 'geology');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^radar sources failed: no configured source named or of kind "geology" in .*\n$/);
    expect((await radar('run')).stderr).toMatch(/^radar sources failed: usage: pnpm radar sources /);
    expect((await radar('run', 'ecology', '--json')).stderr).toBe('radar sources failed: --json is for sources list\n');
    expect((await radar('fetch')).code).toBe(1);
  });
});
