import { getTableColumns, getTableName, is, Param, SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../connection';
import { vectorArrayBinary, vectorTypeOid } from './vector-binary';

/**
 * Many rows inserted as one array per column (`INSERT ... SELECT ... FROM unnest($1::text[], ...)`), for
 * bulk imports. The same rows as drizzle's `insert(table).values(rows)`: a column no row gives takes its
 * default, a row without a value takes the column's default as `DEFAULT` would (`$defaultFn`,
 * `$onUpdateFn` when there is no default, else the table's default), and values go through the column's
 * own mapping to the driver. What changes is the statement: a VALUES list sends one parameter per row and
 * column (25,000 for 1,000 papers), which drizzle assembles as that many fragments and the server parses
 * and plans one by one; here there is one parameter per column (vectors in binary). Measured on 1,000-row chunks of papers
 * (docs/benchmarks.md, tenth session): PGlite's work 0.73 -> 0.47 ms a row, this process's 0.15 -> 0.02.
 *
 * Rows come back in the order of `rows` (WITH ORDINALITY, ORDER BY it: PostgreSQL returns the rows of an
 * INSERT ... SELECT in the order it inserts them, as for a VALUES list). A value given as SQL (not a
 * parameter) is refused with an error: that is drizzle's insert's case.
 */
export async function insertColumns<TTable extends PgTable>(
  db: Database,
  table: TTable,
  rows: readonly TTable['$inferInsert'][],
  returning: PgColumn,
): Promise<unknown[]> {
  if (rows.length === 0) return [];
  const rowValues = rows as readonly Record<string, unknown>[];
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(
    ([, column]) => !isGeneratedAlways(column),
  );
  const targets: SQL[] = [];
  const selects: SQL[] = [];
  const parameters: SQL[] = [];
  let vectorOid: number | undefined;
  for (const [key, column] of columns) {
    const given = rowValues.map((row) => row[key]);
    if (given.every((value) => value === undefined) && column.defaultFn === undefined) {
      if (column.default !== undefined || column.onUpdateFn === undefined) continue; // DEFAULT for every row
    }
    const values: unknown[] = [];
    const present: boolean[] = [];
    for (let value of given) {
      if (is(value, SQL) || is(value, Param)) throw new Error(`insertColumns: ${key} is given as SQL`);
      if (value === undefined && column.defaultFn !== undefined) value = column.defaultFn();
      else if (value === undefined && !column.default && column.onUpdateFn !== undefined) value = column.onUpdateFn();
      if (is(value, SQL)) throw new Error(`insertColumns: the default of ${key} is SQL`);
      present.push(value !== undefined);
      values.push(value ?? null);
    }
    const index = parameters.length;
    const name = sql.identifier(`c${index}`);
    let cell: SQL;
    if (column.getSQLType() === 'vector') {
      // pgvector's vectors in binary: parsing their text is most of what they cost (vector-binary.ts).
      vectorOid ??= await vectorTypeOid(db);
      parameters.push(sql`${sql.param(vectorArrayBinary(values as (number[] | null)[], vectorOid))}::vector[]`);
      cell = sql`${name}`;
    } else {
      const texts = values.map((value) => (value === null ? null : driverText(column.mapToDriverValue(value))));
      parameters.push(sql`${sql.param(texts)}::text[]`);
      cell = sql`${name}::${sql.raw(column.getSQLType())}`;
    }
    targets.push(sql`${sql.identifier(column.name)}`);
    if (present.every(Boolean)) {
      selects.push(cell);
    } else {
      // Rows without a value take the table's default, as DEFAULT in a VALUES list would.
      parameters.push(sql`${sql.param(present)}::boolean[]`);
      const flag = sql.identifier(`c${index + 1}`);
      selects.push(sql`CASE WHEN ${flag} THEN ${cell} ELSE ${defaultOf(column)} END`);
    }
  }
  const names = sql.join(
    parameters.map((_, index) => sql.identifier(`c${index}`)),
    sql`, `,
  );
  const result = await db.execute<{ value: unknown }>(sql`
    INSERT INTO ${table} (${sql.join(targets, sql`, `)})
    SELECT ${sql.join(selects, sql`, `)}
    FROM unnest(${sql.join(parameters, sql`, `)}) WITH ORDINALITY AS u(${names}, ordinality)
    ORDER BY ordinality
    RETURNING ${sql.identifier(returning.name)} AS value`);
  if (result.rows.length !== rows.length)
    throw new Error(`insert into ${getTableName(table)} returned ${result.rows.length} of ${rows.length} rows`);
  return result.rows.map((row) => returning.mapFromDriverValue(row.value));
}

/** Written by PostgreSQL itself (a generated column, an identity ALWAYS): drizzle's insert leaves them out too. */
const isGeneratedAlways = (column: PgColumn) =>
  (column.generated !== undefined && column.generated.type !== 'byDefault') ||
  column.generatedIdentity?.type === 'always';

/** A driver value as the text PostgreSQL reads for its type. */
function driverText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/** The column's default as SQL (what DEFAULT would write). */
function defaultOf(column: PgColumn): SQL {
  if (column.default === undefined) return sql`NULL`;
  if (is(column.default, SQL)) return column.default;
  return sql`${driverText(column.mapToDriverValue(column.default))}::${sql.raw(column.getSQLType())}`;
}
