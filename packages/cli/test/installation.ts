import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import { type DatabaseHandle, openDatabase } from '@radar/db';
import { createMigratedDataDir, createTestDatabase, testDatabaseUrl } from '@radar/db/testing';
import { createQueueConnection, type QueueConnection, removeRedisQueueData } from '@radar/jobs';

/**
 * An installation for the commands to work on, in the mode of the test run:
 * - TEST_DATABASE_URL set: a fresh PostgreSQL database (DATABASE_URL), with jobs in Redis when
 *   REDIS_URL is set;
 * - otherwise: an embedded database in a fresh DATA_DIR, held open by this process as a running server
 *   holds it, so the commands attach through its socket; jobs in BullMQ's PostgreSQL backend there.
 * `database` is the test's own connection (to create users and look at what a command did), and
 * `queues` the commands' queue connection (same backend and QUEUE_PREFIX).
 */
export interface Installation {
  database: DatabaseHandle;
  env: Record<string, string>;
  queues: QueueConnection;
  close(): Promise<void>;
}

export async function openInstallation(): Promise<Installation> {
  const prefix = `cli-${randomBytes(4).toString('hex')}`;
  if (testDatabaseUrl()) {
    const database = await createTestDatabase();
    const redisUrl = process.env.REDIS_URL || undefined;
    return {
      database,
      env: {
        DATA_DIR: os.tmpdir(),
        DATABASE_URL: String(database.connectionConfig.connectionString),
        QUEUE_PREFIX: prefix,
        LOG_LEVEL: 'silent',
        ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      },
      queues: createQueueConnection({ redisUrl, postgres: database.connectionConfig, prefix }),
      async close() {
        if (redisUrl) await removeRedisQueueData(redisUrl, prefix);
        await database.close();
      },
    };
  }
  const dataDir = await createMigratedDataDir();
  const database = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 2, migrate: false });
  return {
    database,
    env: { DATA_DIR: dataDir, QUEUE_PREFIX: prefix, LOG_LEVEL: 'silent' },
    queues: createQueueConnection({ redisUrl: undefined, postgres: database.connectionConfig, prefix }),
    async close() {
      await database.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
