import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { UserRepository, type UserRow } from '@radar/db';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { removeRedisQueueData } from '@radar/jobs';
import { createLogger, type Runtime, startRuntime } from '@radar/server';
import { loadConfig } from '@radar/shared/server';

export interface E2eServer {
  /** http://127.0.0.1:<ephemeral port>, no trailing slash. */
  baseUrl: string;
  runtime: Runtime;
  database: TestDatabase;
  /** Inserts a verified user and signs a login token the server accepts. */
  createSignedInUser(email: string): Promise<{ user: UserRow; token: string }>;
  close(): Promise<void>;
}

export interface StartServerOptions {
  /** The built web app served at `/`. */
  webDistDir: string;
  /**
   * Run the built-in catalogue of sources (no sources file), fetching from this origin instead of the
   * real hosts (RuntimeOptions.catalogueOriginForTests). Left out: the server has no sources at all
   * (INGEST_SOURCES_JSON with an empty list), so a profile naming a field fetches nothing.
   */
  catalogueOrigin?: string;
  /** Further settings (environment variables), e.g. an external API's base URL pointed at a local server. */
  env?: Record<string, string>;
}

/**
 * The real server (startRuntime: database, queue, in-process worker, mail outbox, HTTP app) on a fresh
 * test database: PostgreSQL when TEST_DATABASE_URL is set, else in-memory PGlite; Redis when REDIS_URL
 * is set, else BullMQ's PostgreSQL backend. Listens on 127.0.0.1 only, on an ephemeral port.
 */
export async function startServer({ webDistDir, catalogueOrigin, env }: StartServerOptions): Promise<E2eServer> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    const errors: unknown[] = [];
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => errors.push(error));
    }
    if (errors.length > 0) throw new AggregateError(errors, 'e2e server shutdown failed');
  };

  try {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-e2e-data-'));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));

    const database = await createTestDatabase();
    cleanups.push(() => database.close());

    // DATABASE_URL stays unset: the runtime uses the database passed in.
    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(36).toString('base64'),
      REDIS_URL: process.env.REDIS_URL || undefined,
      HOST: '127.0.0.1',
      // No scheduled SCImago fetch: browser tests never reach real hosts.
      JOURNAL_TIERS_AUTO: 'false',
      ...(catalogueOrigin
        ? { SOURCES_FILE: path.join(dataDir, 'no-sources.yaml'), INGEST_ARXIV_MIN_INTERVAL_MS: '100' }
        : { INGEST_SOURCES_JSON: '{"sources":[]}' }),
      ...env,
    });
    const queuePrefix = `e2e-${randomBytes(4).toString('hex')}`;
    // Runs after runtime.close() (cleanups run in reverse): the worker must be gone first.
    const { redisUrl } = config;
    if (redisUrl) cleanups.push(() => removeRedisQueueData(redisUrl, queuePrefix));

    const runtime = await startRuntime(config, createLogger(process.env.E2E_LOG_LEVEL || 'silent'), {
      database,
      webDistDir,
      queuePrefix,
      // The hourly refit (minute 41) would replace the model the corpus was embedded with in the middle of
      // a file, changing every similarity a test reads; nothing here waits for a recurring job.
      recurringJobs: false,
      ...(catalogueOrigin ? { catalogueOriginForTests: catalogueOrigin } : {}),
    });
    cleanups.push(() => runtime.close());

    await runtime.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = runtime.app.server.address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}`;

    return {
      baseUrl,
      runtime,
      database,
      async createSignedInUser(email) {
        const user = await new UserRepository(database.db).create({ email, isEmailVerified: true });
        const token = await runtime.app.signIn(user);
        return { user, token };
      },
      close,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
