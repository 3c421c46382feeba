import { EmbeddingRepository, PaperRepository, sql, UserRepository, VectorRepository } from '@radar/db';
import { calendarDayIn, DEFAULT_TIME_ZONE } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * GET /api/auth/recommendations/papers/ and .../similarity/ over HTTP on the real runtime. The corpus is
 * built so the right answer is known: the profile vector is e0 and paper i's vector is
 * cos(θi)·e0 + sin(θi)·e1, so its similarity is exactly cos(θi).
 */

const DAY_MS = 86_400_000;
/** The calendar day `days` days ago in the readers' zone (the default), whose days the windows count. */
const daysAgo = (days: number) => calendarDayIn(new Date(Date.now() - days * DAY_MS), DEFAULT_TIME_ZONE);

interface CorpusPaper {
  title: string;
  similarity: number;
  age: number;
  tier: number | null;
}

// Similarities descending by title letter; ages and tiers chosen to exercise every filter.
const CORPUS: CorpusPaper[] = [
  { title: 'A recent tier-1 paper', similarity: 0.95, age: 1, tier: 1 },
  { title: 'B recent preprint', similarity: 0.9, age: 2, tier: null },
  { title: 'C recent tier-4 paper', similarity: 0.85, age: 2, tier: 4 },
  { title: 'D two-week-old tier-2 paper', similarity: 0.8, age: 14, tier: 2 },
  { title: 'E recent tier-3 paper', similarity: 0.75, age: 3, tier: 3 },
  { title: 'F recent tier-2 paper', similarity: 0.7, age: 5, tier: 2 },
  { title: 'G old preprint', similarity: 0.65, age: 200, tier: null },
  { title: 'H recent weak preprint', similarity: 0.25, age: 1, tier: null },
  { title: 'I recent unrelated tier-1 paper', similarity: 0.05, age: 4, tier: 1 },
];

let runtime: TestRuntime;
let dimension: number;
let headers: Record<string, string>;
let otherHeaders: Record<string, string>;
let emptyHeaders: Record<string, string>;
let userId: string;
const idByTitle = new Map<string, number>();

const unit = (index: number) => Array.from({ length: dimension }, (_, i) => (i === index ? 1 : 0));
const mix = (similarity: number) =>
  Array.from({ length: dimension }, (_, i) =>
    i === 0 ? similarity : i === 1 ? Math.sqrt(Math.max(0, 1 - similarity ** 2)) : 0,
  );

async function signUp(email: string, summary: string) {
  const users = new UserRepository(runtime.database.db);
  const user = await users.create({ email, researchSummaryEn: summary });
  return { user, headers: { authorization: `Bearer ${await runtime.app.signIn(user)}` } };
}

const recommend = (query: string, as = headers) =>
  runtime.app.inject({ method: 'GET', url: `/api/auth/recommendations/papers/${query}`, headers: as });

const titles = (body: { recommendations: { title: string }[] }) => body.recommendations.map((paper) => paper.title[0]);

