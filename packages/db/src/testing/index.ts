import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PostgresConnection, type PostgresConnectionOptions } from 'bullmq';
import pg from 'pg';
import { backendPoolOptions, type DatabaseHandle, wrapPool } from '../connection';
import { type EmbeddedPostgres, embeddedDataPath, startEmbeddedPostgres } from '../embedded-postgres';
import { MIGRATIONS_DIR, runMigrations } from '../migrate';
import { releaseDatabase, rememberTemplateState, takeIdleDatabase } from './pglite-reuse';

/** The tables, for tests that write rows no repository writes (a delivered alert, a broken row). */
export * as schema from '../schema';

/**
 * A fresh, migrated database per test file, never a mock:
 * - TEST_DATABASE_URL set: a PostgreSQL server. Migrations run once into a template database (named
 *   after a hash of the migration files), and each test file gets a clone of it (fast, isolated).
 * - unset: a new in-memory PGlite instance, served over its own socket like the embedded mode, started
 *   from a migrated template (a dump of the data directory kept under node_modules/.cache, named after
 *   the migrations and the PGlite versions). Starting from it skips initdb and the migrations, which
 *   took most of each test file's set-up time. The template also holds BullMQ's own tables (schema
 *   `bullmq`, its PostgreSQL backend in embedded mode), which a worker or queue would otherwise create in
 *   every test database: about 0.45 CPU-seconds each (docs/benchmarks.md, "Issue 36, third pass").
 */

export interface TestDatabase extends DatabaseHandle {
  /** 'postgres' or 'pglite', for test names and skip messages. */
  engine: 'postgres' | 'pglite';
}

// Test support reads the environment directly: it configures the test run, not the app.
export const testDatabaseUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined;

async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = (await fs.readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.sql')).sort();
  for (const file of files) hash.update(file).update(await fs.readFile(path.join(MIGRATIONS_DIR, file)));
  return hash.digest('hex').slice(0, 16);
}

const withDatabase = (url: string, database: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
};

async function ensureTemplate(adminPool: pg.Pool, adminUrl: string): Promise<string> {
  const template = `radar_tpl_${await migrationsHash()}`;
  const client = await adminPool.connect();
  try {
    // Test files start in parallel: one builds the template, the others wait for it.
    await client.query("SELECT pg_advisory_lock(hashtext('radar.test-template'))");
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${template}`);
      const templatePool = new pg.Pool({ connectionString: withDatabase(adminUrl, template), max: 2 });
      try {
        await runMigrations(templatePool);
      } catch (error) {
        await templatePool.end();
        await client.query(`DROP DATABASE IF EXISTS ${template}`);
        throw error;
      }
      await templatePool.end();
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('radar.test-template'))");
    client.release();
  }
  return template;
}

/**
 * Clients closed just before (BullMQ's pools end asynchronously) may still be connected for a moment;
 * wait for them rather than terminating them, which would surface as errors in those clients.
 */
async function dropDatabase(adminPool: pg.Pool, name: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await adminPool.query(`DROP DATABASE IF EXISTS ${name}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006') throw error; // 55006: still in use
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await adminPool.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

async function createPostgresTestDatabase(adminUrl: string): Promise<TestDatabase> {
  const adminPool = new pg.Pool({ connectionString: adminUrl, max: 2 });
  const template = await ensureTemplate(adminPool, adminUrl);
  const name = `radar_test_${randomBytes(6).toString('hex')}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await adminPool.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      break;
    } catch (error) {
      // 55006: the template is briefly in use by a concurrent clone.
      if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
  const connectionConfig = { connectionString: withDatabase(adminUrl, name) };
  const pool = new pg.Pool({ ...connectionConfig, max: 10, ...backendPoolOptions('external') });
  const handle = wrapPool(pool, 'external', connectionConfig);
  return {
    ...handle,
    engine: 'postgres',
    async close() {
      await pool.end();
      await dropDatabase(adminPool, name);
      await adminPool.end();
    },
  };
}

const TEMPLATE_CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/radar-pglite-template/', import.meta.url));

/** The installed version of a package (its exports hide package.json): from the nearest package.json up. */
async function packageVersion(name: string): Promise<string> {
  let dir = path.dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    const manifest = await fs.readFile(path.join(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (manifest) {
      const parsed = JSON.parse(manifest) as { name?: string; version?: string };
      if (parsed.name === name && parsed.version) return parsed.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the version of ${name}`);
    dir = parent;
  }
}

/**
 * Settings the template carries (postgresql.auto.conf), so every instance started from it uses them.
 * PGlite's data directory asks for PostgreSQL's default 128 MB of shared buffers, which each new
 * instance allocates and clears in WASM memory: about a CPU-second per test database. A test database
 * holds a few MB, so 16 MB of buffers keeps it all in memory at a fraction of that start-up cost.
 */
const TEMPLATE_SETTINGS = { shared_buffers: '16MB' };
/** Part of the template's file name: a change of the settings above builds a new template. */
const TEMPLATE_FORMAT = 'sb16';

/** The template file for this set of migrations, this PGlite and this BullMQ: another set or version gets another file. */
async function pgliteTemplatePath(): Promise<string> {
  const versions = await Promise.all(
    ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', 'bullmq'].map(packageVersion),
  );
  return path.join(TEMPLATE_CACHE_DIR, `${await migrationsHash()}-${versions.join('-')}-${TEMPLATE_FORMAT}.tar`);
}

/**
 * Saves a freshly migrated instance as the template. Test files start in parallel and may each build
 * one: every writer renames a complete file into place, so readers never see half a template.
 */
