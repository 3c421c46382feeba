import type { PGlite } from '@electric-sql/pglite';
import type { EmbeddedPostgres, SuspendedEmbeddedPostgres } from '../embedded-postgres';

/**
 * Reuse of embedded (PGlite) test databases within one process. Test files share worker processes
 * (`isolate: false`), and each used to start a new PGlite from the migrated template and stop it in
 * afterAll: about a CPU-second a file, most of it Emscripten's in-memory file system writing the
 * template's files. Here a closed database is kept (at most MAX_IDLE per process, not served, so it
 * holds no socket, timer or other handle that would keep the process alive) and, when the next file
 * asks for one, put back to the template's state and handed out again. The reset must leave nothing a
 * test could see, so it is checked, not trusted: if the catalog afterwards differs from the template's
 * (a test created an index, altered a table, ran ALTER SYSTEM...) or any step fails, the instance is
 * stopped and a fresh one started (docs/decisions.md, "Test databases reused within a process").
 */

/** One idle database is enough: a process runs its test files one after another. */
const MAX_IDLE = 1;

/** Set RADAR_TEST_PGLITE_REUSE=off to start every test database afresh (to compare, or to rule reuse out). */
const isReuseEnabled = (): boolean => process.env.RADAR_TEST_PGLITE_REUSE !== 'off';
/** Set RADAR_TEST_PGLITE_REUSE_TRACE=1 to have each reset's CPU time and outcome written to stderr. */
const isTraced = (): boolean => process.env.RADAR_TEST_PGLITE_REUSE_TRACE === '1';

/** PostgreSQL's first oid for objects created after initdb: below it, the system's own. */
const FIRST_NORMAL_OBJECT_ID = 16384;

const SYNC_MESSAGE = new Uint8Array([0x53, 0, 0, 0, 4]);

/** Schemas of the app (radar, bullmq, drizzle's ledger, public's extension objects): all but PostgreSQL's own. */
const APP_SCHEMAS_SQL = `SELECT oid FROM pg_namespace
  WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_%'`;

/** What a fresh instance holds, read once per process from the first one started from the template. */
interface TemplateState {
  /** Every table of the app's schemas, by qualified name: its size with indexes and TOAST (bytes). */
  tableSizes: Map<string, number>;
  /** The rows of the tables the migrations fill (their ledgers), as binary COPY data. */
  seededRows: Map<string, Blob>;
  /** Every sequence of the app's schemas: `setval` arguments that give back its state. */
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
  /**
   * The planner's page and row counts of every relation created after initdb (tables, indexes, TOAST),
   * as JSON: TRUNCATE leaves an index at 0 pages and -1 rows where CREATE INDEX on an empty table wrote
   * 1 page and 0 rows.
   */
  relationCounts: string;
  /** The oids of the objects created after initdb (relations, functions, triggers), to tell a later one. */
  templateObjects: string[];
  /** Catalog digests, by catalog (see catalogFingerprint). */
  fingerprint: Map<string, string>;
}

let templateState: TemplateState | undefined;
const idle: SuspendedEmbeddedPostgres[] = [];

async function listTables(session: PGlite): Promise<{ name: string; bytes: number }[]> {
  const { rows } = await session.query<{ name: string; bytes: string }>(
    `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name,
            pg_total_relation_size(c.oid)::text AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND c.relnamespace IN (${APP_SCHEMAS_SQL})`,
  );
  return rows.map((row) => ({ name: row.name, bytes: Number(row.bytes) }));
}

async function readSequences(session: PGlite): Promise<TemplateState['sequences']> {
  const { rows: names } = await session.query<{ name: string }>(
    `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'S' AND c.relnamespace IN (${APP_SCHEMAS_SQL})`,
  );
  if (names.length === 0) return [];
  const { rows } = await session.query<{ name: string; last_value: string; is_called: boolean }>(
    names
      .map(({ name }) => `SELECT '${name.replaceAll("'", "''")}' AS name, last_value::text, is_called FROM ${name}`)
      .join(' UNION ALL '),
  );
  return rows.map((row) => ({ name: row.name, lastValue: row.last_value, isCalled: row.is_called }));
}

/**
 * Catalogs whose rows define the schema and the server's state, compared by their number of rows and the
 * newest transaction that wrote one (xmin): creating, altering or dropping anything inserts, updates
 * (a new row version, a new xmin) or deletes catalog rows, and hashing these catalogs' whole text took
 * most of a reset's time. pg_class, which the reset itself rewrites (TRUNCATE gives tables and indexes
 * new files; the planner's counts are put back), is compared by content instead, leaving out the file
 * node and transaction horizons, as is pg_database; pg_statistic (emptied by the reset) and
 * pg_largeobject (data) are not here; pg_file_settings catches ALTER SYSTEM before any reload,
 * pg_settings after one.
 */
