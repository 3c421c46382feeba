import { sql } from 'drizzle-orm';
import type { Database } from '../connection';

/**
 * The reader's own works (user_article_states.authored_at): papers they wrote, seeded from their ORCID
 * iD, OpenAlex author id or a library file. Each counts as a liked paper for learning (LearningRepository)
 * without being a favourite, so /library keeps only what the reader chose there.
 */
export class OwnWorkRepository {
  constructor(private readonly db: Database) {}

  /**
   * Marks the papers as the reader's own. Idempotent: a paper marked before keeps its first date (a
   * retried or repeated seeding adds no rows); its state row is touched so the learned profile is redone.
   * Returns how many of the papers are now marked.
   */
  async markAuthored(userId: string, paperIds: readonly number[]): Promise<number> {
    const ids = [...new Set(paperIds)];
    if (!ids.length) return 0;
    const result = await this.db.execute(sql`
      INSERT INTO radar.user_article_states (user_id, paper_id, authored_at)
      SELECT ${userId}::uuid, id, now() FROM radar.papers
      WHERE id = ANY(string_to_array(${ids.join(',')}, ',')::bigint[])
      ON CONFLICT (user_id, paper_id) DO UPDATE
        SET authored_at = coalesce(radar.user_article_states.authored_at, excluded.authored_at), updated_at = now()
      RETURNING paper_id`);
    return result.rows.length;
  }
}
