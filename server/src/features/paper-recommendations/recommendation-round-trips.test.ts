import {
  InterestRepository,
  KeywordRepository,
  LearningRepository,
  NewsRepository,
  OwnWorkRepository,
  PaperRepository,
  sql,
  UserRepository,
  VectorRepository,
} from '@radar/db';
import { learnProfile } from '@radar/jobs';
import { calendarDayIn, DEFAULT_TIME_ZONE } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * Database round trips of one recommendation request (a count, not a time): the context query, the
 * candidate search with its settings and the freshness line in one message, the cards. Measured on the
 * pool's query counter (DatabaseHandle.roundTrips) with the heaviest path switched on: a learned profile
 * (learned scores, the liked paper closest to each), research fields (the field rule), keywords,
 * dismissed items and the reader's own works (never recommended back to them); and for a reader who
 * follows an author (the section 关注的作者: follows, candidates and cards within the same three).
 */

const DAY_MS = 86_400_000;
/** The calendar day `days` ago in the readers' zone, whose calendar days the date windows count. */
const daysAgo = (days: number) => calendarDayIn(new Date(Date.now() - days * DAY_MS), DEFAULT_TIME_ZONE);

let runtime: TestRuntime;
let dimension: number;
let modelId: number;
let headers: Record<string, string>;
let userId: string;
/** A paper the reader wrote (seeded from their works), near the top of the corpus by similarity. */
let ownWorkId: number;

const unit = (index: number) => Array.from({ length: dimension }, (_, i) => (i === index ? 1 : 0));
const mix = (similarity: number, side: number) =>
  Array.from({ length: dimension }, (_, i) =>
    i === 0 ? similarity : i === side ? Math.sqrt(Math.max(0, 1 - similarity ** 2)) : 0,
  );

/** The round trips of one GET, after a first one warmed the per-process caches (estimates, term weights). */
async function roundTripsOf(url: string): Promise<{ count: number; body: Record<string, unknown> }> {
  const warm = await runtime.app.inject({ method: 'GET', url, headers });
  expect(warm.statusCode, warm.body).toBe(200);
  // The rate limits' counters are not the request's work: in Redis with REDIS_URL, in memory in embedded
  // mode, in the database with PostgreSQL alone (counted apart there).
  const trips = () => runtime.database.roundTrips.count - runtime.database.roundTrips.rateLimitCount;
  const before = trips();
  const response = await runtime.app.inject({ method: 'GET', url, headers });
  const count = trips() - before;
  expect(response.statusCode, response.body).toBe(200);
  return { count, body: response.json() };
}

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
  const model = await runtime.parts.ai.embeddings.activeModel();
  dimension = model.dimension;
  modelId = model.id;
  const papers = new PaperRepository(runtime.database.db);
  const rows = await papers.insertMany(
    Array.from({ length: 12 }, (_, index) => ({
      title: `Graph neural networks for proteins, part ${index + 1}`,
      abstract: 'Graph neural networks predict protein structure and molecular dynamics.',
      authors: ['Ada Lovelace'],
      journalName: 'Journal of Tests',
      jcrTier: 2,
      publishedAt: daysAgo(3),
      researchFields: index % 2 ? ['computer-science'] : ['biology'],
      source: 'test',
    })),
  );
  const vectors = new VectorRepository(runtime.database.db);
  await vectors.setVectors(
    'papers',
    modelId,
    rows.map((row, index) => ({ id: String(row.id), vector: mix(0.9 - index * 0.02, 1 + (index % 3)) })),
  );
  await papers.analyze();
  const news = await new NewsRepository(runtime.database.db).insertMany(
    Array.from({ length: 4 }, (_, index) => ({
      title: `Protein lab news ${index + 1}`,
      content: 'Graph neural networks for proteins.',
      url: `https://example.org/n/${index}`,
      urlNormalized: `example.org/n/${index}`,
      source: 'test',
    })),
  );
  await vectors.setVectors(
    'news',
    modelId,
    news.map((item, index) => ({ id: String(item.id), vector: mix(0.8 - index * 0.05, 1) })),
  );

  const users = new UserRepository(runtime.database.db);
  const user = await users.create({
    email: 'round-trips@example.org',
    researchSummaryEn: 'Graph neural networks for protein structure prediction.',
    researchFields: ['biology'],
  });
  userId = user.id;
  await vectors.setUserVector(user.id, modelId, unit(0));
  headers = { authorization: `Bearer ${await runtime.app.signIn(user)}` };
  await new KeywordRepository(runtime.database.db).create(user.id, 'protein', 100);
  const [liked, dismissed, own] = rows;
  await runtime.app.inject({ method: 'POST', url: `/articles/${liked?.id}/favorite/`, headers });
  await runtime.app.inject({ method: 'POST', url: `/articles/${dismissed?.id}/not-interested/`, headers });
  ownWorkId = Number(own?.id);
  // As a seeding from ORCID, OpenAlex or a library file marks it.
  expect(await new OwnWorkRepository(runtime.database.db).markAuthored(user.id, [ownWorkId])).toBe(1);
  await learnProfile(
    {
      learning: new LearningRepository(runtime.database.db),
      users: new UserRepository(runtime.database.db),
      embeddings: runtime.parts.ai.embeddings,
    },
    user.id,
  );
});

