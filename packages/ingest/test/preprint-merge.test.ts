import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createIngestRepositories, PaperRepository, sql } from '@radar/db';
import { createTestDatabase, sharedFixturesDir, type TestDatabase } from '@radar/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importSourceFile } from '../src/pipeline/run-source';
import { defaultIngestSettings } from '../src/pipeline/settings';
import { importTierTableFile } from '../src/tiers/tier-import';
import type { SourceKind } from '../src/types';

/**
 * A preprint follows its published version, whichever arrives first: through the ingest pipeline
 * (files read by the adapters, stored by the content store) into a real database, the two records end
 * as one card with the journal, its tier, the journal's page as the link and the preprint's page
 * beside it. Real recorded payloads are read in place from ../shared/fixtures/real; the other half of
 * each pair is shaped exactly like a real answer (test/fixtures/ingest/preprints/README.md).
 */

const REAL = path.join(sharedFixturesDir(), 'real');
const hasReal = fs.existsSync(REAL);
if (!hasReal) console.warn(`skipping the preprint merge suite: ${REAL} does not exist (CI has it)`);
const SHAPED = fileURLToPath(new URL('./fixtures/ingest/preprints/', import.meta.url));

const ARXIV_REAL = path.join(REAL, 'arxiv/rsxiv_query.xml');
const CROSSREF_PEERJ_REAL = path.join(REAL, 'crossref/crossref_journal_2167-8359_works_query_ecology_20items.json');
const OPENALEX_REAL = path.join(REAL, 'openalex/openalex_works_search_full_schema_3results_fastpaper.json');

let database: TestDatabase;
let tmp: string;

type Row = {
  id: number;
  title: string;
  doi: string | null;
  arxiv_id: string | null;
  url: string;
  journal_name: string;
  jcr_tier: number | null;
  duplicate_of: number | null;
  source_ids: Record<string, string>;
};

async function load(kind: SourceKind, filePath: string) {
  const summary = await importSourceFile(
    { repositories: createIngestRepositories(database.db), settings: defaultIngestSettings() },
    { kind, filePath, source: undefined },
  );
  return summary.counts;
}

async function papersWhere(where: ReturnType<typeof sql>): Promise<Row[]> {
  const result = await database.db.execute<Row>(
    sql`SELECT id::int AS id, title, doi, arxiv_id, url, journal_name, jcr_tier, duplicate_of::int AS duplicate_of,
          source_ids FROM radar.papers WHERE ${where} ORDER BY id`,
  );
  return result.rows;
}

/** The links the API shows on the card (PaperView.url and preprintUrl). */
async function cardLinks(id: number) {
  const [view] = await new PaperRepository(database.db).findViews([id], randomUUID());
  return { url: view?.url, preprintUrl: view?.preprintUrl, journal: view?.journalName, tier: view?.jcrTier };
}

/** A copy of a shaped payload with some fields changed, in the temporary directory. */
function variant(name: string, change: (document: { message: Record<string, unknown> }) => void): string {
  const document = JSON.parse(fs.readFileSync(path.join(SHAPED, name), 'utf8'));
  change(document);
  const target = path.join(tmp, `variant-${name}`);
  fs.writeFileSync(target, JSON.stringify(document));
  return target;
}

beforeAll(async () => {
  database = await createTestDatabase();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-preprints-'));
  // Tiers of the journals involved (an operator's table, in the plain issn,title,tier format).
  const tiers = path.join(tmp, 'tiers.csv');
  fs.writeFileSync(
    tiers,
    [
      'issn,title,tier',
      '2470-0010,Physical Review D,1',
      '2167-8359,PeerJ,2',
      '2096-0433,Computational Visual Media,1',
      '1434-6001,The European Physical Journal A,2',
    ].join('\n'),
  );
  await importTierTableFile(createIngestRepositories(database.db), tiers);
});