beforeAll(async () => {
  // No worker: its start-up re-embedding could replace the constructed vectors with ones of the texts
  // (seen once in CI: every similarity 0 and the filters' answers empty).
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
  const model = await runtime.parts.ai.embeddings.activeModel();
  dimension = model.dimension;
  const papers = new PaperRepository(runtime.database.db);
  const rows = await papers.insertMany(
    CORPUS.map((paper, index) => ({
      title: paper.title,
      authors: ['Ada Lovelace', 'Alan Turing'],
      abstract: `Abstract of ${paper.title}`,
      journalName: paper.tier ? `Journal of tier ${paper.tier}` : 'arXiv',
      jcrTier: paper.tier,
      doi: index % 2 ? `10.1234/paper.${index}` : null,
      url: index % 2 ? '' : `https://example.org/paper/${index}`,
      publishedAt: daysAgo(paper.age),
      source: 'test',
    })),
  );
  for (const row of rows) idByTitle.set(row.title, row.id);
  // Where the tiers come from: A's journal from SCImago's 2024 quartiles, F's from OpenAlex, D's from a
  // table the operator imported without a year; the others have no journal row.
  for (const [title, system, year] of [
    ['A recent tier-1 paper', 'scimago', 2024],
    ['F recent tier-2 paper', 'openalex', 2026],
    ['D two-week-old tier-2 paper', 'imported', null],
  ] as const) {
    const paper = CORPUS.find((entry) => entry.title === title);
    await runtime.database.db.execute(sql`
      WITH journal AS (
        INSERT INTO radar.journals (title, title_normalized, tier, tier_source, tier_system, tier_year)
        VALUES (${`Journal of ${title}`}, ${`journal of ${title.toLowerCase()}`}, ${paper?.tier ?? null},
                ${`${system}-${year ?? 'table'}`}, ${system}, ${year})
        RETURNING id)
      UPDATE radar.papers SET journal_id = (SELECT id FROM journal) WHERE id = ${idByTitle.get(title) ?? 0}`);
  }
  const vectors = new VectorRepository(runtime.database.db);
  await vectors.setVectors(
    'papers',
    model.id,
    rows.map((row, index) => ({ id: String(row.id), vector: mix(CORPUS[index]?.similarity ?? 0) })),
  );
  await papers.analyze();

  const reader = await signUp('reader@example.org', 'Quantum error correction with superconducting qubits.');
  userId = reader.user.id;
  headers = reader.headers;
  await vectors.setUserVector(userId, model.id, unit(0));
  const other = await signUp('other@example.org', 'Something else entirely.');
  otherHeaders = other.headers;
  await vectors.setUserVector(other.user.id, model.id, unit(1));
  emptyHeaders = (await signUp('empty@example.org', '')).headers;
});

afterAll(async () => {
  await runtime?.stop();
});

