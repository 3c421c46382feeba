import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

/**
 * Applies the committed SQL migrations. Server and worker may start together, so an advisory lock
 * makes the second one wait and then find nothing to do.
 */
export async function runMigrations(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('radar.migrations'))");
    try {
      await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('radar.migrations'))");
    }
  } finally {
    client.release();
  }
}
