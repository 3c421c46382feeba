import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { papers, userArticleStates } from '../schema';
import {
  containsPattern,
  type EnglishAlternatives,
  type EnglishWordAlternatives,
  planKeywordMatch,
  withEnglishAlternatives,
} from './keyword-match';
import { PAPER_VIEW_COLUMNS, type PaperView } from './paper.repository';
import { isForeignKeyViolation } from './pg-errors';
import { paperVisibleTo } from './reader-eligibility';

/** The papers table as the query builder names it (`"radar"."papers"`), for the rules that take a row. */
const PAPER_ROW = sql`${papers}`;

export interface ArticleSearch {
  /** Each keyword is a phrase; a paper must match all of them. */
  keywords: readonly string[];
  /** English a Chinese phrase also matches (offline glossing): 图神经网络 also finds "graph neural network". */
  english?: EnglishAlternatives;
  /** Whose favourite/saved state the results carry. */
  userId: string;
  limit: number;
  offset: number;
}

export interface ArticleSearchResult {
  /** Papers matching every keyword, over all pages. */
  total: number;
  papers: PaperView[];
}

/** What a share hands out: the paper's own links and how often this user shared it. */
export interface SharedArticle {
  url: string;
  doi: string | null;
  pdfUrl: string | null;
  shareCount: number;
}

/**
 * The text query of one phrase (see planKeywordMatch()), built like the generated `search_vector`
 * (migration 0005): through radar.cjk_bigrams, so a Chinese word becomes its phrase of bigrams, then as
 * a phrase in the `english` configuration of the title and abstract, or in the `simple` one of the
 * journal name. A phrase the english configuration drops (a stop word such as "the") is left out rather
 * than required of the journal.
 */
function phraseQuery(phrase: string): SQL {
  const english = sql`phraseto_tsquery('english', radar.cjk_bigrams(${phrase}::text))`;
  const simple = sql`phraseto_tsquery('simple', radar.cjk_bigrams(${phrase}::text))`;
  return sql`(CASE WHEN numnode(${english}) = 0 THEN ${english} ELSE ${english} || ${simple} END)`;
}

/**
 * A phrase, or its English alternative: a Chinese phrase matches as itself (its bigrams) or as its
 * English, each of its words as one of that word's English phrases, each matched like any phrase
 * (stemmed, so plurals count).
 */
function phraseOrEnglishQuery({ phrase, english }: { phrase: string; english: EnglishWordAlternatives | null }): SQL {
  if (!english || english.length === 0) return phraseQuery(phrase);
  const words = english.map((alternatives) => sql`(${sql.join(alternatives.map(phraseQuery), sql` || `)})`);
  return sql`(${phraseQuery(phrase)} || (${sql.join(words, sql` && `)}))`;
}

/**
 * Full-text search over papers and each user's own state of a paper (favourite, saved, shares, reading
 * progress). Every state change is one statement (INSERT ... SELECT ... ON CONFLICT DO UPDATE): concurrent
 * requests of a user on one paper queue on its row, so two toggles always cancel out, and a paper id
 * that names no paper, or a paper private to another reader, writes nothing and reads as not found.
 */
export class ArticleRepository {
  constructor(private readonly db: Database) {}