describe('GET /api/auth/recommendations/papers/', () => {
  it('applies the spec defaults: top 20, threshold 0.3, tiers 4 and 3 excluded, one week', async () => {
    const response = await recommend('');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    // A, B, F pass every filter: C is tier 4, E tier 3, D and G too old, H below 0.3, I far below.
    expect(titles(body)).toEqual(['A', 'B', 'F']);
    expect(body).toMatchObject({
      success: true,
      recommendations_count: 3,
      user_id: userId,
      similarity_threshold: 0.3,
      top_k: 20,
      excluded_jcr: [4, 3],
      date_filter: ['一周内'],
      published_since: daysAgo(7),
      unknown_tier_included: true,
    });
    expect(body.notes).toEqual([expect.stringContaining('预印本')]);
    // Of the 9 nearest papers (fewer than top_k exist): D, G by date; C, E by tier; H, I by threshold.
    expect(body.filtered_out).toEqual({ by_date: 2, by_tier: 2, by_threshold: 2 });
    expect(body.filtered_out_count).toBe(6);
  });

  it('returns the Paper fields of the data model with exact similarities', async () => {
    const body = (await recommend('?excluded_jcr=&date_filter=不限&similarity_threshold=0')).json();
    expect(titles(body)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I']);
    for (const paper of body.recommendations) {
      const expected = CORPUS.find((entry) => entry.title === paper.title);
      expect(paper.similarity_score).toBeCloseTo(expected?.similarity ?? -1, 5);
    }
    const [first, second] = body.recommendations;
    expect(first).toMatchObject({
      id: String(idByTitle.get('A recent tier-1 paper')),
      authors: ['Ada Lovelace', 'Alan Turing'],
      abstract: 'Abstract of A recent tier-1 paper',
      date: daysAgo(1),
      year: Number(daysAgo(1).slice(0, 4)),
      journal: 'Journal of tier 1',
      jcr: 1,
      url: 'https://example.org/paper/0',
      llm_summary: null,
      is_favorited: false,
      is_saved: false,
    });
    // No page of its own: the DOI link.
    expect(second).toMatchObject({ jcr: null, doi: '10.1234/paper.1', url: 'https://doi.org/10.1234/paper.1' });
    expect(body.filtered_out_count).toBe(0);
    expect(body.notes).toEqual([]);
  });

  it("says which system each paper's tier comes from, and its year", async () => {
    const body = (await recommend('?excluded_jcr=&date_filter=不限&similarity_threshold=0')).json();
    const byTitle = new Map<string, { jcr: number | null; jcr_source: unknown; jcr_year: unknown }>(
      body.recommendations.map((paper: { title: string }) => [paper.title[0], paper]),
    );
    expect(byTitle.get('A')).toMatchObject({ jcr: 1, jcr_source: 'scimago', jcr_year: 2024 });
    expect(byTitle.get('F')).toMatchObject({ jcr: 2, jcr_source: 'openalex', jcr_year: 2026 });
    expect(byTitle.get('D')).toMatchObject({ jcr: 2, jcr_source: 'imported', jcr_year: null });
    // A preprint has neither; a tier with no journal row behind it has no known system.
    expect(byTitle.get('B')).toMatchObject({ jcr: null, jcr_source: null, jcr_year: null });
    expect(byTitle.get('C')).toMatchObject({ jcr: 4, jcr_source: null, jcr_year: null });
  });

  it('takes the widest of the date filters and keeps papers of unknown tier', async () => {
    const body = (await recommend(`?date_filter=${encodeURIComponent('一天内,一月内')}&excluded_jcr=1,2,3,4`)).json();
    // Every tier excluded: only preprints remain, within 30 days, above 0.3.
    expect(titles(body)).toEqual(['B']);
    expect(body.published_since).toBe(daysAgo(30));
    expect(body.excluded_jcr).toEqual([4, 3, 2, 1]);
    const oneDay = (await recommend(`?date_filter=${encodeURIComponent('一天内')}&similarity_threshold=0.2`)).json();
    expect(titles(oneDay)).toEqual(['A', 'H']);
  });

  it('cuts at top_k and at the threshold, including one nothing meets', async () => {
    const top5 = (await recommend('?top_k=5&excluded_jcr=&date_filter=不限&similarity_threshold=0')).json();
    expect(titles(top5)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(top5.filtered_out_count).toBe(0);
    const none = (await recommend('?similarity_threshold=1&excluded_jcr=&date_filter=不限')).json();
    expect(none.recommendations).toEqual([]);
    expect(none.recommendations_count).toBe(0);
    expect(none.filtered_out).toEqual({ by_date: 0, by_tier: 0, by_threshold: CORPUS.length });
  });

  it('加载更多: exclude_ids leaves out what the page shows, has_more says whether more follow', async () => {
    const query = '?top_k=5&excluded_jcr=&date_filter=不限&similarity_threshold=0';
    const first = (await recommend(query)).json();
    expect(titles(first)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(first.has_more).toBe(true);
    const shown = first.recommendations.map((paper: { id: string }) => paper.id);
    const next = (await recommend(`${query}&exclude_ids=${shown.join(',')}`)).json();
    expect(next.recommendations).toHaveLength(Math.min(5, CORPUS.length - 5));
    expect(next.recommendations.some((paper: { id: string }) => shown.includes(paper.id))).toBe(false);
    const all = [...shown, ...next.recommendations.map((paper: { id: string }) => paper.id)];
    const rest = (await recommend(`${query}&exclude_ids=${all.join(',')}`)).json();
    expect(rest.recommendations).toHaveLength(Math.max(0, CORPUS.length - 10));
    expect(rest.has_more).toBe(false);
    for (const bad of ['abc', '1,-2', '1.5', Array.from({ length: 501 }, (_, i) => i + 1).join(',')]) {
      const refused = await recommend(`${query}&exclude_ids=${bad}`);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.body).toContain('exclude_ids 必须是逗号分隔的编号');
    }
    expect((await recommend(`${query}&include_rated=maybe`)).statusCode).toBe(400);
  });

  it('shows the caller’s own favourite and saved state', async () => {
    const paperId = idByTitle.get('A recent tier-1 paper');
    await runtime.database.pool.query(
      'INSERT INTO radar.user_article_states (user_id, paper_id, is_favorited, is_saved) VALUES ($1, $2, true, false)',
      [userId, paperId],
    );
    const mine = (await recommend('')).json();
    expect(mine.recommendations[0]).toMatchObject({ id: String(paperId), is_favorited: true, is_saved: false });
    const theirs = (await recommend('?excluded_jcr=&date_filter=不限&similarity_threshold=0', otherHeaders)).json();
    const seenByOther = theirs.recommendations.find((paper: { id: string }) => paper.id === String(paperId));
    expect(seenByOther).toMatchObject({ is_favorited: false });
  });

  it('answers research_direction_not_set from the shared error handler without a summary', async () => {
    const response = await recommend('', emptyHeaders);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'RESEARCH_DIRECTION_NOT_SET',
      message: '请先设置研究方向',
      success: false,
      error: '请先设置研究方向',
      error_type: 'research_direction_not_set',
      details: expect.stringContaining('英文研究摘要'),
    });
  });

  it('computes a missing profile vector on the spot', async () => {
    const { user, headers: fresh } = await signUp('fresh@example.org', 'Superconducting qubits and error correction.');
    expect(user.profileEmbeddingModelId).toBeNull();
    const response = await recommend('?excluded_jcr=&date_filter=不限&similarity_threshold=0', fresh);
    expect(response.statusCode).toBe(200);
    expect(response.json().recommendations.length).toBe(CORPUS.length);
    const model = await new EmbeddingRepository(runtime.database.db).getActiveModel();
    expect((await new UserRepository(runtime.database.db).findById(user.id))?.profileEmbeddingModelId).toBe(model?.id);
  });

  it.each([
    ['?top_k=4', 'top_k 必须是 5 到 50 之间的整数'],
    ['?top_k=51', 'top_k 必须是 5 到 50 之间的整数'],
    ['?top_k=10.5', 'top_k 必须是 5 到 50 之间的整数'],
    ['?top_k=abc', 'top_k 必须是 5 到 50 之间的整数'],
    ['?similarity_threshold=1.5', 'similarity_threshold 必须是 0 到 1 之间的数'],
    ['?similarity_threshold=-0.1', 'similarity_threshold 必须是 0 到 1 之间的数'],
    ['?similarity_threshold=NaN', 'similarity_threshold 必须是 0 到 1 之间的数'],
    ['?excluded_jcr=5', 'excluded_jcr 只能包含 1-4 的分区'],
    ['?excluded_jcr=Q1', 'excluded_jcr 只能包含 1-4 的分区'],
    [`?date_filter=${encodeURIComponent('明天')}`, 'date_filter 只能是 一天内、两天内、三天内、一周内、一月内、不限'],
  ])('refuses %s with a clear message', async (query, message) => {
    const response = await recommend(query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining(message) });
  });

  it('needs a login', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/auth/recommendations/papers/' });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/auth/recommendations/similarity/', () => {
  const similarity = (query: string, as = headers) =>
    runtime.app.inject({ method: 'GET', url: `/api/auth/recommendations/similarity/${query}`, headers: as });

  it('gives the similarity of given papers to the profile, listing unknown ids', async () => {
    const a = idByTitle.get('A recent tier-1 paper');
    const h = idByTitle.get('H recent weak preprint');
    const body = (await similarity(`?ids=${h},${a},999999`)).json();
    expect(body.results.map((row: { id: string }) => row.id)).toEqual([String(h), String(a)]);
    expect(body.results[0].similarity_score).toBeCloseTo(0.25, 5);
    expect(body.results[1].similarity_score).toBeCloseTo(0.95, 5);
    expect(body.not_found).toEqual(['999999']);
    expect(body.text_similarity).toBeNull();
  });

  it('gives the similarity of a text, and ranks a related text above an unrelated one', async () => {
    const { headers: textReader } = await signUp(
      'text@example.org',
      'Superconducting qubits and quantum error correction.',
    );
    const related = (
      await similarity(`?text=${encodeURIComponent('quantum error correction for superconducting qubits')}`, textReader)
    ).json();
    const unrelated = (
      await similarity(`?text=${encodeURIComponent('medieval poetry and manuscripts')}`, textReader)
    ).json();
    expect(related.results).toEqual([]);
    expect(related.text_similarity).toBeGreaterThan(unrelated.text_similarity);
  });

  it.each([
    ['', '请提供 ids 或 text 其中之一'],
    ['?ids=1&text=x', '请提供 ids 或 text 其中之一'],
    ['?ids=1,abc', 'ids 必须是以逗号分隔的论文编号'],
  ])('refuses %s', async (query, message) => {
    const response = await similarity(query);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('answers research_direction_not_set without a summary', async () => {
    const response = await similarity('?ids=1', emptyHeaders);
    expect(response.statusCode).toBe(400);
    expect(response.json().error_type).toBe('research_direction_not_set');
  });
});
