import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@radar/metrics/testing';
import { radarProcessArgs } from '@radar/shared/testing';

/** main.ts in a process of its own, as operators run it: for tests of start-up, signals and shutdown. */

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SERVER_MAIN = path.join(REPO_ROOT, 'server/src/main.ts');

export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts main.ts with `env` over the environment a fresh shell would have (none of the test run's
 * database, queue or secret settings, no metrics listener) and waits until /api/health answers 200.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const { DATABASE_URL, REDIS_URL, TEST_DATABASE_URL, JWT_SECRET, SMTP_URL, ...rest } = process.env;
  const child = spawn(process.execPath, radarProcessArgs('server'), {
    cwd: REPO_ROOT,
    // No scheduled SCImago fetch: tests never reach real hosts (and a stop would wait for its retries).
    env: {
      ...rest,
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      PORT: String(port),
      JOURNAL_TIERS_AUTO: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const server = { child, port, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited };
  try {
    await waitFor(
      'the server to answer /api/health',
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
        const response = await fetch(`${server.baseUrl}/api/health`).catch(() => undefined);
        return response?.status === 200;
      },
      60_000,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return server;
}