async function saveTemplate(embedded: EmbeddedPostgres, file: string): Promise<void> {
  const tarball = Buffer.from(await (await embedded.dumpDataDir()).arrayBuffer());
  await fs.mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;
  await fs.writeFile(partial, tarball);
  await fs.rename(partial, file);
  // Templates of older migrations are never used again.
  for (const entry of await fs.readdir(path.dirname(file))) {
    if (entry.endsWith('.tar') && entry !== path.basename(file)) {
      await fs.rm(path.join(path.dirname(file), entry), { force: true });
    }
  }
}

/**
 * The template's bytes, read once per process (test files share worker processes): a Uint8Array over
 * its own ArrayBuffer.
 */
const templates = new Map<string, Uint8Array<ArrayBuffer>>();

async function readTemplate(templateFile: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const cached = templates.get(templateFile);
  if (cached) return cached;
  const bytes = await fs
    .readFile(templateFile)
    .then((buffer) => new Uint8Array(buffer))
    .catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
  if (bytes) templates.set(templateFile, bytes);
  return bytes;
}

/**
 * The template as the Blob PGlite loads a data directory from. PGlite only reads it whole
 * (`arrayBuffer()`), and Node 20's Blob.arrayBuffer() takes about a CPU-second for the template's
 * 40 MB where a copy of the bytes takes milliseconds; each instance gets its own copy. (Only
 * `arrayBuffer()` and `type` are meant to be read: `size` says 0.)
 */
class TemplateBlob extends Blob {
  readonly #bytes: Uint8Array<ArrayBuffer>;

  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super([], { type: 'application/x-tar' });
    this.#bytes = bytes;
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bytes.slice().buffer;
  }
}

/**
 * BullMQ's PostgreSQL backend creates its schema on first connect (`migrate: true`, as
 * packages/jobs/src/queue-connection.ts connects); done once here, each later connect only reads its
 * migration ledger. The same BullMQ migrations, so the tables are the ones production creates.
 */
async function migrateQueueSchema(connectionConfig: pg.PoolConfig): Promise<void> {
  const connection = new PostgresConnection({
    ...connectionConfig,
    max: 1,
    schema: 'bullmq',
    migrate: true,
  } as PostgresConnectionOptions);
  try {
    await connection.waitUntilReady();
  } finally {
    await connection.close();
  }
}

/**
 * A database in the template's state: an idle one of this process put back to it (pglite-reuse.ts), or
 * a new instance started from the template.
 */
async function openFromTemplate(template: Uint8Array<ArrayBuffer>): Promise<EmbeddedPostgres> {
  const reused = await takeIdleDatabase();
  if (reused) return reused;
  const embedded = await startEmbeddedPostgres({ dataDir: undefined, initialData: new TemplateBlob(template) });
  return rememberTemplateState(embedded);
}

async function createPgliteTestDatabase(): Promise<TestDatabase> {
  const templateFile = await pgliteTemplatePath();
  const template = await readTemplate(templateFile);
  if (template) return servePgliteTestDatabase(await openFromTemplate(template), releaseDatabase);
  const embedded = await startEmbeddedPostgres({ dataDir: undefined });
  try {
    const migrationPool = new pg.Pool({ ...embedded.connectionConfig, max: 2 });
    try {
      await runMigrations(migrationPool);
      await migrateQueueSchema(embedded.connectionConfig);
      for (const [name, value] of Object.entries(TEMPLATE_SETTINGS)) {
        await migrationPool.query(`ALTER SYSTEM SET ${name} = '${value}'`);
      }
    } finally {
      await migrationPool.end();
    }
    await saveTemplate(embedded, templateFile);
  } catch (error) {
    await embedded.stop();
    throw error;
  }
  // The instance that built the template ran its migrations and ALTER SYSTEM: not reused.
  return servePgliteTestDatabase(embedded, (built) => built.stop());
}

function servePgliteTestDatabase(
  embedded: EmbeddedPostgres,
  release: (embedded: EmbeddedPostgres) => Promise<void>,
): TestDatabase {
  const pool = new pg.Pool({ ...embedded.connectionConfig, max: 10 });
  const handle = wrapPool(pool, 'embedded', embedded.connectionConfig);
  let closed: Promise<void> | undefined;
  return {
    ...handle,
    engine: 'pglite',
    close() {
      // Once: a second close must not hand the same instance to the idle list twice.
      closed ??= pool.end().then(() => release(embedded));
      return closed;
    },
  };
}

/**
 * A new directory under the system's temp dir, to use as DATA_DIR, holding an embedded database that
 * is already migrated (a copy of the PGlite template). For tests of commands and processes that open
 * DATA_DIR themselves: an empty DATA_DIR costs initdb and every migration at its first open, about
 * 6 CPU-seconds. Tests of that first start use an empty directory.
 */
export async function createMigratedDataDir(): Promise<string> {
  const templateFile = await pgliteTemplatePath();
  let template = await readTemplate(templateFile);
  if (!template) {
    await (await createPgliteTestDatabase()).close(); // builds the template
    template = await readTemplate(templateFile);
    if (!template) throw new Error(`no PGlite template at ${templateFile}`);
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-data-'));
  const db = await PGlite.create(embeddedDataPath(dataDir), {
    extensions: { vector },
    loadDataDir: new TemplateBlob(template),
  });
  await db.close();
  return dataDir;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const url = testDatabaseUrl();
  return url ? createPostgresTestDatabase(url) : createPgliteTestDatabase();
}
export * from './fixtures';
