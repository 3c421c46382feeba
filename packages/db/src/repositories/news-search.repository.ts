import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { institutes, newsItems } from '../schema';
import type { EmbeddingModelRow } from './embedding.repository';
import {
  bestMatchingKeyword,
  compiledKeywords,
  containsPattern,
  type EnglishAlternatives,
  type EnglishWordAlternatives,
  englishAlternativesQuery,
  planKeywordMatch,
  withEnglishAlternatives,
} from './keyword-match';
import {
  EstimateCache,
  excludedIdsCondition,
  explainNearest,
  type NearestRoute,
  prepareNearest,
  routedNearest,
  type VectorTable,
} from './nearest-search';
import { type CandidateTrip, type CandidateTripOptions, runCandidateTrip } from './ranking-candidates';
import { toDate } from './raw-values';

/**
 * Reading news for the API: the items nearest to a vector (recommendations, semantic search), full-text
 * search, and the rows as displayed. Writes (ingestion, demo data) are in news.repository.ts.
 */

/** A news item as the API shows it. */
export interface NewsView {
  id: number;
  title: string;
  content: string;
  url: string;
  /** '' when the item has no institute. */
  instituteName: string;
  publishDate: Date | null;
  crawlDate: Date;
  /** The caller's rating (1 👍, -1 👎, null: none), in recommendation cards only. */
  rating?: 1 | -1 | null;
}

/**
 * Filters shared by every news query. An item's date is its publish_date, or its crawl_date when the
 * source gave none (many institute feeds do not date their items).
 */
export interface NewsFilters {
  /** Items dated at or after this instant. */
  since?: Date | undefined;
  /** Items dated before this instant. */
  until?: Date | undefined;
  /** Items whose institute's name contains this, ignoring case. */
  instituteName?: string | undefined;
  /** Items never to return (those the user marked 'not interested'). */
  excludedIds?: readonly number[] | undefined;
}

export interface NearestNewsQuery {
  model: Pick<EmbeddingModelRow, 'id' | 'dimension'>;
  vector: number[];
  /** Rows wanted, 1-MAX_NEAREST_NEWS. */
  topK: number;
  /** Minimum cosine similarity (1 = same direction), applied to the topK nearest; -1 keeps them all. */
  threshold: number;
  filters?: NewsFilters;
  /** auto (default): routed by how many items the filters leave (see nearest()); the others force a route (tests). */
  strategy?: 'auto' | 'index' | 'exact';
}

export interface KeywordNewsQuery {
  /** Keywords, all of which must match (see keywordSearch()). */
  keywords: readonly string[];
  /** English a Chinese phrase also matches (offline glossing): 图神经网络 also finds "graph neural network". */
  english?: EnglishAlternatives;
  filters?: NewsFilters;
  limit: number;
  offset: number;
}

/** publish_date, else crawl_date: written out (not coalesce) so each half can use its column's index. */
function dateCondition(since: Date | undefined, until: Date | undefined): SQL | undefined {
  if (!since && !until) return undefined;
  const bounds = (column: SQL) =>
    sql.join(
      [
        since ? sql`${column} >= ${since.toISOString()}::timestamptz` : undefined,
        until ? sql`${column} < ${until.toISOString()}::timestamptz` : undefined,
      ].filter((part): part is SQL => part !== undefined),
      sql` AND `,
    );
  return sql`((${bounds(sql`${newsItems.publishDate}`)}) OR (${newsItems.publishDate} IS NULL AND ${bounds(sql`${newsItems.crawlDate}`)}))`;
}

function filterConditions(filters: NewsFilters = {}): SQL[] {
  const conditions = [
    dateCondition(filters.since, filters.until),
    excludedIdsCondition(newsItems.id, filters.excludedIds),
  ];
  if (filters.instituteName) {
    conditions.push(
      sql`${newsItems.instituteId} IN (SELECT ${institutes.id} FROM ${institutes} WHERE ${institutes.name} ILIKE ${containsPattern(filters.instituteName)})`,
    );
  }
  return conditions.filter((condition): condition is SQL => condition !== undefined);
}

const NEWS_VECTORS = {
  table: newsItems,
  id: newsItems.id,
  embedding: newsItems.embedding,
  modelId: newsItems.embeddingModelId,
} satisfies VectorTable;

/**
 * The filters as the estimate cache's key (dismissed ids are left out, as for papers): a recommendation's
 * window starts at a midnight, so its key holds for the day.
 */
const filterKeyOf = (filters: NewsFilters = {}) =>
  `since=${filters.since?.toISOString() ?? ''};until=${filters.until?.toISOString() ?? ''};institute=${filters.instituteName ?? ''}`;

const prepareSearch = (query: NearestNewsQuery) =>
  prepareNearest(NEWS_VECTORS, query, filterConditions(query.filters), filterKeyOf(query.filters));

