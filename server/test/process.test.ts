import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openDatabase, UserRepository } from '@radar/db';
import { createTestDatabase, testDatabaseUrl } from '@radar/db/testing';
import { scrapeMetrics } from '@radar/metrics/testing';
import { describeStartupFailure, loadConfig } from '@radar/shared/server';
import { radarProcessArgs } from '@radar/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, startRuntime } from '../src';

/**
 * The server and CLI as operators run them: separate processes, embedded database in a DATA_DIR.
 * Start-up failures are also checked in this process (what main.ts does before it listens), without
 * the seconds each new process spends loading tsx and the module graph.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The environment a fresh shell would have: nothing of the test run's database or queue settings. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL, REDIS_URL, TEST_DATABASE_URL, JWT_SECRET, SMTP_URL, ...rest } = process.env;
  // No metrics listener: its default port (9464) may be taken by another server on this machine. No
  // scheduled SCImago fetch: tests never reach real hosts (and a stop would wait for its retries).
  return { ...rest, LOG_LEVEL: 'info', HOST: '127.0.0.1', METRICS_PORT: '0', JOURNAL_TIERS_AUTO: 'false', ...extra };
}

interface ServerProcess {
  child: ChildProcess;
  port: number;
  output: () => string;
  stop(): Promise<number | null>;
}

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, radarProcessArgs('server'), {
    cwd: REPO_ROOT,
    env: cleanEnv({ PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // An empty DATA_DIR means initdb and every migration first: past a minute beside other test files.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // Not left running past the test (it holds DATA_DIR and a core).
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    child,
    port,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

async function runServerExpectingFailure(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, radarProcessArgs('server'), {
    cwd: REPO_ROOT,
    env: cleanEnv({ PORT: String(await freePort()), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

/** main.ts's start-up (config, then the runtime) in this process: the one line it would print. */
async function startupFailure(env: Record<string, string>): Promise<string> {
  let runtime: Awaited<ReturnType<typeof startRuntime>>;
  try {
    runtime = await startRuntime(loadConfig(env), createLogger('silent'));
  } catch (error) {
    return describeStartupFailure(error);
  }
  await runtime.close();
  throw new Error('start-up did not fail');
}

let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-process-test-'));
});

afterAll(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

// The processes here get a clean environment (cleanEnv): the test run's database and queue settings
// never reach them, so the PostgreSQL mode of `pnpm test` would only repeat the embedded mode's run of
// this test (about 40 CPU-seconds of PGlite processes: docs/benchmarks.md, issue 36's fourth pass).
describe.skipIf(testDatabaseUrl())('embedded mode (no DATABASE_URL)', () => {
  it('starts, serves health, the API and metrics, keeps data across a restart, and guards DATA_DIR', async () => {
    const metricsPort = await freePort();
    const first = await startServer({ DATA_DIR: dataDir, METRICS_PORT: String(metricsPort) });
    try {
      // The internal listener (METRICS_PORT) starts just after the main port.
      await expect
        .poll(() =>
          fetch(`http://127.0.0.1:${metricsPort}/health`).then(
            (r) => r.status,
            () => 0,
          ),
        )
        .toBe(200);
      await fetch(`http://127.0.0.1:${first.port}/api/health`);
      const metrics = await scrapeMetrics(metricsPort);
      expect(
        metrics.value('http_request_duration_seconds_count', { route: '/api/health', status_code: '200' }),
      ).toBeGreaterThanOrEqual(1);
      expect(metrics.value('radar_embedding_backlog', { kind: 'news' })).toBe(0);

      const health = await (await fetch(`http://127.0.0.1:${first.port}/api/health`)).json();
      expect(health).toMatchObject({
        status: 'ok',
        mode: 'embedded',
        database: { status: 'ok' },
        queue: { backend: 'postgres' },
      });
      expect(first.output()).toContain('(embedded mode)');

      const unauthorised = await fetch(`http://127.0.0.1:${first.port}/api/auth/user/`);
      expect(unauthorised.status).toBe(401);
      expect(await unauthorised.json()).toMatchObject({ code: 'AUTH_REQUIRED' });

      // A second server on the same DATA_DIR gets one clear line instead of corrupting the data (as a
      // process, such a line is all it prints before exiting with 1: see "bad configuration").
      const second = await startupFailure({ DATA_DIR: dataDir });
      expect(second).not.toContain('\n');
      expect(second).toContain(`DATA_DIR ${dataDir} is in use by process ${first.child.pid}`);

      // Operator commands still work: they go through the running server's socket.
      const { stdout } = await run(process.execPath, [...radarProcessArgs('cli'), 'status'], {
        cwd: REPO_ROOT,
        env: cleanEnv({ DATA_DIR: dataDir }),
      });
      expect(stdout).toContain('mode:              embedded');
      expect(stdout).toMatch(/users:\s+0/);
      // The maintenance schedules (daily auth records, hourly stale accounts, 5-minute interrupted tasks).
      expect(stdout).toMatch(/queue:\s+postgres; maintenance: .*\b[1-9]\d* delayed/);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    // Closed with the process.
    expect(
      await fetch(`http://127.0.0.1:${metricsPort}/health`).then(
        (r) => r.status,
        () => 'closed',
      ),
    ).toBe('closed');

    // Write through an embedded instance of this process (the server is stopped, so the lock is free)...
    const writer = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 2, migrate: true });
    try {
      await new UserRepository(writer.db).create({ email: 'kept@example.org', passwordHash: 'not-a-real-hash' });
    } finally {
      await writer.close();
    }

    // ...and a restarted server still has it (read through its socket, as operator commands do).
    const restarted = await startServer({ DATA_DIR: dataDir });
    try {
      const reader = await openDatabase({
        databaseUrl: undefined,
        dataDir,
        poolMax: 1,
        migrate: false,
        attachToRunningServer: true,
      });
      try {
        expect(await new UserRepository(reader.db).findByEmail('kept@example.org')).toMatchObject({
          email: 'kept@example.org',
        });
      } finally {
        await reader.close();
      }
    } finally {
      expect(await restarted.stop()).toBe(0);
    }
    const jwtSecret = await fs.readFile(path.join(dataDir, 'jwt-secret'), 'utf8');
    expect(jwtSecret.trim().length).toBeGreaterThanOrEqual(43);
    // Two server processes, the first on an empty DATA_DIR (initdb and every migration, about 6
    // CPU-seconds in PGlite): on a machine busy with other test files this took over a minute.
  }, 240_000);
});

