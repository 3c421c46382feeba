import { sql } from 'drizzle-orm';
import type { Database } from '../connection';

/**
 * Readers by research field, for switching content sources on per field: a reader is an account that
 * can sign in (email verified, not disabled by an operator); its fields are `users.research_fields`.
 */
export class ReaderFieldsRepository {
  constructor(private readonly db: Database) {}

  /**
   * How many readers name each field (fields nobody names are absent), and for each set of fields how
   * many readers name at least one of them (a reader naming two of the set counts once; an empty set
   * counts nobody), in the order given. One statement: source activation reads both, and the
   * explanation of an empty list reads them inside a request.
   */
  async readerCounts(
    fieldSets: readonly (readonly string[])[],
  ): Promise<{ byField: Map<string, number>; perSet: number[] }> {
    const sets = fieldSets.filter((fields) => fields.length > 0);
    const counts = sets.map(
      (fields, index) =>
        sql`count(*) FILTER (WHERE research_fields && ARRAY[${sql.join(
          fields.map((field) => sql`${field}`),
          sql`, `,
        )}]::text[])::int AS ${sql.identifier(`s${index}`)}`,
    );
    // count(*) keeps the statement an aggregate, so it returns its one row when no reader names a field.
    const result = await this.db.execute<Record<string, unknown>>(
      sql`SELECT (SELECT coalesce(json_object_agg(field, readers), '{}'::json)
                  FROM (SELECT field, count(DISTINCT id)::int AS readers
                        FROM radar.users, unnest(research_fields) AS field
                        WHERE is_email_verified AND disabled_at IS NULL
                        GROUP BY field) AS named) AS by_field,
                 ${sql.join([sql`count(*)::int AS readers`, ...counts], sql`, `)}
          FROM radar.users
          WHERE is_email_verified AND disabled_at IS NULL AND cardinality(research_fields) > 0`,
    );
    const row = result.rows[0] ?? {};
    const named = (typeof row.by_field === 'string' ? JSON.parse(row.by_field) : (row.by_field ?? {})) as Record<
      string,
      number
    >;
    let next = 0;
    return {
      byField: new Map(Object.entries(named).map(([field, readers]) => [field, Number(readers)])),
      perSet: fieldSets.map((fields) => (fields.length > 0 ? Number(row[`s${next++}`] ?? 0) : 0)),
    };
  }
}