const FINGERPRINT_CATALOGS = [
  'pg_namespace',
  'pg_attribute',
  'pg_attrdef',
  'pg_constraint',
  'pg_index',
  'pg_inherits',
  'pg_partitioned_table',
  'pg_trigger',
  'pg_event_trigger',
  'pg_rewrite',
  'pg_proc',
  'pg_aggregate',
  'pg_type',
  'pg_enum',
  'pg_range',
  'pg_operator',
  'pg_opclass',
  'pg_opfamily',
  'pg_amop',
  'pg_amproc',
  'pg_am',
  'pg_cast',
  'pg_collation',
  'pg_conversion',
  'pg_language',
  'pg_transform',
  'pg_extension',
  'pg_depend',
  'pg_shdepend',
  'pg_description',
  'pg_shdescription',
  'pg_seclabel',
  'pg_shseclabel',
  'pg_authid',
  'pg_auth_members',
  'pg_db_role_setting',
  'pg_default_acl',
  'pg_init_privs',
  'pg_policy',
  'pg_publication',
  'pg_publication_rel',
  'pg_publication_namespace',
  'pg_subscription',
  'pg_foreign_data_wrapper',
  'pg_foreign_server',
  'pg_foreign_table',
  'pg_user_mapping',
  'pg_sequence',
  'pg_statistic_ext',
  'pg_tablespace',
  'pg_ts_config',
  'pg_ts_config_map',
  'pg_ts_dict',
  'pg_ts_parser',
  'pg_ts_template',
  'pg_largeobject_metadata',
  'pg_parameter_acl',
];

const FINGERPRINT_SQL = [
  ...FINGERPRINT_CATALOGS.map(
    (catalog) => `SELECT '${catalog}' AS catalog, count(*) || ':' || coalesce(max(xmin::text::bigint), 0) AS digest
                    FROM pg_catalog.${catalog}`,
  ),
  `SELECT 'pg_class', md5(string_agg(t::text, '|' ORDER BY t::text)) FROM (
     SELECT oid, relname, relnamespace, reltype, reloftype, relowner, relam, reltablespace, relpages,
            reltuples, relallvisible, reltoastrelid, relhasindex, relisshared, relpersistence, relkind,
            relnatts, relchecks, relhasrules, relhastriggers, relhassubclass, relrowsecurity,
            relforcerowsecurity, relispopulated, relreplident, relispartition, relrewrite, relacl,
            reloptions, relpartbound
       FROM pg_catalog.pg_class) t`,
  `SELECT 'pg_database', md5(string_agg(t::text, '|' ORDER BY t::text)) FROM (
     SELECT oid, datname, datdba, encoding, datlocprovider, datistemplate, datallowconn, datconnlimit,
            dattablespace, datcollate, datctype, datacl
       FROM pg_catalog.pg_database) t`,
  `SELECT 'pg_settings', md5(string_agg(name || '=' || coalesce(setting, ''), '|' ORDER BY name)) FROM pg_settings`,
  `SELECT 'pg_file_settings', md5(string_agg(t::text, '|' ORDER BY t::text)) FROM pg_file_settings t`,
].join(' UNION ALL ');

async function catalogFingerprint(session: PGlite): Promise<Map<string, string>> {
  const { rows } = await session.query<{ catalog: string; digest: string | null }>(FINGERPRINT_SQL);
  return new Map(rows.map((row) => [row.catalog, row.digest ?? '']));
}

/**
 * The session's own state goes back to a new connection's: an extended query left without its Sync ends,
 * an open transaction rolls back, then DISCARD ALL closes cursors, deallocates prepared statements,
 * UNLISTENs every channel, releases advisory locks, drops temporary tables and resets every setting
 * (search_path too: resume() sets it again, as at start).
 *
 * pgvector's and PL/pgSQL's libraries, once loaded (by the first vector, or the first trigger or
 * function run), stay loaded and add their settings (hnsw.*, ivfflat.*, plpgsql.*) to pg_settings;
 * nothing unloads them. They are loaded here, in the template state's instance too, so that pg_settings
 * compares alike. The one difference a test could see: on a reused database those settings exist
 * before its first vector or function.
 */
async function resetSession(session: PGlite): Promise<void> {
  await session.execProtocolRaw(SYNC_MESSAGE);
  if (session.isInTransaction()) await session.exec('ROLLBACK');
  await session.exec('DISCARD ALL'); // alone: in a multi-statement text it would run in a transaction block
  await session.exec("SELECT '[1]'::public.vector; DO $$ BEGIN END $$");
}

