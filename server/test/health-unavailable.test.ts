import { wrapPool } from '@radar/db';
import { createQueue } from '@radar/jobs';
import { QUEUE_NAMES } from '@radar/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createLogger } from '../src';
import { createMailer } from '../src/mail/mailer';
import { HealthService } from '../src/services/health.service';
import { startTestRuntime, type TestRuntime } from './test-runtime';

let runtime: TestRuntime;
// A database nobody listens on: port 1 on this machine refuses connections at once.
const unreachablePool = new pg.Pool({ host: '127.0.0.1', port: 1, user: 'postgres', connectionTimeoutMillis: 2_000 });
unreachablePool.on('error', () => {});

beforeAll(async () => {
  runtime = await startTestRuntime();
});

afterAll(async () => {
  await unreachablePool.end();
  await runtime?.stop();
});

describe('GET /api/health when the database is down', () => {
  it('answers 503 and says which part failed', async () => {
    const queue = createQueue<unknown>(
      { backend: 'postgres', postgres: runtime.database.connectionConfig, prefix: 'health-test' },
      QUEUE_NAMES.maintenance,
    );
    const health = new HealthService({
      version: 'test',
      database: wrapPool(unreachablePool, 'external', {}),
      probeQueue: queue,
      queueBackend: 'postgres',
      workerInProcess: false,
      mailer: createMailer({ smtpUrl: undefined, from: 'test', outboxDir: `${runtime.dataDir}/outbox` }),
    });
    const app = await buildApp({
      config: { jwtExpiresIn: '1h', trustProxy: false, webBaseUrl: 'http://localhost:3000' },
      version: 'test',
      logger: createLogger('silent'),
      database: runtime.database,
      health,
      jwtSecret: runtime.jwtSecret,
      rateLimitRedis: undefined,
      webDistDir: undefined,
      mailer: createMailer({ smtpUrl: undefined, from: 'test', outboxDir: `${runtime.dataDir}/outbox` }),
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(503);
      const body = response.json();
      expect(body.status).toBe('unavailable');
      expect(body.database.status).toBe('error');
      expect(body.database.error).toMatch(/ECONNREFUSED|connect/i);
      expect(body.queue.status).toBe('ok');
    } finally {
      await app.close();
      await queue.close();
    }
  });
});
