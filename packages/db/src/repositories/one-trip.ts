import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Database, Transaction } from '../connection';

/*
 * Several statements in one round trip: node-postgres sends a query without parameters as one simple
 * Query message, which PostgreSQL runs as one implicit transaction, so `SET LOCAL` planner settings
 * apply to the statements after them and end with the message. The parameters drizzle would send are
 * inlined as literals (standard_conforming_strings: only the quote is escaped).
 */

const dialect = new PgDialect();

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('cannot inline a non-finite number');
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  const text = value instanceof Date ? value.toISOString() : String(value);
  if (text.includes('\0')) throw new RangeError('cannot inline a NUL character');
  return `'${text.replace(/'/g, "''")}'`;
}

/** The statement as text with its parameters inlined as literals. */
function inlineSql(query: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return text.replace(/\$(\d+)/g, (_match, index: string) => literal(params[Number(index) - 1]));
}

/** `SET LOCAL name = 'value'` for each setting (names are ours, values are inlined literals). */
export function setLocal(settings: Record<string, string>): string[] {
  return Object.entries(settings).map(([name, value]) => {
    if (!/^[a-z_.]+$/.test(name)) throw new RangeError(`bad setting name ${name}`);
    return `SET LOCAL ${name} = ${literal(value)}`;
  });
}

type Queryable = {
  query: (query: string | pg.QueryConfig) => Promise<pg.QueryResult | pg.QueryResult[]>;
};

/** The pool (or a transaction's client) under a drizzle database. */
function clientOf(db: Database | Transaction): Queryable {
  const session = db as unknown as { $client?: Queryable; session?: { client?: Queryable } };
  const client = session.$client ?? session.session?.client;
  if (!client) throw new Error('no node-postgres client under this database');
  return client;
}

/**
 * Runs the statements (texts, e.g. from setLocal(), or drizzle SQL inlined here) as one message: one
 * round trip. Returns the rows of every statement, in order (SET gives an empty list).
 */
export async function runInOneTrip(
  db: Database | Transaction,
  statements: readonly (string | SQL)[],
): Promise<Record<string, unknown>[][]> {
  const text = statements.map((statement) => (typeof statement === 'string' ? statement : inlineSql(statement)));
  const result = await clientOf(db).query(text.join(';\n'));
  const results = Array.isArray(result) ? result : [result];
  return results.map((entry) => (entry.rows ?? []) as Record<string, unknown>[]);
}

/**
 * Runs one parameterised statement as a named prepared statement: each connection parses it once, and
 * PostgreSQL plans it with the values for its first five runs, then keeps a generic plan when that costs
 * no more. For a hot statement whose planning costs more than its run (a recommendation's context: about
 * 2 ms of planning against 0.5 ms of execution in PGlite at 20k papers, docs/benchmarks.md). The name
 * comes from the text (`prefix-<hash>`), so every shape of the statement has its own. In embedded mode
 * all connections share one session; the socket server lets each of them use the statement
 * (pglite-socket-server.ts).
 */
export async function runNamed<Row extends Record<string, unknown>>(
  db: Database | Transaction,
  prefix: string,
  query: SQL,
): Promise<Row[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `${prefix}-${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  const result = await clientOf(db).query({ name, text, values: params as unknown[] });
  return ((Array.isArray(result) ? result[0] : result)?.rows ?? []) as Row[];
}