const NEWS_VIEW_COLUMNS = {
  id: newsItems.id,
  title: newsItems.title,
  content: newsItems.content,
  url: newsItems.url,
  instituteName: sql<string>`coalesce(${institutes.name}, '')`,
  publishDate: newsItems.publishDate,
  crawlDate: newsItems.crawlDate,
};

/**
 * One keyword phrase against the news `search_vector` (simple configuration): its bigram phrase, or,
 * when it has an English alternative, that English built as a followed keyword's is
 * (englishAlternativesQuery: each English word a prefix, so "network:*" lets "networks" match).
 */
function newsPhraseQuery({ phrase, english }: { phrase: string; english: EnglishWordAlternatives | null }): SQL {
  const own = sql`phraseto_tsquery('simple', radar.cjk_bigrams(${phrase}::text))`;
  if (!english || english.length === 0) return own;
  return sql`(${own} || coalesce(${englishAlternativesQuery(sql`${JSON.stringify(english)}::jsonb`, 'simple')}, ${own}))`;
}

export class NewsSearchRepository {
  private readonly estimates = new EstimateCache();

  constructor(private readonly db: Database) {}

  /**
   * The topK items nearest to a vector among those embedded by the same model that pass the filters,
   * keeping those at or above the threshold, most similar first. Routed as PaperRepository.recommend():
   * exact ranking when the filters leave at most exactSearchLimit(dimension) items (the planner's
   * estimate), else the model's HNSW index with iterative scan; when that walk returns fewer than topK
   * rows, the exact route answers instead, so every query sees min(topK, eligible items).
   */
  async nearest(
    query: NearestNewsQuery,
  ): Promise<{ items: { id: number; similarity: number }[]; route: NearestRoute }> {
    const { items, route } = await this.nearestWith(query);
    return { items, route };
  }

  /**
   * nearest() as a recommendation's step 2: the typed candidates with their scores, and what `more`
   * names, in the same round trip (ranking-candidates.ts).
   */
  async nearestWith(
    query: NearestNewsQuery,
    more: CandidateTripOptions = {},
  ): Promise<CandidateTrip & { items: { id: number; similarity: number }[]; route: NearestRoute }> {
    const search = prepareSearch(query);
    let route: NearestRoute = 'exact';
    const { rows, ...trip } = await runCandidateTrip('news', query.model.dimension, more, async (options) => {
      const found = await routedNearest(this.db, search, {
        strategy: query.strategy,
        estimates: this.estimates,
        extras: { rowColumns: options.rowColumns },
        otherVectors: options.otherVectors,
        after: options.after,
      });
      route = found.route;
      return found;
    });
    const items = rows
      .filter((row) => row.similarity >= query.threshold)
      .map(({ id, similarity }) => ({ id, similarity }));
    return { ...trip, items, route };
  }

  /**
   * The `limit` items nearest to a vector, `excludedIds` left out, without a date filter, each with its
   * date (publish_date, else crawl_date): an empty list's explanation reads them to tell whether a wider
   * window holds items close enough.
   */
  async nearestBeyondFilters(
    query: Pick<NearestNewsQuery, 'model' | 'vector'> & { excludedIds?: readonly number[]; limit: number },
  ): Promise<{ similarity: number; date: Date | null }[]> {
    const search = prepareSearch({
      model: query.model,
      vector: query.vector,
      topK: query.limit,
      threshold: -1,
      filters: { excludedIds: query.excludedIds },
    });
    const { rows } = await routedNearest(this.db, search, {
      estimates: this.estimates,
      extras: { rowColumns: [sql`coalesce(item.publish_date, item.crawl_date) AS x_dated`] },
    });
    return rows.map((row) => ({ similarity: row.similarity, date: toDate(row.extra.dated) }));
  }

  /** The plan of a route of nearest(), to check which index it uses. */
  async explainNearest(query: NearestNewsQuery, route: 'index' | 'exact'): Promise<string> {
    const search = prepareSearch(query);
    return this.db.transaction((tx) => explainNearest(tx, search, route));
  }