async function readTemplateState(session: PGlite): Promise<TemplateState> {
  await resetSession(session);
  const tables = await listTables(session);
  const seededRows = new Map<string, Blob>();
  const { rows: filled } = await session.query<{ name: string }>(
    tables
      .map(({ name }) => `SELECT '${name.replaceAll("'", "''")}' AS name WHERE EXISTS (SELECT FROM ${name})`)
      .join(' UNION ALL '),
  );
  for (const { name } of filled) {
    const copied = await session.query(`COPY ${name} TO '/dev/blob' (FORMAT binary)`);
    if (!copied.blob) throw new Error(`PGlite returned no COPY data for ${name}`);
    seededRows.set(name, copied.blob);
  }
  const { rows } = await session.query<{ counts: string }>(
    `SELECT json_agg(json_build_object('oid', oid, 'relpages', relpages, 'reltuples', reltuples,
                                       'relallvisible', relallvisible))::text AS counts
       FROM pg_class WHERE oid >= ${FIRST_NORMAL_OBJECT_ID}`,
  );
  const { rows: objects } = await session.query<{ oid: string }>(
    `SELECT oid::text FROM pg_class WHERE oid >= ${FIRST_NORMAL_OBJECT_ID}
     UNION ALL SELECT oid::text FROM pg_proc WHERE oid >= ${FIRST_NORMAL_OBJECT_ID}
     UNION ALL SELECT oid::text FROM pg_trigger WHERE oid >= ${FIRST_NORMAL_OBJECT_ID}`,
  );
  return {
    templateObjects: objects.map((object) => object.oid),
    tableSizes: new Map(tables.map((table) => [table.name, table.bytes])),
    seededRows,
    relationCounts: rows[0]?.counts ?? '[]',
    sequences: await readSequences(session),
    fingerprint: await catalogFingerprint(session),
  };
}

/**
 * What the app itself creates on a database while it runs, dropped again: the per-model HNSW indexes
 * (embedding.repository.ts, ensureIndexes), the user-change notification triggers and their functions
 * (user.repository.ts, ensureChangeNotifications) and BullMQ's per-queue job-id sequences. Only these
 * kinds, only in the app's schemas, and never with CASCADE: anything that depends on one (a new
 * table's default, a constraint's index) makes the DROP fail, and the instance is not reused. A new
 * table, type, view or extension is left for the fingerprint to refuse.
 */
async function dropObjectsAddedSinceTemplate(session: PGlite, state: TemplateState): Promise<void> {
  const { rows } = await session.query<{ statement: string }>(
    `SELECT format('DROP TRIGGER %I ON %s', t.tgname, t.tgrelid::regclass) AS statement, 1 AS step
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE t.oid >= ${FIRST_NORMAL_OBJECT_ID} AND NOT t.tgisinternal AND NOT (t.oid::text = ANY($1::text[]))
        AND c.relnamespace IN (${APP_SCHEMAS_SQL})
     UNION ALL
     SELECT format('DROP FUNCTION %s', p.oid::regprocedure), 2
       FROM pg_proc p
      WHERE p.oid >= ${FIRST_NORMAL_OBJECT_ID} AND NOT (p.oid::text = ANY($1::text[]))
        AND p.pronamespace IN (${APP_SCHEMAS_SQL})
     UNION ALL
     SELECT format('DROP %s %s', CASE c.relkind WHEN 'i' THEN 'INDEX' ELSE 'SEQUENCE' END, c.oid::regclass), 3
       FROM pg_class c
      WHERE c.oid >= ${FIRST_NORMAL_OBJECT_ID} AND NOT (c.oid::text = ANY($1::text[]))
        AND c.relkind IN ('i', 'S') AND c.relnamespace IN (${APP_SCHEMAS_SQL})
     ORDER BY step`,
    [state.templateObjects],
  );
  for (const { statement } of rows) await session.exec(statement);
}

/**
 * Puts a used database back to the template's state. Returns why it cannot be reused (schema drift), or
 * undefined when it can; throws when a step fails.
 */
