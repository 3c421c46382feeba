import { eq, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { institutes, newsItems } from '../schema';

export type NewsItemRow = typeof newsItems.$inferSelect;
export type NewNewsItemRow = typeof newsItems.$inferInsert;

/** Columns for dedupe and merging, without the vector and search document. */
const NEWS_FIELDS = {
  id: newsItems.id,
  title: newsItems.title,
  content: newsItems.content,
  url: newsItems.url,
  urlNormalized: newsItems.urlNormalized,
  instituteId: newsItems.instituteId,
  publishDate: newsItems.publishDate,
  source: newsItems.source,
  isDemo: newsItems.isDemo,
  researchFields: newsItems.researchFields,
};
export type NewsItemFields = Pick<NewsItemRow, keyof typeof NEWS_FIELDS>;

export class NewsRepository {
  constructor(private readonly db: Database) {}

  /** The institute's id, creating the row the first time the name is seen. */
  async ensureInstitute(name: string, homepageUrl?: string): Promise<number> {
    await this.db
      .insert(institutes)
      .values({ name, homepageUrl: homepageUrl ?? null })
      .onConflictDoNothing();
    const [row] = await this.db.select({ id: institutes.id }).from(institutes).where(eq(institutes.name, name));
    if (!row) throw new Error(`institute ${name} missing after insert`);
    return row.id;
  }

  async findByUrlNormalized(urlNormalized: string): Promise<NewsItemFields | undefined> {
    const [row] = await this.db.select(NEWS_FIELDS).from(newsItems).where(eq(newsItems.urlNormalized, urlNormalized));
    return row;
  }

  /**
   * An item of the same institute with the same title (case and spacing folded) dated within
   * `withinDays` of `date` (its publish date, else its crawl date): the same news under another URL.
   * A recurring announcement ("Weekly seminar") repeats its title weeks apart and stays separate.
   */
  async findSameTitle(
    instituteId: number,
    title: string,
    date: Date,
    withinDays: number,
  ): Promise<NewsItemFields | undefined> {
    const [row] = await this.db
      .select(NEWS_FIELDS)
      .from(newsItems)
      .where(
        sql`${newsItems.instituteId} = ${instituteId}
            AND lower(regexp_replace(${newsItems.title}, '\s+', ' ', 'g')) = lower(regexp_replace(${title}, '\s+', ' ', 'g'))
            AND abs(extract(epoch FROM coalesce(${newsItems.publishDate}, ${newsItems.crawlDate}) - ${date.toISOString()}::timestamptz)) <= ${withinDays * 86_400}`,
      )
      .orderBy(newsItems.id)
      .limit(1);
    return row;
  }

  /** Inserts unless the URL is already stored (a concurrent run); returns the new id or undefined. */
  async insert(row: NewNewsItemRow): Promise<number | undefined> {
    const [created] = await this.db
      .insert(newsItems)
      .values(row)
      .onConflictDoNothing({ target: newsItems.urlNormalized })
      .returning({ id: newsItems.id });
    return created?.id;
  }

  /** Inserts rows in one statement (demo data, tests); a URL already stored fails the whole batch. */
  async insertMany(rows: NewNewsItemRow[]): Promise<NewsItemFields[]> {
    if (rows.length === 0) return [];
    return this.db.insert(newsItems).values(rows).returning(NEWS_FIELDS);
  }

  async update(id: number, set: Partial<NewNewsItemRow>): Promise<void> {
    await this.db
      .update(newsItems)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(newsItems.id, id));
  }

  async deleteDemo(): Promise<number> {
    const rows = await this.db.delete(newsItems).where(eq(newsItems.isDemo, true)).returning({ id: newsItems.id });
    return rows.length;
  }

  /** See PaperRepository.analyze(): embedded PGlite has no autovacuum. */
  async analyze(): Promise<void> {
    await this.db.execute(sql`ANALYZE radar.news_items`);
    await this.db.execute(sql`ANALYZE radar.institutes`);
  }
}
