import { STEM_CASE_CORPUS, STEM_CASE_READER } from '@radar/ai/testing';
import {
  createIngestRepositories,
  JournalRepository,
  NewsRepository,
  PaperRepository,
  UserRepository,
} from '@radar/db';
import { loadDemoCorpus } from '@radar/ingest';
import { fieldOrderScore, OUT_OF_FIELD_FACTOR } from '@radar/recommend';
import { calendarDayIn, DEFAULT_TIME_ZONE } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * The research-field rule through the API, on the real runtime with the built-in model fitted on the
 * corpus: the demo corpus (21 fields) plus the STEM case of issue 20 (a gut stem-cell / IBD biologist
 * against education papers about STEM, medicine papers on IBD, plant "stem" papers). The medicine papers
 * carry no fields of their own: they get 'medicine' from their journal's subject areas, joined when ranking.
 */

const OUTSIDE = '不在你选择的研究领域内';
const ALL = '?excluded_jcr=&date_filter=不限&similarity_threshold=0';

interface Recommended {
  id: string;
  title: string;
  similarity_score: number;
  reason: { text: string; terms: string[] } | null;
}

let runtime: TestRuntime;
const fieldsByTitle = new Map<string, string[]>();
const headersOf = new Map<string, Record<string, string>>();

const papersFor = async (who: string, query = ALL) => {
  const response = await runtime.app.inject({
    method: 'GET',
    url: `/api/auth/recommendations/papers/${query}`,
    headers: headersOf.get(who),
  });
  expect(response.statusCode).toBe(200);
  return response.json() as { recommendations: Recommended[]; filtered_out: Record<string, number> };
};

/** The order the rule promises: by similarity, those marked outside the reader's fields at half weight. */
function expectRuleOrder(items: Recommended[]) {
  const ranks = items.map((item) =>
    fieldOrderScore(item.similarity_score, item.reason?.text.includes(OUTSIDE) ? 'outside' : 'inside'),
  );
  for (let i = 1; i < ranks.length; i++) expect(ranks[i]).toBeLessThanOrEqual((ranks[i - 1] as number) + 1e-9);
}

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
  const { db } = runtime.database;
  await loadDemoCorpus(createIngestRepositories(db));
  const [gutJournal] = await new JournalRepository(db).applyTierChanges(
    [],
    [
      {
        title: 'Journal of Gut Medicine (test)',
        titleNormalized: 'journal of gut medicine test',
        tier: 1,
        tierSource: 'test',
        researchFields: ['medicine'],
      },
    ],
  );
  const today = calendarDayIn(new Date(), DEFAULT_TIME_ZONE);
  await new PaperRepository(db).insertMany(
    STEM_CASE_CORPUS.map((doc) => {
      fieldsByTitle.set(doc.title, doc.fields);
      const viaJournal = doc.fields.includes('medicine');
      return {
        title: doc.title,
        authors: ['Test Author'],
        abstract: doc.abstract,
        journalId: viaJournal ? (gutJournal ?? null) : null,
        journalName: viaJournal ? 'Journal of Gut Medicine (test)' : 'Test Journal',
        jcrTier: viaJournal ? 1 : null,
        url: `https://example.org/${doc.key}`,
        publishedAt: today,
        researchFields: viaJournal ? [] : doc.fields,
        source: 'test',
      };
    }),
  );
  await new NewsRepository(db).insertMany([
    {
      title: 'University launches summer STEM camp for girls',
      content:
        'The School of Education opens a STEM summer camp where girls build robots and learn coding. STEM outreach aims to raise interest in STEM careers.',
      url: 'https://example.org/news/stem-camp',
      urlNormalized: 'example.org/news/stem-camp',
      publishDate: new Date(),
      researchFields: ['education'],
      source: 'test',
    },
    {
      title: 'Gut stem cells repair the inflamed colon, study finds',
      content:
        'Researchers show that intestinal stem cells regenerate the epithelium in colitis, pointing to new therapies for inflammatory bowel disease.',
      url: 'https://example.org/news/gut-stem-cells',
      urlNormalized: 'example.org/news/gut-stem-cells',
      publishDate: new Date(),
      researchFields: ['biology'],
      source: 'test',
    },
  ]);
  const { embeddings } = runtime.parts.ai;
  await embeddings.refitIfDue({ force: true });
  const users = new UserRepository(db);
  for (const [who, fields] of [
    ['biologist', STEM_CASE_READER.fields],
    ['no-fields', []],
    ['wrong-field', [...STEM_CASE_READER.fields, 'education']],
  ] as const) {
    const user = await users.create({
      email: `${who}@example.org`,
      researchSummaryEn: STEM_CASE_READER.summary,
      researchFields: [...fields],
    });
    headersOf.set(who, { authorization: `Bearer ${await runtime.app.signIn(user)}` });
  }
  await embeddings.reembedStale();
}, 120_000);

afterAll(async () => {
  await runtime?.stop();
});