afterAll(async () => {
  await runtime?.stop();
});

describe('database round trips of a recommendation request', () => {
  it('papers: at most 3, with the learned profile, research fields, keywords, a dismissed paper and an own work', async () => {
    const { count, body } = await roundTripsOf(
      '/api/auth/recommendations/papers/?excluded_jcr=&date_filter=一周内&similarity_threshold=0.1',
    );
    const ids = (body.recommendations as { id: string }[]).map((paper) => Number(paper.id));
    // Every paper but the dismissed one and the reader's own work passes these filters.
    expect(ids).toHaveLength(10);
    expect(ids).not.toContain(ownWorkId);
    expect(body.learning).toMatchObject({ applied: true });
    expect(count).toBeLessThanOrEqual(3);
  });

  it('news: at most 3', async () => {
    const { count, body } = await roundTripsOf('/api/news/recommendations/?date_filter=不限&similarity_threshold=0.1');
    expect((body.data as unknown[]).length).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(3);
  });

  it('an empty list is explained without searching again: the source setup, and a count query only when the search found nothing', async () => {
    const { count, body } = await roundTripsOf(
      '/api/auth/recommendations/papers/?excluded_jcr=&date_filter=一周内&similarity_threshold=0.99',
    );
    expect(body.recommendations).toEqual([]);
    expect(body.empty_explanation).toMatchObject({ cause: 'below_threshold' });
    // context, search and the reader's source setup (the readers by field in one statement, the
    // sources' states): no count (the search without the threshold found candidates, so every filter
    // leaves papers), no search beyond the window (the corpus's closest paper, 90 %, is below the
    // threshold, so no filter change brings one that passes).
    expect(count).toBeLessThanOrEqual(4);

    // Nothing in the window: one search beyond the window and tiers finds the wider window with papers
    // above the threshold (and how many it would show), so no count query runs.
    const window = await roundTripsOf('/api/auth/recommendations/papers/?excluded_jcr=&date_filter=一天内');
    expect(window.body.recommendations).toEqual([]);
    expect(window.body.empty_explanation).toMatchObject({
      cause: 'nothing_in_window',
      change: { date_filter: '三天内' },
      suggestion: '把发布时间放宽到“三天内”，可看到 10 篇论文',
    });
    expect(window.count).toBeLessThanOrEqual(6);
    // Applying it shows what it said.
    const applied = await roundTripsOf('/api/auth/recommendations/papers/?excluded_jcr=&date_filter=三天内');
    expect(applied.body.recommendations).toHaveLength(10);
    expect(userId).toBeTruthy();
  });

  it("a reader who follows an author: still at most 3, with the section holding that person's papers only", async () => {
    const orcid = '0000-0002-1825-0097';
    const hopper = { name: 'Grace Hopper', orcid, affiliation: 'Yale University' };
    const papers = new PaperRepository(runtime.database.db);
    const authored = async (title: string, age: number, identity: { name: string; orcid?: string }) => {
      const [row] = await papers.insertMany([
        {
          title,
          abstract: 'Compilers.',
          authors: [identity.name, 'Ada Lovelace'],
          authorIdentities: [identity, { name: 'Ada Lovelace' }],
          journalName: 'Journal of Tests',
          publishedAt: daysAgo(age),
          source: 'test',
        },
      ]);
      return Number(row?.id);
    };
    const origin = await authored('Hopper: the origin', 2, hopper);
    const recent = await authored('Hopper: a recent one', 1, { name: 'G. Hopper', orcid });
    await authored('Hopper: too old for the window', 40, hopper);
    // The same name key with another ORCID iD: a namesake, never in the section.
    await authored('Namesake: another ORCID', 1, { name: 'Grace Hopper', orcid: '0000-0001-5109-3700' });
    const follower = await new UserRepository(runtime.database.db).create({
      email: 'round-trips-follower@example.org',
      researchSummaryEn: 'Graph neural networks for protein structure prediction.',
      researchFields: ['biology'],
    });
    await new VectorRepository(runtime.database.db).setUserVector(follower.id, modelId, unit(0));
    const followerHeaders = { authorization: `Bearer ${await runtime.app.signIn(follower)}` };
    const followed = await runtime.app.inject({
      method: 'POST',
      url: '/api/auth/followed-authors/',
      headers: followerHeaders,
      payload: { paper_id: String(origin), author_index: 0 },
    });
    expect(followed.statusCode, followed.body).toBe(201);

    const readerHeaders = headers;
    headers = followerHeaders;
    try {
      const { count, body } = await roundTripsOf(
        '/api/auth/recommendations/papers/?excluded_jcr=&date_filter=一周内&similarity_threshold=0.1',
      );
      const section = body.followed_author_papers as {
        id: string;
        title: string;
        followed_authors: { name: string; match: string }[];
      }[];
      // Newest first, by ORCID under the name each paper gives; not the old one, not the namesake.
      expect(section.map((paper) => [Number(paper.id), paper.followed_authors])).toEqual([
        [recent, [{ id: expect.any(String), name: 'G. Hopper', match: 'id' }]],
        [origin, [{ id: expect.any(String), name: 'Grace Hopper', match: 'id' }]],
      ]);
      expect(section[0]).toMatchObject({
        title: 'Hopper: a recent one',
        journal: 'Journal of Tests',
        is_favorited: false,
      });
      expect((body.recommendations as unknown[]).length).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(3);

      // An empty list: the section is still there, read within the same trips (no count query: the
      // search without the threshold found candidates, so the list is explained by the threshold).
      const empty = await roundTripsOf(
        '/api/auth/recommendations/papers/?excluded_jcr=&date_filter=一周内&similarity_threshold=0.99',
      );
      expect(empty.body.recommendations).toEqual([]);
      expect((empty.body.followed_author_papers as { id: string }[]).map((paper) => Number(paper.id))).toEqual([
        recent,
        origin,
      ]);
      // context, search, the section's cards, the source setup (two reads: the readers by field in one
      // statement, the sources' states).
      expect(empty.count).toBeLessThanOrEqual(5);
    } finally {
      headers = readerHeaders;
    }
  });

  it('with two more interests: still at most 3 (their searches travel with the first)', async () => {
    const interests = new InterestRepository(runtime.database.db);
    for (const side of [2, 3]) {
      const created = await interests.create(
        userId,
        { kind: 'typed', name: `side ${side}`, description: 'graph neural networks', paperIds: [], quota: 5 },
        4,
      );
      await interests.setVector(created?.id as number, modelId, unit(side));
    }
    const papers = await roundTripsOf(
      '/api/auth/recommendations/papers/?excluded_jcr=&date_filter=一周内&similarity_threshold=0.1',
    );
    const served = (papers.body.recommendations as { interest?: { name: string } }[]).map(
      (card) => card.interest?.name,
    );
    expect(served).toContain('side 2');
    expect(papers.count).toBeLessThanOrEqual(3);
    const news = await roundTripsOf('/api/news/recommendations/?date_filter=不限&similarity_threshold=0.1');
    expect((news.body.data as unknown[]).length).toBeGreaterThan(0);
    expect(news.count).toBeLessThanOrEqual(3);
  });
});