describe.runIf(testDatabaseUrl())('external mode (DATABASE_URL)', () => {
  it('starts on a PostgreSQL server and reports it', async () => {
    const database = await createTestDatabase();
    const url = String(database.connectionConfig.connectionString);
    const server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      JWT_SECRET: randomBytes(48).toString('base64url'),
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    });
    try {
      const health = await (await fetch(`http://127.0.0.1:${server.port}/api/health`)).json();
      expect(health).toMatchObject({
        status: 'ok',
        mode: 'external',
        queue: { backend: process.env.REDIS_URL ? 'redis' : 'postgres' },
      });
      expect(server.output()).toContain('(external mode)');
    } finally {
      await server.stop();
      await database.close();
    }
  });
});

// Fixed settings in a clean environment, as above: the same in both modes, so run in the embedded one.
describe.skipIf(testDatabaseUrl())('bad configuration', () => {
  // As processes, once for each place main.ts catches a start-up failure (the config, the runtime).
  it.each([
    [{ PORT: 'abc' }, 'PORT must be a number (got "abc")'],
    [{ REDIS_URL: 'redis://127.0.0.1:1' }, 'Cannot connect to REDIS_URL (redis://127.0.0.1:1): connect ECONNREFUSED'],
  ])('%o stops the server process with one line naming the variable', async (env, expected) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-badconfig-'));
    try {
      const { code, stderr } = await runServerExpectingFailure({ DATA_DIR: dir, ...env });
      expect(code).toBe(1);
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Research Radar could not start: /);
      expect(lines[0]).toContain(expected);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [{ DATABASE_URL: 'mysql://localhost/x' }, 'DATABASE_URL must be a URL like postgresql://'],
    [{ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/radar', JWT_SECRET: 'x'.repeat(8) }, 'JWT_SECRET is too weak'],
    [{ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/radar' }, 'JWT_SECRET is required when DATABASE_URL is set'],
    [
      { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/radar', JWT_SECRET: randomBytes(48).toString('base64url') },
      'Cannot connect to DATABASE_URL: connection refused',
    ],
  ])('%o stops start-up with one line naming the variable', async (env, expected) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-badconfig-'));
    try {
      const line = await startupFailure({ DATA_DIR: dir, ...env });
      expect(line).not.toContain('\n');
      expect(line).toContain(expected);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
