import { createIngestRepositories, UserRepository } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_ORIGIN, catalogueEntries, loadSourceList, resolveSources } from '../src/catalogue';
import { defaultIngestSettings } from '../src/pipeline/settings';

/** Which sources an installation has (file or catalogue) and which of them are active, on a real database. */

const NO_FILE = '/nonexistent/radar/sources.yaml';
let database: TestDatabase;
/** The repositories ingestion takes from its composition root; built here per call. */
const repositories = () => createIngestRepositories(database.db);

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

describe('the source list', () => {
  it('is the catalogue without a sources file, with fetched URLs moved to the test origin and disabled names off', async () => {
    const [first] = catalogueEntries();
    if (!first) throw new Error('the catalogue is empty');
    const list = await loadSourceList({
      sourcesFile: NO_FILE,
      disabledSources: [first.name],
      catalogueOriginForTests: 'http://127.0.0.1:4100',
    });
    expect(list).toMatchObject({ origin: CATALOGUE_ORIGIN, catalogue: true });
    expect(list.sources.map((source) => source.name)).toEqual(catalogueEntries().map((entry) => entry.name));
    expect(list.sources[0]?.enabled).toBe(false);
    for (const source of list.sources) {
      const urls = [(source as { baseUrl?: string }).baseUrl, (source as { url?: string }).url].filter(Boolean);
      for (const url of urls) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:4100\//);
    }
    // Without the test origin the real hosts stay.
    const real = await loadSourceList({ sourcesFile: NO_FILE, disabledSources: [] });
    expect(real.sources.every((source) => !JSON.stringify(source).includes('127.0.0.1'))).toBe(true);
  });

  it('a sources file (here inline) replaces the catalogue entirely; its entries run whoever reads, unless a requirement is missing', async () => {
    const sourcesJson = JSON.stringify({
      sources: [
        { name: 'mine', kind: 'arxiv', categories: ['cs.LG'], fields: ['computer-science'] },
        { name: 'alex', kind: 'openalex', topics: ['T10036'], requires: ['openalex-key'] },
      ],
    });
    const settings = defaultIngestSettings({ sourcesFile: NO_FILE, sourcesJson });
    const resolved = await resolveSources({ repositories: repositories(), settings });
    expect(resolved).toMatchObject({ origin: 'INGEST_SOURCES_JSON', catalogue: false });
    expect(resolved.entries.map((entry) => [entry.source.name, entry.active, entry.why])).toEqual([
      ['mine', true, 'listed in INGEST_SOURCES_JSON'],
      ['alex', false, 'needs OPENALEX_API_KEY'],
    ]);
    const withKey = await resolveSources({
      repositories: repositories(),
      settings: { ...settings, openAlexApiKey: 'k' },
    });
    expect(withKey.active.map((source) => source.name)).toEqual(['mine', 'alex']);
  });

  it('counts readers per entry: verified and not disabled, a reader naming two of its fields once', async () => {
    const users = new UserRepository(database.db);
    await users.create({
      email: 'a@example.org',
      isEmailVerified: true,
      researchFields: ['chemistry', 'physics-astronomy'],
    });
    await users.create({ email: 'b@example.org', isEmailVerified: true, researchFields: ['chemistry'] });
    const sourcesJson = JSON.stringify({
      sources: [
        { name: 'both', kind: 'arxiv', categories: ['physics.chem-ph'], fields: ['chemistry', 'physics-astronomy'] },
      ],
    });
    const resolved = await resolveSources({
      repositories: repositories(),
      settings: defaultIngestSettings({ sourcesFile: NO_FILE, sourcesJson }),
    });
    expect(resolved.entries[0]).toMatchObject({ readers: 2, readerFields: ['chemistry', 'physics-astronomy'] });
    expect(resolved.readersByField.get('chemistry')).toBe(2);
    expect(resolved.readersByField.get('physics-astronomy')).toBe(1);
  });
});
