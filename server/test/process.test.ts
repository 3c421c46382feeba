import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestDatabase, testDatabaseUrl } from '@radar/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The server and CLI as operators run them: separate processes, embedded database in a DATA_DIR.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER_MAIN = path.join(REPO_ROOT, 'server/src/main.ts');
const CLI_MAIN = path.join(REPO_ROOT, 'packages/cli/src/main.ts');
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
  return { ...rest, LOG_LEVEL: 'info', HOST: '127.0.0.1', ...extra };
}

interface ServerProcess {
  child: ChildProcess;
  port: number;
  output: () => string;
  stop(): Promise<number | null>;
}

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_MAIN], {
    cwd: REPO_ROOT,
    env: cleanEnv({ PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not become healthy:\n${output}`);
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
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_MAIN], {
    cwd: REPO_ROOT,
    env: cleanEnv({ PORT: String(await freePort()), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-process-test-'));
});

afterAll(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('embedded mode (no DATABASE_URL)', () => {
  it('starts, serves health and the API, keeps data across a restart, and guards DATA_DIR', async () => {
    const first = await startServer({ DATA_DIR: dataDir });
    try {
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

      // A second server on the same DATA_DIR gets one clear line instead of corrupting the data.
      const second = await runServerExpectingFailure({ DATA_DIR: dataDir });
      expect(second.code).toBe(1);
      expect(second.stderr.trim().split('\n')).toHaveLength(1);
      expect(second.stderr).toContain(`DATA_DIR ${dataDir} is in use by process ${first.child.pid}`);

      // Operator commands still work: they go through the running server's socket.
      const { stdout } = await run(process.execPath, ['--import', 'tsx', CLI_MAIN, 'status'], {
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

    // Write through the CLI's own embedded instance (the server is stopped, so the lock is free)...
    const script = `
      import { openDatabase, UserRepository } from '@radar/db';
      const db = await openDatabase({ databaseUrl: undefined, dataDir: ${JSON.stringify(dataDir)}, poolMax: 2, migrate: true });
      await new UserRepository(db.db).create({ email: 'kept@example.org', passwordHash: 'not-a-real-hash' });
      await db.close();`;
    await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.join(REPO_ROOT, 'server'),
    });

    // ...and a restarted server still has it.
    const restarted = await startServer({ DATA_DIR: dataDir });
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', CLI_MAIN, 'status'], {
        cwd: REPO_ROOT,
        env: cleanEnv({ DATA_DIR: dataDir }),
      });
      expect(stdout).toMatch(/users:\s+1/);
    } finally {
      await restarted.stop();
    }
    const jwtSecret = await fs.readFile(path.join(dataDir, 'jwt-secret'), 'utf8');
    expect(jwtSecret.trim().length).toBeGreaterThanOrEqual(43);
  });
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

describe('bad configuration', () => {
  it.each([
    [{ PORT: 'abc' }, 'PORT must be a number (got "abc")'],
    [{ DATABASE_URL: 'mysql://localhost/x' }, 'DATABASE_URL must be a URL like postgresql://'],
    [{ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/radar', JWT_SECRET: 'x'.repeat(8) }, 'JWT_SECRET is too weak'],
    [{ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/radar' }, 'JWT_SECRET is required when DATABASE_URL is set'],
    [
      { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/radar', JWT_SECRET: randomBytes(48).toString('base64url') },
      'Cannot connect to DATABASE_URL: connection refused',
    ],
    [{ REDIS_URL: 'redis://127.0.0.1:1' }, 'Cannot connect to REDIS_URL (redis://127.0.0.1:1): connect ECONNREFUSED'],
  ])('%o stops start-up with one line naming the variable', async (env, expected) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-badconfig-'));
    try {
      const { code, stderr } = await runServerExpectingFailure({ DATA_DIR: dir, ...env });
      expect(code).toBe(1);
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(expected);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