  /**
   * One page of the papers that match every keyword, by relevance (ts_rank: title over abstract over
   * journal), then newest, then id. A search whose keywords are all stop words matches nothing. With
   * `english`, a Chinese keyword matches as itself or as its English glosses (OR); keywords stay ANDed.
   */
  async search(search: ArticleSearch): Promise<ArticleSearchResult> {
    const { phrases, substrings } = planKeywordMatch(search.keywords);
    if (phrases.length === 0 && substrings.length === 0) return { total: 0, papers: [] };
    // The text query is computed once, in a one-row subquery, not once per candidate row.
    const terms = withEnglishAlternatives(phrases, search.english);
    const q = sql`(SELECT ${phrases.length ? sql.join(terms.map(phraseOrEnglishQuery), sql` && `) : sql`NULL::tsquery`} AS query) AS q`;
    const patterns = substrings.map(containsPattern);
    const conditions = [
      phrases.length ? sql`${papers.searchVector} @@ q.query` : undefined,
      ...patterns.map((pattern) => sql`(${papers.title} ILIKE ${pattern} OR ${papers.abstract} ILIKE ${pattern})`),
    ].filter((condition): condition is SQL => condition !== undefined);
    // A record linked to a better one of the same paper (duplicate_of) is not listed: one card per paper.
    // Another reader's private upload is not found; the caller's own are.
    const matches = sql.join(
      [...conditions, sql`${papers.duplicateOf} IS NULL`, paperVisibleTo(PAPER_ROW, search.userId)],
      sql` AND `,
    );
    const order = [
      phrases.length ? sql`ts_rank(${papers.searchVector}, q.query) DESC` : undefined,
      patterns.length
        ? sql`(${sql.join(
            patterns.map((pattern) => sql`(${papers.title} ILIKE ${pattern})::int`),
            sql` + `,
          )}) DESC`
        : undefined,
      sql`${papers.publishedAt} DESC NULLS LAST`,
      sql`${papers.id} DESC`,
    ].filter((part): part is SQL => part !== undefined);
    const rows = await this.db
      .select({ ...PAPER_VIEW_COLUMNS, total: sql<number>`count(*) OVER ()`.mapWith(Number) })
      .from(papers)
      .innerJoin(q, sql`true`)
      .leftJoin(
        userArticleStates,
        and(eq(userArticleStates.paperId, papers.id), eq(userArticleStates.userId, search.userId)),
      )
      .where(matches)
      .orderBy(...order)
      .limit(search.limit)
      .offset(search.offset);
    if (rows.length > 0) {
      return { total: rows[0]?.total ?? 0, papers: rows.map(({ total: _total, ...paper }) => paper) };
    }
    // Past the last page the window count has no row to ride on.
    if (search.offset === 0) return { total: 0, papers: [] };
    const [counted] = await this.db
      .select({ total: sql<number>`count(*)`.mapWith(Number) })
      .from(papers)
      .innerJoin(q, sql`true`)
      .where(matches);
    return { total: counted?.total ?? 0, papers: [] };
  }

  /**
   * One page of the user's favourited and/or saved papers, most recently changed first, with how far
   * they read each.
   */
  async library(query: {
    userId: string;
    list: 'all' | 'favorited' | 'saved';
    limit: number;
    offset: number;
  }): Promise<{ total: number; papers: (PaperView & { readProgress: number; markedAt: Date })[] }> {
    const which =
      query.list === 'favorited'
        ? sql`${userArticleStates.isFavorited}`
        : query.list === 'saved'
          ? sql`${userArticleStates.isSaved}`
          : sql`(${userArticleStates.isFavorited} OR ${userArticleStates.isSaved})`;
    // A state on a paper that became private to someone else (an upload marked before it was private) is not listed.
    const where = and(eq(userArticleStates.userId, query.userId), which, paperVisibleTo(PAPER_ROW, query.userId));
    const rows = await this.db
      .select({
        ...PAPER_VIEW_COLUMNS,
        readProgress: userArticleStates.readProgress,
        markedAt: userArticleStates.updatedAt,
        total: sql<number>`count(*) OVER ()`.mapWith(Number),
      })
      .from(userArticleStates)
      .innerJoin(papers, eq(papers.id, userArticleStates.paperId))
      .where(where)
      .orderBy(sql`${userArticleStates.updatedAt} DESC`, sql`${papers.id} DESC`)
      .limit(query.limit)
      .offset(query.offset);
    if (rows.length > 0 || query.offset === 0) {
      return { total: rows[0]?.total ?? 0, papers: rows.map(({ total: _total, ...paper }) => paper) };
    }
    const [counted] = await this.db
      .select({ total: sql<number>`count(*)`.mapWith(Number) })
      .from(userArticleStates)
      .innerJoin(papers, eq(papers.id, userArticleStates.paperId))
      .where(where);
    return { total: counted?.total ?? 0, papers: [] };
  }

  /**
   * One paper as the user sees it; a duplicate's id gives its canonical row (the card every list shows).
   * Undefined when no paper has this id, or it is private to another reader.
   */
  async findView(userId: string, paperId: number): Promise<PaperView | undefined> {
    const canonical = sql`(SELECT coalesce(p.duplicate_of, p.id) FROM radar.papers p
      WHERE p.id = ${paperId} AND ${paperVisibleTo(sql`p`, userId)})`;
    const [row] = await this.db
      .select(PAPER_VIEW_COLUMNS)
      .from(papers)
      .leftJoin(userArticleStates, and(eq(userArticleStates.paperId, papers.id), eq(userArticleStates.userId, userId)))
      .where(sql`${papers.id} = ${canonical} AND ${paperVisibleTo(PAPER_ROW, userId)}`);
    return row;
  }

