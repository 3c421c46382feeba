import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { radarProcessArgs } from '@radar/shared/testing';
import { runRadarCommand } from '../src/radar-command';

/**
 * `pnpm radar <args>` for tests. runRadar runs the command in this process: all of main.ts but the
 * process's own environment and streams, without the seconds a new Node process spends loading tsx
 * and the module graph. runRadarProcess runs it as operators do, for what only a process shows: its
 * exit code and everything that reaches its stdout and stderr.
 *
 * `env` is the whole configuration: like a fresh shell, nothing of the test run's DATABASE_URL,
 * REDIS_URL or EMBEDDING_* settings.
 */

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const execute = promisify(execFile);

export interface RadarRun {
  stdout: string;
  stderr: string;
  code: number;
}

export async function runRadar(args: string[], env: Record<string, string>): Promise<RadarRun> {
  let stdout = '';
  let stderr = '';
  const code = await runRadarCommand(args, {
    env,
    out: (line) => {
      stdout += `${line}\n`;
    },
    err: (line) => {
      stderr += `${line}\n`;
    },
  });
  return { stdout, stderr, code };
}

export async function runRadarProcess(args: string[], env: Record<string, string>): Promise<RadarRun> {
  const { DATABASE_URL, REDIS_URL, TEST_DATABASE_URL, EMBEDDING_MODEL, EMBEDDING_DIM, ...shell } = process.env;
  try {
    const { stdout, stderr } = await execute(process.execPath, [...radarProcessArgs('cli'), ...args], {
      cwd: REPO_ROOT,
      env: { ...shell, ...env },
      timeout: 120_000,
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}
