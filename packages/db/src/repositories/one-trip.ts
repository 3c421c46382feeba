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

/**
 * A value that differs from one request to the next (a query vector, a reader's id or judged items), as
 * a drizzle parameter: runPreparedInOneTrip() makes it a parameter of the prepared statement, so the
 * statement's text (and its cached plan) is shared by every request; everywhere else it is a value like
 * any other (inlined by runInOneTrip(), sent as a parameter by node-postgres through toPostgres()).
 */
class RequestValue {
  constructor(readonly value: string) {}
  toPostgres(): string {
    return this.value;
  }
}

export const requestValue = (value: string) => new RequestValue(value);

function literal(value: unknown): string {
  if (value instanceof RequestValue) return literal(value.value);
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

/** The names of runPreparedInOneTrip's statements begin so (runNamed's do not). */
const PREPARED_PREFIX = 'radar_';

/** Prepared statements a session keeps beyond the ones of the current message (each holds its plan). */
const MAX_PREPARED_PER_SESSION = 32;

/**
 * The prepared statements each session holds, oldest use first (Map order), by connection, or by pool
 * when all of its connections share one session (embedded mode: PGlite has one, sharedSession()).
 */
const preparedBySession = new WeakMap<object, Map<string, true>>();
const sharedSessionPools = new WeakSet<object>();

/** Marks a pool whose connections all share one session (embedded PGlite through its socket server). */
export function sharedSession(pool: object): void {
  sharedSessionPools.add(pool);
}

type PoolLike = { connect(): Promise<Queryable & { release(error?: Error | boolean): void }> };

/** A statement with its RequestValues as `$n` parameters: its prepared name and the values to execute it with. */
function preparedForm(query: SQL): { name: string; text: string; values: string[] } {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const values: string[] = [];
  const positions = new Map<string, number>();
  const body = text.replace(/\$(\d+)/g, (_match, index: string) => {
    const param = params[Number(index) - 1];
    if (!(param instanceof RequestValue)) return literal(param);
    let position = positions.get(param.value);
    if (position === undefined) {
      values.push(param.value);
      position = values.length;
      positions.set(param.value, position);
    }
    return `$${position}`;
  });
  return {
    name: `${PREPARED_PREFIX}${createHash('sha1').update(body).digest('hex').slice(0, 20)}`,
    text: body,
    values,
  };
}

/**
 * runInOneTrip() for statements run on every request whose planning costs more than their run (the
 * candidate search: about 55 % of its message's CPU in PGlite at 20k papers, docs/benchmarks.md, issue
 * 35): each is a SQL prepared statement of its connection's session (PREPARE, sent in the same message
 * the first time), run with EXECUTE after the `settings` (SET LOCAL texts), so they apply when it is
 * planned. The RequestValues are its parameters; everything else stays in its text, so the planner
 * sees the filters' values and PostgreSQL keeps a generic plan after five runs (its plan_cache_mode
 * auto) only when that plan costs no more. One round trip as before, the texts differ only by the
 * statement names. Outside a transaction only: when the session's statements are not what this process
 * believes (another connection of embedded mode's shared session prepared or removed one), the message
 * fails before anything ran, the session's list is read and the message sent again; inside a
 * transaction that failure would abort it, so a transaction's statements go as runInOneTrip().
 * At most MAX_PREPARED_PER_SESSION statements stay prepared per session, the least recently used
 * removed (DEALLOCATE in the same message).
 */
export async function runPreparedInOneTrip(
  db: Database | Transaction,
  settings: readonly string[],
  statements: readonly SQL[],
): Promise<Record<string, unknown>[][]> {
  const target = clientOf(db);
  if (!('connect' in target) || !('totalCount' in target)) {
    return (await runInOneTrip(db, [...settings, ...statements])).slice(settings.length);
  }
  const forms = statements.map(preparedForm);
  const client = await (target as unknown as PoolLike).connect();
  const sessionKey = sharedSessionPools.has(target) ? target : client;
  try {
    for (let attempt = 1; ; attempt++) {
      let known = preparedBySession.get(sessionKey);
      if (!known) {
        known = new Map();
        preparedBySession.set(sessionKey, known);
      }
      const session = known;
      const used = new Set(forms.map((form) => form.name));
      const missing = new Set(forms.map((form) => form.name).filter((name) => !session.has(name))).size;
      const evicted = [...session.keys()]
        .filter((name) => !used.has(name))
        .slice(0, Math.max(0, session.size + missing - MAX_PREPARED_PER_SESSION));
      const prepares = forms.filter((form) => !known.has(form.name));
      const text = [
        ...evicted.map((name) => `DEALLOCATE ${name}`),
        ...[...new Map(prepares.map((form) => [form.name, form])).values()].map(
          (form) => `PREPARE ${form.name} AS ${form.text}`,
        ),
        // Only the per-request values are parameters, so a generic plan is the one the values would give;
        // plan_cache_mode auto kept planning the index route each time (69 custom plans, 0 generic).
        "SET LOCAL plan_cache_mode = 'force_generic_plan'",
        ...settings,
        ...forms.map((form) =>
          form.values.length ? `EXECUTE ${form.name}(${form.values.map(literal).join(', ')})` : `EXECUTE ${form.name}`,
        ),
      ].join(';\n');
      try {
        const result = await client.query({
          text,
          recordAs: [...settings, ...forms.map((form) => form.text)].join(';\n'),
        } as never);
        for (const name of evicted) known.delete(name);
        for (const form of forms) {
          known.delete(form.name);
          known.set(form.name, true);
        }
        const results = Array.isArray(result) ? result : [result];
        return results
          .slice(results.length - forms.length)
          .map((entry) => (entry.rows ?? []) as Record<string, unknown>[]);
      } catch (error) {
        const code = (error as { code?: string }).code;
        // 42P05: already prepared (by another connection of the shared session); 26000: not prepared.
        if (attempt > 2 || (code !== '42P05' && code !== '26000')) throw error;
        // Only ours: runNamed's statements (protocol-level, the socket server keeps their list) are never
        // deallocated here.
        const held = await client.query(
          `SELECT name FROM pg_prepared_statements WHERE starts_with(name, '${PREPARED_PREFIX}')`,
        );
        const rows = (Array.isArray(held) ? held[0] : held)?.rows ?? [];
        preparedBySession.set(sessionKey, new Map(rows.map((row) => [String(row.name), true as const])));
      }
    }
  } finally {
    client.release();
  }
}
