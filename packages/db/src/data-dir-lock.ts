import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ActionableError } from '@radar/shared/server';

/**
 * PGlite is single-process: two processes opening the same data directory corrupt it. The embedded
 * server takes this lock for its lifetime and records where its socket is, so other processes (CLI
 * commands) connect through the socket instead of opening the files.
 */

export interface DataDirLockInfo {
  pid: number;
  hostname: string;
  startedAt: string;
  /** Directory holding `.s.PGSQL.5432`, once the socket server listens. */
  socketDir?: string;
  /** Identifies this lock holder, so a release never removes another process's lock. */
  token: string;
}

export class DataDirLockedError extends ActionableError {
  constructor(
    readonly dataDir: string,
    readonly holder: DataDirLockInfo,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by process ${holder.pid} on ${holder.hostname} (started ${holder.startedAt}). ` +
        'Only one process may open the embedded database: stop that process first, or run operator commands ' +
        '(pnpm radar ...) which connect to it through its socket.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** Data directories locked by this process; a second open from the same process is refused too. */
const heldByThisProcess = new Set<string>();

const lockFilePath = (dataDir: string) => path.join(dataDir, 'radar.lock');

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder touches the lock file this often; a lock from another host untouched for long is stale. */
const HEARTBEAT_MS = 10_000;
const FOREIGN_HOST_STALE_MS = 6 * HEARTBEAT_MS;

async function readDataDirLock(dataDir: string): Promise<DataDirLockInfo | undefined> {
  try {
    return JSON.parse(await fs.readFile(lockFilePath(dataDir), 'utf8')) as DataDirLockInfo;
  } catch {
    return undefined;
  }
}

async function lockAgeMs(dataDir: string): Promise<number> {
  try {
    return Date.now() - (await fs.stat(lockFilePath(dataDir))).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** The live holder of the lock, or undefined when the lock is free or stale. */
export async function findLiveLockHolder(dataDir: string): Promise<DataDirLockInfo | undefined> {
  const info = await readDataDirLock(dataDir);
  if (!info) return undefined;
  if (heldByThisProcess.has(path.resolve(dataDir))) return info;
  if (info.hostname !== os.hostname()) {
    // Another host (or a re-created container) on a shared volume: its pid means nothing here.
    return (await lockAgeMs(dataDir)) > FOREIGN_HOST_STALE_MS ? undefined : info;
  }
  // A container restarted on the same volume may get the same pid (often 1): that lock is stale.
  const isStale = info.pid === process.pid || !isProcessAlive(info.pid);
  return isStale ? undefined : info;
}

export interface DataDirLock {
  update(changes: Partial<Omit<DataDirLockInfo, 'token' | 'pid'>>): Promise<void>;
  release(): Promise<void>;
}

export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  await fs.mkdir(dataDir, { recursive: true });
  const key = path.resolve(dataDir);
  if (heldByThisProcess.has(key)) {
    const holder = await readDataDirLock(dataDir);
    if (holder) throw new DataDirLockedError(dataDir, holder);
  }
  const file = lockFilePath(dataDir);
  let info: DataDirLockInfo = {
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
    token: randomUUID(),
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(file, JSON.stringify(info), { flag: 'wx' });
      heldByThisProcess.add(key);
      const heartbeat = setInterval(() => {
        const now = new Date();
        fs.utimes(file, now, now).catch(() => {});
      }, HEARTBEAT_MS);
      heartbeat.unref();
      return {
        async update(changes) {
          info = { ...info, ...changes };
          await fs.writeFile(file, JSON.stringify(info));
        },
        async release() {
          clearInterval(heartbeat);
          heldByThisProcess.delete(key);
          const current = await readDataDirLock(dataDir);
          if (current?.token === info.token) await fs.rm(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = await findLiveLockHolder(dataDir);
      if (holder) throw new DataDirLockedError(dataDir, holder);
      await fs.rm(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}
