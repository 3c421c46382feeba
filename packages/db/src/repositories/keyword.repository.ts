import { and, desc, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { userKeywords } from '../schema';
import { compiledKeywords, keywordPhraseQuery, matchesKeyword } from './keyword-match';
import { rowColumnsOf } from './nearest-search';
import { runInOneTrip } from './one-trip';
import {
  type CandidateScoring,
  candidateColumns,
  type RankingCandidate,
  toRankingCandidate,
} from './ranking-candidates';
import { listablePublicPaper, notJudgedPaper, publicPaper } from './reader-eligibility';

export type KeywordRow = typeof userKeywords.$inferSelect;

/**
 * A keyword, a negative term or a suggestion matched against papers exactly as the papers' generated
 * `search_vector` was built: CJK runs split into bigrams by radar.cjk_bigrams, then the English
 * configuration, as a phrase (the words in order). Text of a keyword, never SQL.
 */
const phraseQuery = (textSql: ReturnType<typeof sql>) => keywordPhraseQuery(textSql);

/** Outcome of adding a keyword. */
export type KeywordCreateResult =
  | { created: KeywordRow }
  | { refused: 'duplicate'; existing: KeywordRow | undefined }
  | { refused: 'limit' };

/** A paper near the profile vector, with what suggestions are taken from. */
export interface ProfileNeighbour {
  id: number;
  title: string;
  keywords: string[];
  similarity: number;
}

/** How often a term occurs in the corpus, as keyword alerts would match it. */
export interface TermFrequency {
  term: string;
  /** Papers whose search_vector matches the term as a phrase, counted up to the cap. */
  documentFrequency: number;
  /** The term's tsquery as text: two terms with the same key match the same papers ("networks" = "network"). */
  queryKey: string;
}

/** Rules of the alert job that the SQL applies; the job passes its constants (keyword-alerts.job.ts). */
export interface AlertWindowRules {
  /** How early a keyword is due, so an hourly job does not slip an hour a day (daily = 24 h minus this). */
  dueSlackMinutes: number;
  /** A keyword never alerted looks back this far. */
  firstLookbackDays: number;
  /** No alert looks further back than this, however long ago the last one was. */
  maxLookbackDays: number;
  /** Papers created shortly before the last alert are looked at again (a slow ingestion transaction may commit them late); deliveries keep them from being mailed twice. */
  overlapMinutes: number;
  /** Papers listed in one mail at most. */
  maxPapers: number;
}

/** A paper for a user's digest: which of their keywords matched it, and its similarity to their profile. */
export interface AlertPaper {
  id: number;
  title: string;
  /** '' when the source gave none. */
  abstract: string;
  url: string;
  doi: string | null;
  journalName: string;
  publishedAt: string | null;
  keywordId: number;
  keyword: string;
  /** Cosine similarity to the profile vector; null without one (or without a vector of the same model). */
  similarity: number | null;
}

/**
 * One user's digest, recorded: the papers are in keyword_alert_deliveries (stamped `claimedAt`) and
 * the keywords' last_alerted_at is `claimedAt`, both committed before the mail is sent.
 */
export interface AlertClaim {
  userId: string;
  email: string;
  /** The user's English research summary ('' without one): the digest names the terms each paper shares with it. */
  researchSummaryEn: string;
  /** The transaction's now(), exactly (microseconds), as PostgreSQL writes it. */
  claimedAt: string;
  keywords: { id: number; name: string; previousAlertedAt: string | null }[];
  papers: AlertPaper[];
  /**
   * Papers by followed authors the caller asked to include (AlertClaimRequest's `authorPaperIds`), in
   * that order, recorded in the same deliveries (each reaches the user once, whether by keyword or author).
   */
  authorPapers: AlertAuthorPaper[];
  /** Further matching papers not listed (beyond maxPapers); counted up to a cap. */
  moreCount: number;
}

/** A paper of a digest listed for its followed author rather than a keyword. */
export type AlertAuthorPaper = Omit<AlertPaper, 'keywordId' | 'keyword'>;

const ALERT_CANDIDATE_CAP = 500;

/**
 * How an alert orders its candidates: how the reader's learning scores each (computed in the claim's
 * statement, ranking-candidates.ts) and the in-memory order over the typed candidates (@radar/recommend's
 * step 3, so an alert lists papers in the reader's learned order, as /papers does).
 */
export interface AlertRanking {
  scoring: CandidateScoring;
  /** The dimension of the active model the scoring's vectors are of. */
  dimension: number;
  order: (candidates: RankingCandidate[]) => number[];
}

/** The candidate rows in the ranking's order (rows it leaves out are not listed). */
function orderRows<Row extends { id: string; similarity: number | string | null }>(
  rows: Row[],
  order: AlertRanking['order'],
): Row[] {
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  const ids = order(
    rows.map((row) =>
      toRankingCandidate({
        id: Number(row.id),
        similarity: row.similarity === null ? 0 : Number(row.similarity),
        extra: rowColumnsOf(row),
      }),
    ),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A timestamp read for comparison later, at full precision (a JS Date would drop the microseconds). */
const exactTime = (column: ReturnType<typeof sql>) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Keywords due for an alert at the database's now(); `k` is radar.user_keywords. */
const dueCondition = (rules: AlertWindowRules) => sql`k.alert_enabled AND (k.last_alerted_at IS NULL OR
  k.last_alerted_at <= now() - CASE k.alert_frequency WHEN 'weekly' THEN interval '7 days' ELSE interval '1 day' END
    + make_interval(mins => ${rules.dueSlackMinutes}))`;

/** Only accounts that can sign in get mail: verified, with a password (placeholder rows have none). */
/** Disabled accounts (`radar users disable`) get no alert mail until they are enabled again. */
const mailableUser = sql`u.is_email_verified AND u.password_hash IS NOT NULL AND u.disabled_at IS NULL`;

/** The columns an alert mail shows of a paper, as its statements select them. */
type AlertPaperColumns = {
  id: string;
  title: string;
  abstract: string;
  url: string;
  doi: string | null;
  journal_name: string;
  published_at: string | null;
  /** To the reader's profile; null when the paper has no vector of the profile's model. */
  similarity: number | null;
};

/** A reader whose due keywords a claim takes, with what their digest adds and how it orders them. */
export interface AlertClaimRequest {
  userId: string;
  /** Papers by followed authors to list first, in this order (recorded with the digest, each once). */
  authorPaperIds?: readonly number[] | undefined;
  /** The reader's learned order; without it, similarity then recency. */
  ranking?: AlertRanking | undefined;
}

type AlertCandidateRow = AlertPaperColumns & { keyword_id: string; keyword: string };
type AuthorPaperRow = AlertPaperColumns & { user_id: string };

/** A paper as a digest lists it, from its statement's columns. */
const alertPaperOf = (row: AlertPaperColumns): AlertAuthorPaper => ({
  id: Number(row.id),
  title: row.title,
  abstract: row.abstract,
  url: row.url,
  doi: row.doi,
  journalName: row.journal_name,
  publishedAt: row.published_at,
  similarity: row.similarity === null ? null : Number(row.similarity),
});

/** The recorded papers by followed authors, in the order the caller asked for them. */
function authorPapersOf(asked: readonly number[], rows: readonly AuthorPaperRow[]): AlertAuthorPaper[] {
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return asked.flatMap((id) => {
    const row = byId.get(Math.trunc(id));
    return row ? [alertPaperOf(row)] : [];
  });
}

/**
 * Records papers by followed authors as delivered to their readers (unless they were) and reads the
 * ones recorded for the mail, with their similarity to each reader's profile.
 */
function recordAuthorPapersStatement(papers: readonly { user_id: string; paper_id: number }[]): SQL {
  return sql`WITH recorded AS (
      INSERT INTO radar.keyword_alert_deliveries (user_id, paper_id)
      SELECT DISTINCT x.user_id, p.id
      FROM jsonb_to_recordset(${JSON.stringify(papers)}::jsonb) AS x(user_id uuid, paper_id bigint)
      JOIN radar.papers p ON p.id = x.paper_id
      ON CONFLICT DO NOTHING
      RETURNING user_id, paper_id
    )
    SELECT r.user_id::text AS user_id, p.id::text AS id, p.title, p.abstract, p.url, p.doi, p.journal_name,
           p.published_at::text AS published_at,
           CASE WHEN p.embedding_model_id = u.profile_embedding_model_id
                THEN 1 - (p.embedding <=> u.profile_embedding) END AS similarity
    FROM recorded r JOIN radar.papers p ON p.id = r.paper_id JOIN radar.users u ON u.id = r.user_id`;
}

/**
 * One reader's candidates for their digest: the papers matching their claimed keywords since each
 * keyword's last alert, that they may be shown and never had by mail, most similar first (capped).
 */
function alertCandidatesStatement(
  userId: string,
  keywordIds: readonly string[],
  rules: AlertWindowRules,
  ranking: AlertRanking | undefined,
): SQL {
  const ids = `{${keywordIds.map((id) => Math.trunc(Number(id))).join(',')}}`;
  return sql`WITH compiled AS MATERIALIZED (${compiledKeywords(sql`k.id = ANY(${ids}::bigint[])`)}),
    kw AS (
      SELECT c.id, c.name, c.q, c.negatives,
             greatest(now() - make_interval(days => ${rules.maxLookbackDays}),
                      coalesce(k.last_alerted_at - make_interval(mins => ${rules.overlapMinutes}),
                               now() - make_interval(days => ${rules.firstLookbackDays}))) AS since
      FROM compiled c JOIN radar.user_keywords k ON k.id = c.id
    ),
    matches AS (
      SELECT DISTINCT ON (p.id) p.id, kw.id AS keyword_id, kw.name AS keyword
      FROM kw JOIN radar.papers p ON p.search_vector @@ kw.q AND p.created_at >= kw.since
      WHERE ${matchesKeyword(sql`p.search_vector`, sql`kw`)}
        -- What the reader may be shown (reader-eligibility.ts): public canonical papers they have
        -- not judged (不感兴趣, 👎, 👍) and did not write.
        AND ${listablePublicPaper(sql.raw('p'))}
        AND ${notJudgedPaper(sql.raw('p'), userId)}
        AND NOT EXISTS (
          SELECT 1 FROM radar.keyword_alert_deliveries d WHERE d.user_id = ${userId}::uuid AND d.paper_id = p.id)
      ORDER BY p.id, ts_rank_cd(p.search_vector, kw.q) DESC, kw.id
    )
    SELECT p.id::text AS id, p.title, p.abstract, p.url, p.doi, p.journal_name, p.published_at::text AS published_at,
           m.keyword_id::text AS keyword_id, m.keyword,
           CASE WHEN p.embedding_model_id = u.profile_embedding_model_id
                THEN 1 - (p.embedding <=> u.profile_embedding) END AS similarity
           ${ranking ? sql`, ${sql.join(candidateColumns('paper', ranking.scoring, ranking.dimension), sql`, `)}` : sql``}
    FROM matches m JOIN radar.papers p ON p.id = m.id JOIN radar.users u ON u.id = ${userId}::uuid
    JOIN radar.papers item ON item.id = m.id
    ORDER BY similarity DESC NULLS LAST, p.created_at DESC, p.id DESC
    LIMIT ${ALERT_CANDIDATE_CAP}`;
}

/**
 * The keywords users follow (radar.user_keywords), the terms suggested to them, and the bookkeeping of
 * keyword alert mails (radar.keyword_alert_deliveries).
 */
export class KeywordRepository {
  constructor(private readonly db: Database) {}

  /** Newest first. */
  async listByUser(userId: string): Promise<KeywordRow[]> {
    return this.db
      .select()
      .from(userKeywords)
      .where(eq(userKeywords.userId, userId))
      .orderBy(desc(userKeywords.createdAt), desc(userKeywords.id));
  }

  /** The keyword only if it belongs to the user: other users' keywords look the same as missing ones. */
  async findOwned(id: number, userId: string): Promise<KeywordRow | undefined> {
    const [row] = await this.db
      .select()
      .from(userKeywords)
      .where(and(eq(userKeywords.id, id), eq(userKeywords.userId, userId)))
      .limit(1);
    return row;
  }

  /**
   * Adds a keyword unless the user already follows one of the same name (case-insensitive) or has
   * `limit` of them. Serialised per user (a transaction-scoped advisory lock), so two simultaneous adds
   * cannot both pass the limit.
   */
  async create(
    userId: string,
    name: string,
    limit: number,
    /** The English a Chinese keyword also matches (see the column), null for none. */
    englishAlternatives: string[][] | null = null,
  ): Promise<KeywordCreateResult> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`radar.user_keywords:${userId}`}, 0))`);
      const [existing] = await tx
        .select()
        .from(userKeywords)
        .where(and(eq(userKeywords.userId, userId), sql`lower(${userKeywords.name}) = lower(${name})`))
        .limit(1);
      if (existing) return { refused: 'duplicate', existing };
      const [count] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(userKeywords)
        .where(eq(userKeywords.userId, userId));
      if ((count?.count ?? 0) >= limit) return { refused: 'limit' };
      const [created] = await tx
        .insert(userKeywords)
        .values({ userId, name, englishAlternatives })
        .onConflictDoNothing()
        .returning();
      return created ? { created } : { refused: 'duplicate', existing: undefined };
    });
  }

  /**
   * Keywords with a Chinese name or Chinese negative terms never glossed (added or set before keywords
   * and their negative terms were), oldest first.
   */
  async listUnglossed(
    limit: number,
  ): Promise<Pick<KeywordRow, 'id' | 'name' | 'negativeTerms' | 'englishAlternatives' | 'negativeEnglish'>[]> {
    return this.db
      .select({
        id: userKeywords.id,
        name: userKeywords.name,
        negativeTerms: userKeywords.negativeTerms,
        englishAlternatives: userKeywords.englishAlternatives,
        negativeEnglish: userKeywords.negativeEnglish,
      })
      .from(userKeywords)
      .where(
        or(
          and(isNull(userKeywords.englishAlternatives), sql`${userKeywords.name} ~ '[\u4e00-\u9fff]'`),
          and(
            isNull(userKeywords.negativeEnglish),
            sql`array_to_string(${userKeywords.negativeTerms}, ' ') ~ '[\u4e00-\u9fff]'`,
          ),
        ),
      )
      .orderBy(userKeywords.id)
      .limit(Math.max(1, Math.trunc(limit)));
  }

  /** Stores a keyword's English and its negative terms' ([] when none, so they are not glossed again). */
  async setEnglish(
    id: number,
    english: Partial<Pick<KeywordRow, 'englishAlternatives' | 'negativeEnglish'>>,
  ): Promise<void> {
    await this.db.update(userKeywords).set(english).where(eq(userKeywords.id, id));
  }

  async updateOwned(
    id: number,
    userId: string,
    changes: Partial<Pick<KeywordRow, 'alertEnabled' | 'alertFrequency' | 'negativeTerms' | 'negativeEnglish'>>,
  ): Promise<KeywordRow | undefined> {
    const [row] = await this.db
      .update(userKeywords)
      .set(changes)
      .where(and(eq(userKeywords.id, id), eq(userKeywords.userId, userId)))
      .returning();
    return row;
  }

  async removeOwned(id: number, userId: string): Promise<boolean> {
    const rows = await this.db
      .delete(userKeywords)
      .where(and(eq(userKeywords.id, id), eq(userKeywords.userId, userId)))
      .returning({ id: userKeywords.id });
    return rows.length === 1;
  }

  /** Switches off alerts on every keyword of the user (the unsubscribe link). Returns how many were on. */
  async disableAllAlerts(userId: string): Promise<number> {
    const rows = await this.db
      .update(userKeywords)
      .set({ alertEnabled: false })
      .where(and(eq(userKeywords.userId, userId), eq(userKeywords.alertEnabled, true)))
      .returning({ id: userKeywords.id });
    return rows.length;
  }

  // ---- suggestions ------------------------------------------------------------------------------

  /**
   * The papers nearest to the user's profile vector, among papers embedded by the same model, with
   * their titles and keywords. Empty without a profile vector. Ordered like findSimilar in
   * paper.repository.ts: the cast and the literal model id match the model's partial HNSW index.
   */
  async profileNeighbours(userId: string, limit: number): Promise<ProfileNeighbour[]> {
    const [profile] = (
      await this.db.execute<{ model_id: number; dimension: number; vector: string }>(
        sql`SELECT u.profile_embedding_model_id AS model_id, m.dimension, u.profile_embedding::text AS vector
            FROM radar.users u JOIN radar.embedding_models m ON m.id = u.profile_embedding_model_id
            WHERE u.id = ${userId} AND u.profile_embedding IS NOT NULL`,
      )
    ).rows;
    if (!profile) return [];
    const n = Math.min(Math.max(Math.trunc(limit), 1), 500);
    // Integers from our own tables, inlined so the planner can match the partial expression index.
    const dimension = sql.raw(String(Math.trunc(Number(profile.dimension))));
    const modelId = sql.raw(String(Math.trunc(Number(profile.model_id))));
    return this.db.transaction(async (tx) => {
      // HNSW returns at most ef_search rows; the default (40) could be fewer than asked for.
      await tx.execute(sql.raw(`SET LOCAL hnsw.ef_search = ${Math.max(100, n * 2)}`));
      const result = await tx.execute<{ id: string; title: string; keywords: string[]; similarity: number }>(
        sql`SELECT p.id::text AS id, p.title, p.keywords,
                   1 - ((p.embedding::vector(${dimension})) <=> ${profile.vector}::vector(${dimension})) AS similarity
            FROM radar.papers p
            WHERE p.embedding_model_id = ${modelId} AND ${listablePublicPaper(sql.raw('p'))}
            ORDER BY (p.embedding::vector(${dimension})) <=> ${profile.vector}::vector(${dimension})
            LIMIT ${n}`,
      );
      return result.rows.map((row) => ({
        id: Number(row.id),
        title: row.title,
        keywords: row.keywords ?? [],
        similarity: Number(row.similarity),
      }));
    });
  }

  /**
   * How many papers each term matches (as a keyword alert would match it), counted up to `cap` so a
   * very common term costs no more than a rare one. A term with no lexemes (only stop words) has 0.
   */
  async termFrequencies(terms: readonly string[], cap: number): Promise<TermFrequency[]> {
    if (terms.length === 0) return [];
    const limit = Math.max(1, Math.trunc(cap));
    const result = await this.db.execute<{ term: string; query_key: string; df: number }>(
      sql`SELECT t.term, q::text AS query_key,
                 CASE WHEN numnode(q) = 0 THEN 0
                      ELSE (SELECT count(*)::int FROM (SELECT 1 FROM radar.papers p WHERE p.search_vector @@ q AND ${publicPaper(sql`p`)} LIMIT ${limit}) s)
                 END AS df
          FROM jsonb_array_elements_text(${JSON.stringify(terms)}::jsonb) AS t(term)
          CROSS JOIN LATERAL ${phraseQuery(sql`t.term`)} AS q`,
    );
    return result.rows.map((row) => ({ term: row.term, queryKey: row.query_key, documentFrequency: Number(row.df) }));
  }

  /** The tsquery keys of the user's keywords, to leave out suggestions equivalent to one they follow. */
  async followedQueryKeys(userId: string): Promise<string[]> {
    const result = await this.db.execute<{ query_key: string }>(
      sql`SELECT ${phraseQuery(sql`k.name`)}::text AS query_key FROM radar.user_keywords k WHERE k.user_id = ${userId}`,
    );
    return result.rows.map((row) => row.query_key);
  }

  async countPapers(): Promise<number> {
    const result = await this.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM radar.papers p WHERE ${publicPaper(sql`p`)}`,
    );
    return Number(result.rows[0]?.count ?? 0);
  }

  // ---- alerts -----------------------------------------------------------------------------------

  /** Users that can get mail and have an alert-enabled keyword due now, longest waiting first. */
  async listUsersDueForAlerts(rules: AlertWindowRules, limit: number): Promise<string[]> {
    const result = await this.db.execute<{ user_id: string }>(
      sql`SELECT k.user_id
          FROM radar.user_keywords k JOIN radar.users u ON u.id = k.user_id
          WHERE ${dueCondition(rules)} AND ${mailableUser}
          GROUP BY k.user_id
          ORDER BY min(k.last_alerted_at) ASC NULLS FIRST, k.user_id
          LIMIT ${Math.max(1, Math.trunc(limit))}`,
    );
    return result.rows.map((row) => row.user_id);
  }

  /**
   * Takes the due keywords of a group of readers, finds for each reader the papers created since each
   * keyword's last alert that match it (as a phrase) and none of its negative terms and were never
   * mailed to them, ranks them (their learned order, else by similarity to the profile vector, newest
   * first without one), and records each reader's first `maxPapers` as delivered while setting the
   * keywords' last_alerted_at, in one transaction of four round trips for the whole group: BEGIN; lock
   * the due keywords; the followed authors' papers and every reader's candidates in one message
   * (runInOneTrip); the deliveries and last_alerted_at in one statement; COMMIT.
   *
   * Returns a claim per reader whose keywords it took, in the order asked; none for a reader with nothing
   * due (or whose keywords another worker holds right now: they are locked with SKIP LOCKED, so two
   * workers never take the same keyword at once); a claim without papers when nothing new matched
   * (last_alerted_at still moves on).
   *
   * A paper matching several keywords is listed once, under the keyword it matches best. A paper
   * another worker recorded for a reader meanwhile is dropped here (ON CONFLICT on the primary key),
   * so each paper reaches a reader at most once. Each reader's candidates are their own statement, as
   * they were when each reader was claimed alone: the reader's judgements and learned scoring are part
   * of its text, and each is planned with its own keywords.
   */
  async claimAlertDigests(readers: readonly AlertClaimRequest[], rules: AlertWindowRules): Promise<AlertClaim[]> {
    const asked = [...new Map(readers.map((reader) => [reader.userId, reader])).values()];
    if (asked.length === 0) return [];
    return this.db.transaction(async (tx) => {
      const locked = await tx.execute<{
        id: string;
        user_id: string;
        name: string;
        previous: string | null;
        email: string;
        research_summary_en: string;
        claimed_at: string;
      }>(
        sql`SELECT k.id::text AS id, k.user_id::text AS user_id, k.name, ${exactTime(sql`k.last_alerted_at`)} AS previous,
                   u.email, u.research_summary_en, ${exactTime(sql`now()`)} AS claimed_at
            FROM radar.user_keywords k JOIN radar.users u ON u.id = k.user_id
            WHERE k.user_id IN (${sql.join(
              asked.map((reader) => sql`${reader.userId}::uuid`),
              sql`, `,
            )}) AND ${dueCondition(rules)} AND ${mailableUser}
            ORDER BY k.user_id, k.id
            FOR UPDATE OF k SKIP LOCKED`,
      );
      const keywordsOf = new Map<string, typeof locked.rows>();
      for (const row of locked.rows) {
        const rows = keywordsOf.get(row.user_id);
        if (rows) rows.push(row);
        else keywordsOf.set(row.user_id, [row]);
      }
      const claimed = asked.filter((reader) => keywordsOf.has(reader.userId));
      if (claimed.length === 0) return [];

      // Papers by followed authors first: recorded by the message's first statement, so the keyword
      // matches after it leave them out.
      const authorPapers = claimed.flatMap((reader) =>
        (reader.authorPaperIds ?? []).map((paperId) => ({ user_id: reader.userId, paper_id: Math.trunc(paperId) })),
      );
      const candidateStatements = claimed.map((reader) =>
        alertCandidatesStatement(
          reader.userId,
          (keywordsOf.get(reader.userId) ?? []).map((row) => row.id),
          rules,
          reader.ranking,
        ),
      );
      const results = await runInOneTrip(tx, [
        ...(authorPapers.length ? [recordAuthorPapersStatement(authorPapers)] : []),
        ...candidateStatements,
      ]);
      const recordedByAuthors = authorPapers.length ? (results.shift() as AuthorPaperRow[]) : [];
      const candidatesOf = new Map(
        claimed.map((reader, index) => [reader.userId, (results[index] ?? []) as AlertCandidateRow[]]),
      );

      // The reader's learned order (the pipeline's, as /papers orders), else similarity then recency.
      const listedOf = new Map(
        claimed.map((reader) => {
          const candidates = candidatesOf.get(reader.userId) ?? [];
          const ordered = reader.ranking ? orderRows(candidates, reader.ranking.order) : candidates;
          return [reader.userId, ordered.slice(0, Math.max(0, rules.maxPapers))];
        }),
      );
      // Every reader's deliveries and their keywords' new last_alerted_at in one statement (one round trip).
      const deliveries = JSON.stringify(
        claimed.flatMap((reader) =>
          (listedOf.get(reader.userId) ?? []).map((row) => ({
            user_id: reader.userId,
            paper_id: row.id,
            keyword_id: row.keyword_id,
          })),
        ),
      );
      const keywordIds = `{${locked.rows.map((row) => row.id).join(',')}}`;
      const inserted = await tx.execute<{ user_id: string; paper_id: string }>(
        sql`WITH alerted AS (
              UPDATE radar.user_keywords SET last_alerted_at = now() WHERE id = ANY(${keywordIds}::bigint[])
            )
            INSERT INTO radar.keyword_alert_deliveries (user_id, paper_id, keyword_id)
            SELECT x.user_id, x.paper_id, x.keyword_id
            FROM jsonb_to_recordset(${deliveries}::jsonb) AS x(user_id uuid, paper_id bigint, keyword_id bigint)
            ON CONFLICT DO NOTHING
            RETURNING user_id::text AS user_id, paper_id::text AS paper_id`,
      );
      const recorded = new Set(inserted.rows.map((row) => `${row.user_id}|${row.paper_id}`));

      return claimed.map((reader): AlertClaim => {
        const { userId } = reader;
        const keywords = keywordsOf.get(userId) ?? [];
        const first = keywords[0] as (typeof keywords)[number];
        const listed = listedOf.get(userId) ?? [];
        return {
          userId,
          email: first.email,
          researchSummaryEn: first.research_summary_en,
          claimedAt: first.claimed_at,
          keywords: keywords.map((row) => ({ id: Number(row.id), name: row.name, previousAlertedAt: row.previous })),
          papers: listed
            .filter((row) => recorded.has(`${userId}|${row.id}`))
            .map((row) => ({
              ...alertPaperOf(row),
              keywordId: Number(row.keyword_id),
              keyword: row.keyword,
            })),
          authorPapers: authorPapersOf(
            reader.authorPaperIds ?? [],
            recordedByAuthors.filter((row) => row.user_id === userId),
          ),
          moreCount: Math.max(0, (candidatesOf.get(userId) ?? []).length - listed.length),
        };
      });
    });
  }

  /**
   * Undoes a claim whose mail could not be sent, so the next run tries again: its deliveries are
   * deleted and each keyword's last_alerted_at goes back, unless something changed them since.
   */
  async releaseAlertDigest(claim: AlertClaim): Promise<void> {
    await this.db.transaction(async (tx) => {
      const paperIds = [...claim.papers, ...claim.authorPapers].map((paper) => paper.id);
      if (paperIds.length) {
        await tx.execute(
          sql`DELETE FROM radar.keyword_alert_deliveries
              WHERE user_id = ${claim.userId} AND sent_at = ${claim.claimedAt}::timestamptz
                AND paper_id = ANY(${`{${paperIds.join(',')}}`}::bigint[])`,
        );
      }
      for (const keyword of claim.keywords) {
        await tx.execute(
          sql`UPDATE radar.user_keywords SET last_alerted_at = ${keyword.previousAlertedAt}::timestamptz
              WHERE id = ${keyword.id} AND last_alerted_at = ${claim.claimedAt}::timestamptz`,
        );
      }
    });
  }
}
