import { sql } from 'drizzle-orm';
import type { Database } from '../connection';

/**
 * Readers by research field, for switching content sources on per field: a reader is an account that
 * can sign in (email verified, not disabled by an operator); its fields are `users.research_fields`.
 */
export class ReaderFieldsRepository {
  constructor(private readonly db: Database) {}

  /** How many readers name each field (fields nobody names are absent). */
  async readersByField(): Promise<Map<string, number>> {
    const result = await this.db.execute<{ field: string; readers: number }>(
      sql`SELECT field, count(DISTINCT id)::int AS readers
          FROM radar.users, unnest(research_fields) AS field
          WHERE is_email_verified AND disabled_at IS NULL
          GROUP BY field`,
    );
    return new Map(result.rows.map((row) => [row.field, Number(row.readers)]));
  }

  /**
   * For each set of fields, how many readers name at least one of them (a reader naming two of the
   * set counts once), in the order given; an empty set counts nobody. One query for all sets.
   */
  async readersNamingAny(fieldSets: readonly (readonly string[])[]): Promise<number[]> {
    const sets = fieldSets.filter((fields) => fields.length > 0);
    if (sets.length === 0) return fieldSets.map(() => 0);
    const counts = sets.map(
      (fields, index) =>
        sql`count(*) FILTER (WHERE research_fields && ARRAY[${sql.join(
          fields.map((field) => sql`${field}`),
          sql`, `,
        )}]::text[])::int AS ${sql.identifier(`s${index}`)}`,
    );
    const result = await this.db.execute<Record<string, number>>(
      sql`SELECT ${sql.join(counts, sql`, `)}
          FROM radar.users
          WHERE is_email_verified AND disabled_at IS NULL AND cardinality(research_fields) > 0`,
    );
    const row = result.rows[0] ?? {};
    let next = 0;
    return fieldSets.map((fields) => (fields.length > 0 ? Number(row[`s${next++}`] ?? 0) : 0));
  }
}
