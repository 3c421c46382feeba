import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { brotliCompressSync } from 'node:zlib';
import { createTestDatabase, type TestDatabase } from '@radar/db/testing';
import { removeRedisQueueData } from '@radar/jobs';
import { loadConfig } from '@radar/shared/server';
import { createLogger, type Runtime, type RuntimeOptions, startRuntime } from '../src';
import type { AuthRateLimits } from '../src/features/accounts/account-rate-limits';
import type { HttpTimeouts } from '../src/http-timeouts';
import { ARGON2_PARAMS } from '../src/security/password-hasher';

export interface TestRuntime extends Runtime {
  database: TestDatabase;
  dataDir: string;
  /** Every line the server logged, to check that no secret reaches the logs. */
  logLines: string[];
  jwtSecret: string;
  queuePrefix: string;
  stop(): Promise<void>;
}

/**
 * The real server over a fresh migrated database (PostgreSQL when TEST_DATABASE_URL is set, else
 * PGlite), with real Redis for queues when REDIS_URL is set. Nothing is mocked.
 */
export interface TestRuntimeOptions {
  env?: Record<string, string>;
  /** Defaults to generous limits so tests of other rules do not trip them; pass {} for the real ones. */
  authRateLimits?: Partial<AuthRateLimits>;
  clock?: () => Date;
  /** Short HTTP timeouts, for tests of slow clients against a listening server. */
  httpTimeouts?: Partial<HttpTimeouts>;
  /** Records a failed login's delay instead of waiting it out. */
  loginFailureDelay?: (ms: number) => Promise<unknown>;
  /** Records the pause before a quota refusal answered from memory instead of waiting it out. */
  quotaRefusalPause?: (ms: number) => Promise<unknown>;
  /**
   * argon2id cost and concurrency. Left out: TEST_PASSWORD_HASHING (cheap, so hundreds of registrations
   * and logins do not dominate the suite); files that check the stored hash pass PRODUCTION_PASSWORD_HASHING.
   */
  passwordHashing?: RuntimeOptions['passwordHashing'];
  /**
   * Another server process over this runtime's database, Redis namespace and JWT secret (a second
   * instance, or a restart). Its stop() leaves those to the first.
   */
  shareWith?: TestRuntime;
  /**
   * Rate-limit counters in the database in embedded mode too (RuntimeOptions.countersInDatabase): for
   * tests of two instances or a restart on one database, which embedded mode never runs.
   */
  countersInDatabase?: boolean;
}

const GENEROUS = { max: 10_000, timeWindow: '1 minute' };

/** argon2id at 1 MiB and one pass: the same algorithm and code path, a fraction of the CPU. Tests only. */
export const TEST_PASSWORD_HASHING = { params: { memoryCost: 1024, timeCost: 1, parallelism: 1 } };
/** What the server uses when nothing is configured (OWASP's argon2id parameters). */
export const PRODUCTION_PASSWORD_HASHING = { params: ARGON2_PARAMS };
export const GENEROUS_AUTH_RATE_LIMITS: AuthRateLimits = {
  register: GENEROUS,
  login: GENEROUS,
  loginPerAccountAndClient: GENEROUS,
  loginFailureDelay: { freeFailures: 10_000, firstDelayMs: 0, maxDelayMs: 0, timeWindow: '1 minute' },
  verify: GENEROUS,
  resend: GENEROUS,
  forgot: GENEROUS,
  forgotPerAddress: GENEROUS,
  exportData: GENEROUS,
  emailChangeCodes: GENEROUS,
};

export const GENEROUS_USER_QUOTAS = {
  QUOTA_REQUESTS_PER_MINUTE: '1000000',
  QUOTA_RECOMMEND_PER_MINUTE: '1000000',
  QUOTA_SIMILARITY_PER_MINUTE: '1000000',
  QUOTA_PROFILE_EDITS_PER_HOUR: '1000000',
  QUOTA_ARTICLE_SEARCH_PER_MINUTE: '1000000',
  QUOTA_NEWS_SEARCH_PER_MINUTE: '1000000',
  QUOTA_LIBRARY_EXPORTS_PER_MINUTE: '1000000',
  QUOTA_DATA_EXPORTS_PER_HOUR: '1000000',
  QUOTA_RATING_THRESHOLD_PER_MINUTE: '1000000',
  QUOTA_FEED_PER_HOUR: '1000000',
  QUOTA_CONCURRENT_PER_USER: '0',
};

/** A clock tests can move forward, for expiry and cooldown rules. */
export class TestClock {
  private offsetMs = 0;
  readonly now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export async function startTestRuntime(options: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const env = options.env ?? {};
  const shared = options.shareWith;
  const database = shared?.database ?? (await createTestDatabase());
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-server-test-'));
  const webDistDir = path.join(dataDir, 'web');
  await fs.mkdir(webDistDir);
  await fs.writeFile(
    path.join(webDistDir, 'index.html'),
    '<!doctype html><title>科研雷达</title><div id="root"></div>',
  );
  // A hashed asset with the brotli copy the web build writes beside it (web/vite.config.ts).
  const asset = `export const text = '${'科研雷达 '.repeat(400)}';\n`;
  await fs.mkdir(path.join(webDistDir, 'assets'));
  await fs.writeFile(path.join(webDistDir, 'assets', 'app-abc123.js'), asset);
  await fs.writeFile(path.join(webDistDir, 'assets', 'app-abc123.js.br'), brotliCompressSync(asset));
  const jwtSecret = shared?.jwtSecret ?? randomBytes(48).toString('base64url');
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: jwtSecret,
    // Never schedule fetches of a developer's own config/sources.json from a test.
    INGEST_ENABLED: 'false',
    LOG_LEVEL: 'info',
    // Generous per-user quotas, so tests of other rules do not trip them; a test of the quotas sets its own.
    ...GENEROUS_USER_QUOTAS,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  const logLines: string[] = [];
  const capture = new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  const queuePrefix = shared?.queuePrefix ?? `test-${randomBytes(4).toString('hex')}`;
  const runtime = await startRuntime(config, createLogger(config.logLevel, capture), {
    database,
    webDistDir,
    queuePrefix,
    authRateLimits: options.authRateLimits ?? GENEROUS_AUTH_RATE_LIMITS,
    loginFailureDelay: options.loginFailureDelay,
    quotaRefusalPause: options.quotaRefusalPause,
    clock: options.clock,
    httpTimeouts: options.httpTimeouts,
    passwordHashing: options.passwordHashing ?? TEST_PASSWORD_HASHING,
    countersInDatabase: options.countersInDatabase,
  });
  await runtime.app.ready();
  return {
    ...runtime,
    database,
    dataDir,
    logLines,
    jwtSecret,
    queuePrefix,
    async stop() {
      await runtime.close();
      if (!shared) {
        if (config.redisUrl) await removeRedisQueueData(config.redisUrl, queuePrefix);
        await database.close();
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