describe('the research-field rule in paper recommendations', () => {
  it('never ranks an education paper about STEM above a medicine paper for a stem-cell / IBD biologist', async () => {
    const { recommendations } = await papersFor('biologist', `${ALL}&top_k=12`);
    expect(recommendations).toHaveLength(12);
    const fieldsAt = recommendations.map((paper) => fieldsByTitle.get(paper.title) ?? []);
    const medicine = fieldsAt.flatMap((fields, i) => (fields.includes('medicine') ? [i] : []));
    const education = fieldsAt.flatMap((fields, i) => (fields.includes('education') ? [i] : []));
    expect(medicine.length).toBeGreaterThanOrEqual(4);
    for (const e of education) expect(e).toBeGreaterThan(Math.max(...medicine));
    // The reader's own topic leads.
    expect(fieldsByTitle.get(recommendations[0]?.title ?? '')).toBeDefined();
  });

  it('orders by the rule, shows the raw similarity and says when a paper is outside the reader fields', async () => {
    const { recommendations } = await papersFor('biologist', `${ALL}&top_k=50`);
    expectRuleOrder(recommendations);
    const outside = recommendations.filter((paper) => paper.reason?.text.includes(OUTSIDE));
    expect(outside.length).toBeGreaterThan(0);
    for (const paper of outside) {
      const fields = fieldsByTitle.get(paper.title);
      if (fields) expect(fields.some((field) => STEM_CASE_READER.fields.includes(field))).toBe(false);
    }
    const stemCamp = recommendations.find((paper) =>
      paper.title.startsWith('Project-based learning in integrated STEM'),
    );
    if (stemCamp) expect(stemCamp.reason?.text).toContain(`${OUTSIDE}（教育学）`);
    // Medicine papers are in the reader's fields through their journal's subject areas.
    for (const paper of recommendations.filter((p) => fieldsByTitle.get(p.title)?.includes('medicine'))) {
      expect(paper.reason?.text ?? '').not.toContain(OUTSIDE);
    }
    // The shown similarity is the raw one: the same as the similarity endpoint's.
    const ids = recommendations.slice(0, 30).map((paper) => paper.id);
    const raw = await runtime.app.inject({
      method: 'GET',
      url: `/api/auth/recommendations/similarity/?ids=${ids.join(',')}`,
      headers: headersOf.get('biologist'),
    });
    const byId = new Map(
      (raw.json().results as { id: string; similarity_score: number }[]).map((r) => [r.id, r.similarity_score]),
    );
    for (const paper of recommendations.slice(0, 30))
      expect(paper.similarity_score).toBeCloseTo(byId.get(paper.id) ?? NaN, 6);
  });

  it('leaves a reader without fields untouched: plain similarity order, no outside reason', async () => {
    const { recommendations } = await papersFor('no-fields', `${ALL}&top_k=40`);
    const scores = recommendations.map((paper) => paper.similarity_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(recommendations.some((paper) => paper.reason?.text.includes(OUTSIDE))).toBe(false);
  });

  it('keeps the threshold and the filtered-out count about the raw similarity: the rule only reorders', async () => {
    const query = '?excluded_jcr=&date_filter=不限&similarity_threshold=0.2&top_k=50';
    const [withFields, without] = await Promise.all([papersFor('biologist', query), papersFor('no-fields', query)]);
    expect(withFields.filtered_out).toEqual(without.filtered_out);
    const idsOf = (body: { recommendations: Recommended[] }) => body.recommendations.map((p) => p.id).sort();
    expect(idsOf(withFields)).toEqual(idsOf(without));
    for (const paper of withFields.recommendations) expect(paper.similarity_score).toBeGreaterThanOrEqual(0.2);
  });

  it('does not collapse when the reader ticks a wrong field: only that field is no longer demoted', async () => {
    const { recommendations } = await papersFor('wrong-field', `${ALL}&top_k=12`);
    const fieldsAt = recommendations.map((paper) => fieldsByTitle.get(paper.title) ?? []);
    // The reader's own topic still leads, and the medicine papers are still shown.
    expect(fieldsAt.filter((fields) => fields.includes('medicine')).length).toBeGreaterThanOrEqual(3);
    expect(fieldsAt[0]?.some((field) => STEM_CASE_READER.fields.includes(field))).toBe(true);
    expect(recommendations.some((paper) => paper.reason?.text.includes('（教育学）'))).toBe(false);
  });

  it('keeps acronyms apart from words: STEM papers share no "stem" term with a stem-cell summary', async () => {
    // Untiered papers of today: the case's non-medicine papers (and a few demo preprints), all shown.
    const { recommendations } = await papersFor(
      'no-fields',
      `?excluded_jcr=1,2,3,4&date_filter=${encodeURIComponent('一天内')}&similarity_threshold=0&top_k=50`,
    );
    const education = recommendations.filter((paper) => fieldsByTitle.get(paper.title)?.includes('education'));
    expect(education.length).toBeGreaterThan(0);
    for (const paper of education) {
      expect((paper.reason?.terms ?? []).map((term) => term.toLowerCase())).not.toContain('stem');
    }
    const ownTopic = recommendations.find((paper) => paper.title.startsWith('Lgr5+ intestinal stem cells'));
    expect(ownTopic?.reason?.terms.join(' ').toLowerCase()).toContain('stem cell');
  });
});

describe('the research-field rule in news recommendations', () => {
  it('demotes news outside the reader fields and says so, the same rule as papers', async () => {
    const response = await runtime.app.inject({
      method: 'GET',
      url: '/api/news/recommendations/?date_filter=不限&similarity_threshold=0&top_k=50&page_size=50',
      headers: headersOf.get('biologist'),
    });
    expect(response.statusCode).toBe(200);
    const items = response.json().data as Recommended[];
    expectRuleOrder(items);
    const camp = items.find((item) => item.title.startsWith('University launches summer STEM camp'));
    const gut = items.findIndex((item) => item.title.startsWith('Gut stem cells repair'));
    expect(gut).toBe(0);
    if (camp) expect(camp.reason?.text).toContain(`${OUTSIDE}（教育学）`);
    expect(OUT_OF_FIELD_FACTOR).toBeLessThan(1);
  });
});