describe('the statements each channel sends (SQL snapshots)', () => {
  /**
   * A statement's shape: whitespace collapsed, every literal (ids, vectors, dates, planner settings) and
   * number replaced by '?', so the snapshot holds what is asked of the database, the same in both modes.
   */
  const shape = (text: string) =>
    text
      .replace(/\s+/g, ' ')
      .replace(/'(?:[^']|'')*'/g, "'?'")
      .replace(/\b\d+(?:\.\d+)?\b/g, '?')
      .trim();
  /** The statements of one request (after a warm-up), without the sessions' and rate limits' reads. */
  async function statementsOf(url: string, as = headers): Promise<string[]> {
    const warm = await runtime.app.inject({ method: 'GET', url, headers: as });
    expect(warm.statusCode, warm.body).toBe(200);
    const { result, texts } = await runtime.database.roundTrips.recordTexts(() =>
      runtime.app.inject({ method: 'GET', url, headers: as }),
    );
    expect(result.statusCode, result.body).toBe(200);
    return texts.filter((text) => !/radar\.(sessions|user_sessions)\b/.test(text)).map(shape);
  }

  it('/papers: context, candidates (with the judged items and the public-record rule), cards', async () => {
    const statements = await statementsOf(
      '/api/auth/recommendations/papers/?excluded_jcr=&date_filter=一周内&similarity_threshold=0.1&exclude_ids=1,2',
    );
    expect(statements).toHaveLength(3);
    expect(statements[0]).toContain('s.dismissed_at IS NOT NULL OR s.rating = -? OR s.authored_at IS NOT NULL');
    expect(statements[1]).toContain('private_to IS NULL');
    expect(statements).toMatchSnapshot();
  });

  it('/news: context, candidates, cards', async () => {
    const statements = await statementsOf('/api/news/recommendations/?date_filter=不限&similarity_threshold=0.1');
    expect(statements).toHaveLength(3);
    expect(statements).toMatchSnapshot();
  });

  it('a keyword alert: the claim selects with the same rules and scores with the same columns', async () => {
    const keywords = new KeywordRepository(runtime.database.db);
    // A reader who can get mail, with the keyword's alert on (the claim's own conditions).
    await runtime.database.db.execute(
      sql`UPDATE radar.users SET is_email_verified = true, password_hash = 'argon2id-hash' WHERE id = ${userId}::uuid`,
    );
    await runtime.database.db.execute(
      sql`UPDATE radar.user_keywords SET alert_enabled = true, last_alerted_at = NULL WHERE user_id = ${userId}::uuid`,
    );
    const rules = { dueSlackMinutes: 15, firstLookbackDays: 7, maxLookbackDays: 8, overlapMinutes: 60, maxPapers: 30 };
    const { texts } = await runtime.database.roundTrips.recordTexts(() =>
      keywords.claimAlertDigests(
        [
          {
            userId,
            ranking: {
              scoring: { by: 'learned-profile', vector: unit(0) },
              dimension,
              order: (rows) => rows.map((row) => row.id),
            },
          },
        ],
        rules,
      ),
    );
    const claim = texts.map(shape).find((text) => text.includes('keyword_alert_deliveries d'));
    expect(claim).toContain('private_to IS NULL');
    expect(claim).toContain('x_learned');
    expect(claim).toMatchSnapshot();
  });
});