  /**
   * Full-text search through radar.cjk_bigrams, the function the stored search_vector was made with
   * (title weight A, content B), so Chinese and English match alike. Every keyword must match, as a
   * phrase (so '量子计算' needs its bigrams in a row, 'machine learning' in quotes both words in a row);
   * see planKeywordMatch() for keywords with a lone CJK character. With `english`, a Chinese keyword
   * matches as itself or as its English glosses (OR). Ranked by ts_rank, then by how many
   * substring keywords the title holds, then newest first (publish_date, else crawl_date).
   * Returns one page of ids and the number of matches.
   */
  async keywordSearch(query: KeywordNewsQuery): Promise<{ total: number; ids: number[] }> {
    const { phrases, substrings } = planKeywordMatch(query.keywords);
    if (phrases.length === 0 && substrings.length === 0) return { total: 0, ids: [] };
    // The text query is computed once, in a one-row subquery, not once per candidate row.
    const from = phrases.length
      ? sql`${newsItems} CROSS JOIN (SELECT ${sql.join(
          withEnglishAlternatives(phrases, query.english).map(newsPhraseQuery),
          sql` && `,
        )} AS query) AS q`
      : sql`${newsItems}`;
    const patterns = substrings.map(containsPattern);
    const conditions = [
      phrases.length ? sql`${newsItems.searchVector} @@ q.query` : undefined,
      ...patterns.map((pattern) => sql`(${newsItems.title} ILIKE ${pattern} OR ${newsItems.content} ILIKE ${pattern})`),
      ...filterConditions(query.filters),
    ].filter((condition): condition is SQL => condition !== undefined);
    const where = sql.join(conditions, sql` AND `);
    const order = [
      phrases.length ? sql`ts_rank(${newsItems.searchVector}, q.query) DESC` : undefined,
      patterns.length
        ? sql`(${sql.join(
            patterns.map((pattern) => sql`(${newsItems.title} ILIKE ${pattern})::int`),
            sql` + `,
          )}) DESC`
        : undefined,
      sql`coalesce(${newsItems.publishDate}, ${newsItems.crawlDate}) DESC`,
      sql`${newsItems.id} DESC`,
    ].filter((part): part is SQL => part !== undefined);
    const limit = Math.max(1, Math.trunc(query.limit));
    const offset = Math.max(0, Math.trunc(query.offset));

    const page = await this.db.execute<{ id: string | number; total: string | number }>(
      sql`SELECT ${newsItems.id} AS id, count(*) OVER () AS total FROM ${from}
          WHERE ${where}
          ORDER BY ${sql.join(order, sql`, `)}
          LIMIT ${limit} OFFSET ${offset}`,
    );
    const ids = page.rows.map((row) => Number(row.id));
    if (page.rows.length > 0) return { total: Number(page.rows[0]?.total ?? 0), ids };
    if (offset === 0) return { total: 0, ids };
    // Past the last page the window count has no row to ride on.
    const counted = await this.db.execute<{ total: string | number }>(
      sql`SELECT count(*) AS total FROM ${from} WHERE ${where}`,
    );
    return { total: Number(counted.rows[0]?.total ?? 0), ids };
  }

  /** The items as displayed, in the order of `ids`; unknown ids are left out. */
  async findViews(ids: readonly number[]): Promise<NewsView[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select(NEWS_VIEW_COLUMNS)
      .from(newsItems)
      .leftJoin(institutes, eq(institutes.id, newsItems.instituteId))
      .where(inArray(newsItems.id, [...ids]));
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * findViews() for a recommendation: each item also with the keyword of `userId`'s it matches best
   * (bestMatchingKeyword, the keyword alerts' rule, against the news `search_vector`), in one statement.
   */
  async findCards(
    ids: readonly number[],
    userId: string,
  ): Promise<{ views: NewsView[]; matchedKeywords: Map<number, string> }> {
    if (ids.length === 0) return { views: [], matchedKeywords: new Map() };
    const result = await this.db.execute<{
      id: string;
      title: string;
      content: string;
      url: string;
      institute_name: string;
      publish_date: string | Date | null;
      crawl_date: string | Date;
      matched_keyword: string | null;
      rating: number | null;
    }>(
      sql`WITH keywords AS MATERIALIZED (${compiledKeywords(sql`k.user_id = ${userId}::uuid`, 'simple')})
          SELECT n.id::text AS id, n.title, n.content, n.url, coalesce(i.name, '') AS institute_name,
                 n.publish_date, n.crawl_date,
                 ${bestMatchingKeyword(sql`n.search_vector`, sql`keywords`)} AS matched_keyword,
                 (SELECT s.rating::int FROM radar.user_news_states s
                   WHERE s.user_id = ${userId}::uuid AND s.news_item_id = n.id) AS rating
          FROM radar.news_items n LEFT JOIN radar.institutes i ON i.id = n.institute_id
          WHERE n.id = ANY(${`{${ids.join(',')}}`}::bigint[])`,
    );
    const matchedKeywords = new Map<number, string>();
    const byId = new Map<number, NewsView>();
    for (const row of result.rows) {
      const id = Number(row.id);
      if (row.matched_keyword) matchedKeywords.set(id, row.matched_keyword);
      byId.set(id, {
        id,
        title: row.title,
        content: row.content,
        url: row.url,
        instituteName: row.institute_name,
        publishDate: row.publish_date === null ? null : toDate(row.publish_date),
        crawlDate: toDate(row.crawl_date) as Date,
        rating: row.rating === null ? null : Number(row.rating) === 1 ? 1 : -1,
      });
    }
    return { views: ids.flatMap((id) => byId.get(id) ?? []), matchedKeywords };
  }
}
