import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { SourceStateRepository } from '@radar/db';
import { type PolitenessLease, sleep } from '../adapters/http';
import { TransientSourceError } from '../types';

const LEASE_TTL_MS = 5 * 60_000;
const POLL_MS = 1_000;

/**
 * Cross-process politeness through the database: only the holder of a key's lease talks to that host,
 * and the next holder waits until the previous one's last request is `minIntervalMs` old. Works the
 * same with several worker processes on PostgreSQL and with the CLI beside an embedded server.
 */
export class DatabasePolitenessLease implements PolitenessLease {
  constructor(
    private readonly states: Pick<SourceStateRepository, 'tryAcquireLease' | 'renewLease' | 'releaseLease'>,
    private readonly options: { minIntervalMs: (key: string) => number; waitMs: number },
  ) {}

  async acquire(key: string, signal?: AbortSignal): Promise<() => Promise<void>> {
    const holder = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    const deadline = Date.now() + this.options.waitMs;
    for (;;) {
      const lease = await this.states.tryAcquireLease(key, holder, LEASE_TTL_MS);
      if (lease.acquired) {
        const wait = lease.nextRequestAt ? lease.nextRequestAt.getTime() - Date.now() : 0;
        if (wait > 0) await sleep(Math.min(wait, this.options.minIntervalMs(key)), signal);
        const renewal = setInterval(() => {
          void this.states.renewLease(key, holder, LEASE_TTL_MS).catch(() => {});
        }, LEASE_TTL_MS / 3);
        renewal.unref();
        return async () => {
          clearInterval(renewal);
          await this.states.releaseLease(key, holder, new Date(Date.now() + this.options.minIntervalMs(key)));
        };
      }
      if (Date.now() + POLL_MS > deadline) {
        throw new TransientSourceError(`another process is fetching from ${key}; this run will be retried`);
      }
      await sleep(POLL_MS, signal);
    }
  }
}
