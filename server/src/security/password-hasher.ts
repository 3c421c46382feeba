import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { errors } from '../errors';

/** The cost of one argon2id hash: memory in KiB, passes, lanes. */
export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP's argon2id recommendation (m=19 MiB, t=2, p=1). Raise here; old hashes are upgraded at login. */
export const ARGON2_PARAMS: Readonly<Argon2Params> = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** At most this many hashes wait for a slot; beyond it the server answers 503 instead of queueing forever. */
const MAX_WAITING = 200;

/**
 * argon2id hashing with bounded concurrency: about one hash per core runs at a time, so a flood of
 * logins queues up instead of starving every other request of CPU and memory.
 */
export class PasswordHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** A hash of a random password, verified against when the account does not exist (equal timing). */
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly concurrency = Math.max(1, os.availableParallelism()),
    /** Production uses ARGON2_PARAMS; hashes made with other parameters are redone at the next login. */
    private readonly params: Readonly<Argon2Params> = ARGON2_PARAMS,
  ) {}

  /** Hashes running right now (never more than the concurrency). */
  get active(): number {
    return this.running;
  }

  hash(password: string): Promise<string> {
    // @node-rs/argon2 defaults to argon2id (its Algorithm enum is a const enum, unusable here).
    return this.withSlot(() => hash(password, this.params));
  }

  /** False for a wrong password or an unparsable stored hash. */
  verify(storedHash: string, password: string): Promise<boolean> {
    return this.withSlot(() => verify(storedHash, password).catch(() => false));
  }

  /** Spends the same work as a real check, for unknown accounts. Always false. */
  async verifyAgainstNothing(password: string): Promise<false> {
    this.dummyHash ??= this.hash(`dummy-${Math.random()}-${Date.now()}`);
    await this.verify(await this.dummyHash, password);
    return false;
  }

  /** True when the stored hash was made with other (older) parameters than this hasher's, or another algorithm. */
  needsRehash(storedHash: string): boolean {
    const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(storedHash);
    if (!match) return true;
    const [, memory, time, parallelism] = match.map(Number);
    return (
      memory !== this.params.memoryCost || time !== this.params.timeCost || parallelism !== this.params.parallelism
    );
  }

  private async withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= MAX_WAITING) throw errors.unavailable('服务繁忙，请稍后重试');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
