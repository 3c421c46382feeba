import { sql } from 'drizzle-orm';
import type { Database } from '../connection';

/**
 * English gists of Chinese papers and news items: what an LLM wrote for the text they are embedded
 * from, stored once per item with a key of the text it was made from (a changed text needs a new one),
 * and counted over the last 24 hours for the daily limit.
 */
export type GistTarget = 'papers' | 'news';

const TABLES: Record<GistTarget, string> = { papers: 'radar.papers', news: 'radar.news_items' };
const raw = (text: string) => sql.raw(text);

export interface StoredGist {
  id: string;
  gist: string;
  sourceKey: string;
}

export class GistRepository {
  constructor(private readonly db: Database) {}

  async find(target: GistTarget, ids: readonly string[]): Promise<StoredGist[]> {
    if (ids.length === 0) return [];
    const result = await this.db.execute<{ id: string; gist: string; source_key: string }>(
      sql`SELECT id::text AS id, english_gist AS gist, english_gist_source AS source_key
          FROM ${raw(TABLES[target])}
          WHERE id = ANY(string_to_array(${ids.join(',')}, ',')::bigint[]) AND english_gist IS NOT NULL`,
    );
    return result.rows.map((row) => ({ id: String(row.id), gist: row.gist, sourceKey: row.source_key }));
  }

  async save(target: GistTarget, id: string, gist: string, sourceKey: string): Promise<void> {
    await this.db.execute(
      sql`UPDATE ${raw(TABLES[target])}
          SET english_gist = ${gist}, english_gist_source = ${sourceKey}, english_gist_at = now()
          WHERE id = ${id}::bigint`,
    );
  }

  /** Gists made since `since`, papers and news together (the daily limit counts both). */
  async countSince(since: Date): Promise<number> {
    const result = await this.db.execute<{ count: number }>(
      sql`SELECT (SELECT count(*) FROM radar.papers WHERE english_gist_at >= ${since.toISOString()}::timestamptz)
               + (SELECT count(*) FROM radar.news_items WHERE english_gist_at >= ${since.toISOString()}::timestamptz) AS count`,
    );
    return Number(result.rows[0]?.count ?? 0);
  }
}