  /**
   * The reader's favourited or saved papers whose journal version arrived at or after `since`, having
   * been marked before it arrived (as preprints), newest arrival first. For digests: "已正式发表".
   */
  async listPublishedPreprints(userId: string, since: Date): Promise<PaperView[]> {
    return this.db
      .select(PAPER_VIEW_COLUMNS)
      .from(userArticleStates)
      .innerJoin(papers, eq(papers.id, userArticleStates.paperId))
      .where(
        and(
          eq(userArticleStates.userId, userId),
          sql`(${userArticleStates.isFavorited} OR ${userArticleStates.isSaved})`,
          sql`${papers.journalVersionAt} >= ${since.toISOString()}::timestamptz`,
          sql`${papers.journalVersionAt} >= ${userArticleStates.createdAt}`,
          paperVisibleTo(PAPER_ROW, userId),
        ),
      )
      .orderBy(sql`${papers.journalVersionAt} DESC`, sql`${papers.id} DESC`);
  }

  /** Flips the user's favorite; the new state, or undefined when no paper has this id. */
  toggleFavorite(userId: string, paperId: number): Promise<boolean | undefined> {
    return this.toggleMark(userId, paperId, 'is_favorited');
  }

  /** Flips the user's saved mark; the new state, or undefined when no paper has this id. */
  toggleSaved(userId: string, paperId: number): Promise<boolean | undefined> {
    return this.toggleMark(userId, paperId, 'is_saved');
  }

  // A state written through a duplicate's id (a page opened before the link) lands on the canonical row,
  // where every list and the library look.
  private async toggleMark(
    userId: string,
    paperId: number,
    mark: 'is_favorited' | 'is_saved',
  ): Promise<boolean | undefined> {
    const column = sql.raw(mark);
    const rows = await this.upsertState<{ marked: boolean }>(
      sql`INSERT INTO radar.user_article_states (user_id, paper_id, ${column})
          SELECT ${userId}::uuid, coalesce(p.duplicate_of, p.id), true FROM radar.papers p
          WHERE p.id = ${paperId} AND ${paperVisibleTo(sql`p`, userId)}
          ON CONFLICT (user_id, paper_id) DO UPDATE
            SET ${column} = NOT radar.user_article_states.${column}, updated_at = now()
          RETURNING ${column} AS marked`,
    );
    return rows[0]?.marked;
  }

  /** Counts a share and returns the paper's links; undefined when no paper has this id. */
  async recordShare(userId: string, paperId: number): Promise<SharedArticle | undefined> {
    const rows = await this.upsertState<{
      url: string;
      doi: string | null;
      pdf_url: string | null;
      share_count: number;
    }>(
      sql`WITH paper AS (SELECT coalesce(p.duplicate_of, p.id) AS id, p.url, p.doi, p.pdf_url FROM radar.papers p
            WHERE p.id = ${paperId} AND ${paperVisibleTo(sql`p`, userId)}),
          shared AS (
            INSERT INTO radar.user_article_states (user_id, paper_id, share_count, last_shared_at)
            SELECT ${userId}::uuid, paper.id, 1, now() FROM paper
            ON CONFLICT (user_id, paper_id) DO UPDATE
              SET share_count = radar.user_article_states.share_count + 1, last_shared_at = now(), updated_at = now()
            RETURNING share_count
          )
          SELECT paper.url, paper.doi, paper.pdf_url, shared.share_count FROM paper, shared`,
    );
    const row = rows[0];
    return row && { url: row.url, doi: row.doi, pdfUrl: row.pdf_url, shareCount: Number(row.share_count) };
  }

  /**
   * Records reading progress (0-100), keeping the furthest the user has read; returns that, or
   * undefined when no paper has this id.
   */
  async recordReadProgress(userId: string, paperId: number, progress: number): Promise<number | undefined> {
    const rows = await this.upsertState<{ read_progress: number }>(
      sql`INSERT INTO radar.user_article_states (user_id, paper_id, read_progress, last_read_at)
          SELECT ${userId}::uuid, coalesce(p.duplicate_of, p.id), ${Math.trunc(progress)}::smallint, now() FROM radar.papers p
          WHERE p.id = ${paperId} AND ${paperVisibleTo(sql`p`, userId)}
          ON CONFLICT (user_id, paper_id) DO UPDATE
            SET read_progress = greatest(radar.user_article_states.read_progress, excluded.read_progress),
                last_read_at = now(), updated_at = now()
          RETURNING read_progress`,
    );
    const progressRead = rows[0]?.read_progress;
    return progressRead === undefined ? undefined : Number(progressRead);
  }

  private async upsertState<Row extends Record<string, unknown>>(statement: SQL): Promise<Row[]> {
    try {
      const result = await this.db.execute(statement);
      return result.rows as Row[];
    } catch (error) {
      if (isForeignKeyViolation(error)) return [];
      throw error;
    }
  }
}