afterAll(async () => {
  await database?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

beforeEach(async () => {
  await database.db.execute(sql`DELETE FROM radar.papers`);
});

describe.skipIf(!hasReal)('a preprint follows its published version', () => {
  it('arXiv entry naming its DOI, then the journal record: the journal, its tier, both links', async () => {
    await load('arxiv', ARXIV_REAL);
    const [preprint] = await papersWhere(sql`arxiv_id = '2102.00018'`);
    expect(preprint).toMatchObject({ doi: '10.1103/physrevd.103.096005', jcr_tier: null });
    expect(preprint?.url).toMatch(/arxiv\.org\/abs\/2102\.00018/);

    const counts = await load('crossref', path.join(SHAPED, 'crossref-physrevd.103.096005.json'));
    expect(counts).toMatchObject({ added: 0, updated: 1 });
    const rows = await papersWhere(sql`title ILIKE 'Self-consistent determination of proton%'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: preprint?.id, journal_name: 'Physical Review D', jcr_tier: 1 });
    expect(await cardLinks(preprint?.id ?? 0)).toEqual({
      url: 'https://link.aps.org/doi/10.1103/PhysRevD.103.096005',
      preprintUrl: preprint?.url,
      journal: 'Physical Review D',
      tier: 1,
    });
  });

  it('the same pair the other way round: the arXiv entry joins the stored journal record', async () => {
    await load('crossref', path.join(SHAPED, 'crossref-physrevd.103.096005.json'));
    const counts = await load('arxiv', ARXIV_REAL);
    expect(counts.added).toBe(9); // ten entries, one of them the stored paper
    const rows = await papersWhere(sql`title ILIKE 'Self-consistent determination of proton%'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ arxiv_id: '2102.00018', journal_name: 'Physical Review D', jcr_tier: 1 });
    const card = await cardLinks(rows[0]?.id ?? 0);
    expect(card.url).toBe('https://link.aps.org/doi/10.1103/PhysRevD.103.096005');
    expect(card.preprintUrl).toMatch(/^https?:\/\/arxiv\.org\/abs\/2102\.00018/);
  });

  it('a Crossref journal record naming its preprint (has-preprint), then the preprint: found by that DOI', async () => {
    await load('crossref', CROSSREF_PEERJ_REAL);
    const [journal] = await papersWhere(sql`doi = '10.7717/peerj.3162'`);
    expect(journal?.source_ids.preprintDoi).toBe('10.7287/peerj.preprints.2512');

    // The preprint's own record without its relation: only the DOI the journal named links them.
    const bare = variant('crossref-peerj.preprints.2512.json', (document) => {
      document.message.relation = {};
    });
    expect(await load('crossref', bare)).toMatchObject({ added: 0, updated: 1 });
    const rows = await papersWhere(sql`title ILIKE 'The genomic sequence of Exiguobacterium%'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: journal?.id, doi: '10.7717/peerj.3162', journal_name: 'PeerJ', jcr_tier: 2 });
    expect(await cardLinks(journal?.id ?? 0)).toMatchObject({
      url: 'https://peerj.com/articles/3162',
      preprintUrl: 'https://peerj.com/preprints/2512v1',
    });
  });

  it('the PeerJ preprint first (is-preprint-of), then the real journal page of records', async () => {
    await load('crossref', path.join(SHAPED, 'crossref-peerj.preprints.2512.json'));
    const [preprint] = await papersWhere(sql`doi = '10.7287/peerj.preprints.2512'`);
    expect(preprint).toMatchObject({ jcr_tier: null, url: 'https://peerj.com/preprints/2512v1' });

    await load('crossref', CROSSREF_PEERJ_REAL);
    const rows = await papersWhere(sql`title ILIKE 'The genomic sequence of Exiguobacterium%'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: preprint?.id, doi: '10.7717/peerj.3162', journal_name: 'PeerJ', jcr_tier: 2 });
    expect(rows[0]?.source_ids.preprintDoi).toBe('10.7287/peerj.preprints.2512');
    expect(await cardLinks(preprint?.id ?? 0)).toMatchObject({
      url: 'https://peerj.com/articles/3162',
      preprintUrl: 'https://peerj.com/preprints/2512v1',
    });
  });

  it('an OpenAlex journal work with an arXiv location, and the arXiv entry, in either order', async () => {
    await load('openalex', OPENALEX_REAL);
    await load('arxiv', path.join(SHAPED, 'arxiv-api-2111.07624.xml'));
    let rows = await papersWhere(sql`arxiv_id = '2111.07624' OR doi = '10.1007/s41095-022-0271-y'`);
    expect(rows).toHaveLength(1);
    const first = await cardLinks(rows[0]?.id ?? 0);
    expect(first).toEqual({
      url: 'https://doi.org/10.1007/s41095-022-0271-y',
      preprintUrl: expect.stringMatching(/^https:\/\/arxiv\.org\/abs\/2111\.07624/),
      journal: 'Computational Visual Media',
      tier: 1,
    });

    await database.db.execute(sql`DELETE FROM radar.papers`);
    await load('arxiv', path.join(SHAPED, 'arxiv-api-2111.07624.xml'));
    await load('openalex', OPENALEX_REAL);
    rows = await papersWhere(sql`arxiv_id = '2111.07624' OR doi = '10.1007/s41095-022-0271-y'`);
    expect(rows).toHaveLength(1);
    expect(await cardLinks(rows[0]?.id ?? 0)).toEqual({ ...first, preprintUrl: expect.stringMatching(/2111\.07624/) });
  });

  it('no identifier in common: the same normalised title and first author merge them', async () => {
    await load('arxiv', ARXIV_REAL);
    const [preprint] = await papersWhere(sql`arxiv_id = '1606.02159'`);
    expect(preprint?.doi).toBeNull();
    await load('crossref', path.join(SHAPED, 'crossref-epja-proton-radius.json'));
    const rows = await papersWhere(sql`title ILIKE 'Avoiding common pitfalls%'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: preprint?.id,
      doi: '10.5555/epja.2016.12219',
      journal_name: 'The European Physical Journal A',
      jcr_tier: 2,
    });
    expect(await cardLinks(preprint?.id ?? 0)).toMatchObject({
      url: 'https://link.springer.com/article/10.5555/epja.2016.12219',
      preprintUrl: preprint?.url,
    });
  });
});
