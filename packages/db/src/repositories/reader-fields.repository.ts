import { sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { runNamed } from './one-trip';

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
   * explanation of an empty list reads them inside a request. The sets travel as one JSON parameter, so
   * the text is the same for every list of sources and runs as a named statement (runNamed): with a
   * clause per source (97 in the catalogue) parsing and planning it cost more than counting.
   */
  async readerCounts(
    fieldSets: readonly (readonly string[])[],
  ): Promise<{ byField: Map<string, number>; perSet: number[] }> {
    const [row] = await runNamed<{ by_field: unknown; per_set: unknown }>(
      this.db,
      'reader-counts',
      sql`WITH readers AS MATERIALIZED (
            SELECT id, research_fields FROM radar.users
            WHERE is_email_verified AND disabled_at IS NULL AND cardinality(research_fields) > 0)
          SELECT (SELECT coalesce(json_object_agg(field, readers), '{}'::json)
                  FROM (SELECT field, count(DISTINCT id)::int AS readers
                        FROM readers, unnest(research_fields) AS field
                        GROUP BY field) AS named) AS by_field,
                 (SELECT coalesce(json_agg(
                           (SELECT count(*)::int FROM readers
                            WHERE research_fields && ARRAY(SELECT jsonb_array_elements_text(fields)))
                           ORDER BY position), '[]'::json)
                  FROM jsonb_array_elements(${JSON.stringify(fieldSets)}::jsonb)
                       WITH ORDINALITY AS sets(fields, position)) AS per_set`,
    );
    const parse = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
    const named = (parse(row?.by_field) ?? {}) as Record<string, number>;
    const perSet = (parse(row?.per_set) ?? []) as number[];
    return {
      byField: new Map(Object.entries(named).map(([field, readers]) => [field, Number(readers)])),
      perSet: fieldSets.map((_, index) => Number(perSet[index] ?? 0)),
    };
  }
}