async function resetToTemplate(session: PGlite, state: TemplateState): Promise<string | undefined> {
  await resetSession(session);
  await dropObjectsAddedSinceTemplate(session, state);
  const tables = await listTables(session);
  const unknown = tables.find((table) => !state.tableSizes.has(table.name));
  if (unknown) return `table ${unknown.name} is not in the template`;
  // A table written to has grown (heap, index or TOAST pages; a VACUUM that shrinks the heap adds
  // free-space and visibility maps): one that has not is as the template left it. The seeded ones are
  // always refilled, as an update in place keeps their size.
  const written = tables.filter((table) => table.bytes !== state.tableSizes.get(table.name)).map((table) => table.name);
  const toEmpty = [...new Set([...written, ...state.seededRows.keys()])];
  if (toEmpty.length > 0) await session.exec(`TRUNCATE ${toEmpty.join(', ')} CASCADE`);
  if (state.seededRows.size > 0) {
    // The template's own rows, as they were: no trigger or foreign-key check runs on them again.
    await session.exec("SET session_replication_role = 'replica'");
    for (const [name, blob] of state.seededRows) {
      await session.query(`COPY ${name} FROM '/dev/blob' (FORMAT binary)`, [], { blob });
    }
    await session.exec('RESET session_replication_role');
  }
  if (state.sequences.length > 0) {
    await session.query(
      `SELECT ${state.sequences
        .map((_, index) => `setval($${3 * index + 1}::regclass, $${3 * index + 2}::bigint, $${3 * index + 3}::boolean)`)
        .join(', ')}`,
      state.sequences.flatMap((sequence) => [sequence.name, sequence.lastValue, sequence.isCalled]),
    );
  }
  await session.query(
    `UPDATE pg_class c SET relpages = s.relpages, reltuples = s.reltuples, relallvisible = s.relallvisible
       FROM json_to_recordset($1::json) AS s(oid oid, relpages integer, reltuples real, relallvisible integer)
      WHERE c.oid = s.oid
        AND (c.relpages, c.reltuples, c.relallvisible) IS DISTINCT FROM (s.relpages, s.reltuples, s.relallvisible)`,
    [state.relationCounts],
  );
  // TRUNCATE keeps the planner's statistics of a table; a test's ANALYZE must not steer the next file's plans.
  await session.exec(`DELETE FROM pg_statistic WHERE starelid IN (
      SELECT oid FROM pg_class WHERE relnamespace IN (${APP_SCHEMAS_SQL}));
    SELECT pg_stat_reset();`);
  const fingerprint = await catalogFingerprint(session);
  const drifted = [...state.fingerprint].filter(([catalog, digest]) => fingerprint.get(catalog) !== digest);
  if (drifted.length > 0)
    return `catalog differs from the template's: ${drifted.map(([catalog]) => catalog).join(', ')}`;
  return undefined;
}

function trace(message: string, started: NodeJS.CpuUsage): void {
  if (!isTraced()) return;
  const used = process.cpuUsage(started);
  process.stderr.write(
    `[pglite-reuse ${process.pid}] ${message} (${((used.user + used.system) / 1000).toFixed(1)} ms CPU)\n`,
  );
}

/**
 * Records the template's state from a database just started from the template, before anyone uses it
 * (once per process; later calls do nothing).
 */
export async function rememberTemplateState(embedded: EmbeddedPostgres): Promise<EmbeddedPostgres> {
  if (templateState || !isReuseEnabled()) return embedded;
  const started = process.cpuUsage();
  const suspended = await embedded.suspend();
  try {
    templateState = await readTemplateState(suspended.session);
    const resumed = await suspended.resume();
    trace('template state recorded', started);
    return resumed;
  } catch (error) {
    await suspended.stop().catch(() => {});
    throw error;
  }
}

/** An idle database put back to the template's state and served again, if there is one that passes the checks. */
export async function takeIdleDatabase(): Promise<EmbeddedPostgres | undefined> {
  const state = templateState;
  for (let suspended = idle.pop(); suspended && state; suspended = idle.pop()) {
    const started = process.cpuUsage();
    try {
      const drift = await resetToTemplate(suspended.session, state);
      if (drift === undefined) {
        const resumed = await suspended.resume();
        trace('reset and reused', started);
        return resumed;
      }
      trace(`not reused: ${drift}`, started);
    } catch (error) {
      trace(`not reused: the reset failed (${(error as Error).message})`, started);
    }
    await suspended.stop().catch(() => {});
  }
  return undefined;
}

/** A test file is done with a database started from the template: kept idle for the next, or stopped. */
export async function releaseDatabase(embedded: EmbeddedPostgres): Promise<void> {
  if (!templateState || !isReuseEnabled() || idle.length >= MAX_IDLE) {
    await embedded.stop();
    return;
  }
  const suspended = await embedded.suspend().catch(async (error: unknown) => {
    await embedded.stop().catch(() => {});
    throw error;
  });
  // Another file's database may have taken the place meanwhile (two closed at once).
  if (idle.length >= MAX_IDLE) await suspended.stop();
  else idle.push(suspended);
}
