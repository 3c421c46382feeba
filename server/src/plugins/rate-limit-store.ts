import type { RateLimitCount, RateLimitRepository } from '@radar/db';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { errors } from '../errors';

export interface CounterHit {
  key: string;
  windowMs: number;
}

/**
 * Fixed-window counters behind every rate limit: the per-IP route limits of @fastify/rate-limit and our
 * keyed limits. Kept where every server process sees the same counts (Redis, or PostgreSQL without
 * Redis; in embedded mode, whose database has one server process, in that process's memory), and no
 * amount of other keys can evict one.
 * Keys never hold a raw e-mail address (callers use emailFingerprint).
 */
export interface RateLimitStore {
  /** Counts one hit on `key`; a key without a running window starts one of `windowMs` at 1. */
  increment(key: string, windowMs: number): Promise<RateLimitCount>;
  /** Counts one hit on each of several distinct keys in one round trip; the counts come back in order. */
  incrementMany(hits: readonly CounterHit[]): Promise<RateLimitCount[]>;
  /** The running window of `key` without counting a hit. */
  read(key: string): Promise<RateLimitCount>;
  delete(key: string): Promise<void>;
  /** Forgets every key that starts with `prefix`. */
  deleteByPrefix(prefix: string): Promise<void>;
  /**
   * Forgets every key that holds `id` (a deleted account's counters, `<bucket>:<userId>`) in Redis or
   * in memory: in PostgreSQL the account's deletion removes them in its own transaction.
   */
  deleteMentioningOutsideDatabase(id: string): Promise<void>;
  close(): Promise<void>;
}

// INCR and the expiry in one script, so a window cannot be left without an end by a crash in between.
const INCREMENT_SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if hits == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}`;

// The same for several keys (KEYS) with their windows (ARGV, in the same order): one round trip.
const INCREMENT_MANY_SCRIPT = `
local result = {}
for i, key in ipairs(KEYS) do
  local hits = redis.call('INCR', key)
  local ttl = redis.call('PTTL', key)
  if hits == 1 or ttl < 0 then
    redis.call('PEXPIRE', key, ARGV[i])
    ttl = tonumber(ARGV[i])
  end
  result[2 * i - 1] = hits
  result[2 * i] = ttl
end
return result`;

const READ_SCRIPT = `
local hits = redis.call('GET', KEYS[1])
if not hits then return {0, 0} end
return {tonumber(hits), math.max(0, redis.call('PTTL', KEYS[1]))}`;

type ScriptResult = [number, number];
interface RedisWithRateLimitScripts {
  radarRateLimitIncrement(key: string, windowMs: number): Promise<ScriptResult>;
  radarRateLimitRead(key: string): Promise<ScriptResult>;
  radarRateLimitIncrementMany(keyCount: number, ...keysThenWindows: (string | number)[]): Promise<number[]>;
}

/** Characters SCAN's MATCH treats as a pattern. */
const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);

/** Counters in Redis (when REDIS_URL is set): a key with a PEXPIRE per window, under the installation's namespace. */
class RedisRateLimitStore implements RateLimitStore {
  private readonly scripts: RedisWithRateLimitScripts;

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {
    redis.defineCommand('radarRateLimitIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
    redis.defineCommand('radarRateLimitRead', { numberOfKeys: 1, lua: READ_SCRIPT });
    // The key count is the call's first argument: the quotas pass one or two keys.
    redis.defineCommand('radarRateLimitIncrementMany', { lua: INCREMENT_MANY_SCRIPT });
    this.scripts = redis as unknown as RedisWithRateLimitScripts;
  }

  async increment(key: string, windowMs: number): Promise<RateLimitCount> {
    const [hits, ttlMs] = await this.scripts.radarRateLimitIncrement(this.namespace + key, Math.ceil(windowMs));
    return { hits, ttlMs };
  }

  async incrementMany(hits: readonly CounterHit[]): Promise<RateLimitCount[]> {
    if (hits.length === 0) return [];
    const flat = await this.scripts.radarRateLimitIncrementMany(
      hits.length,
      ...hits.map((hit) => this.namespace + hit.key),
      ...hits.map((hit) => Math.ceil(hit.windowMs)),
    );
    return hits.map((_, i) => ({ hits: flat[2 * i] ?? 0, ttlMs: flat[2 * i + 1] ?? 0 }));
  }

  async read(key: string): Promise<RateLimitCount> {
    const [hits, ttlMs] = await this.scripts.radarRateLimitRead(this.namespace + key);
    return { hits, ttlMs };
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.namespace + key);
  }

  // SCAN walks the whole keyspace (queues included); it runs on password resets, which are rare.
  async deleteByPrefix(prefix: string): Promise<void> {
    await this.deleteMatching(`${escapeGlob(this.namespace + prefix)}*`);
  }

  // The Redis client belongs to the runtime, which disconnects it.
  async deleteMentioningOutsideDatabase(id: string): Promise<void> {
    await this.deleteMatching(`${escapeGlob(this.namespace)}*${escapeGlob(id)}*`);
  }

  /** Deletes every key matching the glob `match`, a SCAN page at a time. */
  private async deleteMatching(match: string): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
      if (keys.length) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  async close(): Promise<void> {}
}

/** How often one process deletes rows whose window has ended. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Counters in PostgreSQL (no Redis configured; also embedded PGlite, which is served over a socket
 * through the same node-postgres pool). Every hit is one upsert. Ended windows are purged by whichever
 * process counts a hit after PURGE_INTERVAL_MS, in the background, so the table holds live windows
 * whether or not a worker runs.
 */
class PostgresRateLimitStore implements RateLimitStore {
  private lastPurgeAt = 0;
  private purging: Promise<void> | undefined;

  constructor(
    private readonly counters: RateLimitRepository,
    private readonly logger: Logger,
  ) {}

  async increment(key: string, windowMs: number): Promise<RateLimitCount> {
    const count = await this.counters.hit(key, windowMs);
    this.purgeNowAndThen();
    return count;
  }

  async incrementMany(hits: readonly CounterHit[]): Promise<RateLimitCount[]> {
    const counts = await this.counters.hitMany(hits);
    this.purgeNowAndThen();
    return counts;
  }

  read(key: string): Promise<RateLimitCount> {
    return this.counters.read(key);
  }

  delete(key: string): Promise<void> {
    return this.counters.delete(key);
  }

  async deleteByPrefix(prefix: string): Promise<void> {
    await this.counters.deleteByPrefix(prefix);
  }

  /** Nothing here: UserAdminRepository.deleteWithOwnedRecords deletes the account's counters with it. */
  async deleteMentioningOutsideDatabase(_id: string): Promise<void> {}

  /** Waits for a purge in flight, so the database is not closed under it. */
  async close(): Promise<void> {
    await this.purging;
  }

  private purgeNowAndThen(): void {
    if (this.purging || Date.now() - this.lastPurgeAt < PURGE_INTERVAL_MS) return;
    this.lastPurgeAt = Date.now();
    this.purging = this.counters
      .purgeExpired()
      .then((purged) => {
        if (purged) this.logger.debug({ purged }, 'purged ended rate-limit windows');
      })
      .catch((error: Error) => this.logger.warn({ err: error.message }, 'purging rate-limit counters failed'))
      .finally(() => {
        this.purging = undefined;
      });
  }
}

/** Counters one process keeps in memory at most; past it, new keys count in the database (see below). */
const IN_PROCESS_COUNTERS_MAX = 100_000;
/** A full map is swept for ended windows at most this often, so a flood of new keys costs no sweep each. */
const SWEEP_INTERVAL_MS = 1_000;
/** Margin for the database clock against this process's, when deciding that spilled windows have ended. */
const CLOCK_MARGIN_MS = 1_000;

interface MemoryWindow {
  hits: number;
  /** When the window ends, ms since the epoch. */
  endsAt: number;
}

/**
 * Counters in this process's memory: embedded mode, where one server process owns the database
 * (data-dir-lock.ts), so "every instance sees the same counts" holds with one map, and a hit costs no
 * round trip through the serialised PGlite socket (docs/decisions.md, "Counters in memory in embedded
 * mode"). Restarting the process forgets the running windows.
 *
 * Bounded: at most `maxKeys` windows. When it is full of running windows, a new key counts in
 * `overflow` (the database store) instead of evicting one, so no flood of other keys can reset a
 * count; until the last window started there has ended, every key not in memory keeps counting there,
 * so one key never has two running windows.
 */
export class InProcessRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, MemoryWindow>();
  /** Until then a key not in memory may have a running window in `overflow`. */
  private overflowUntil = 0;
  private lastSweepAt = 0;

  constructor(
    private readonly overflow: RateLimitStore,
    private readonly maxKeys = IN_PROCESS_COUNTERS_MAX,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.windows.size;
  }

  async increment(key: string, windowMs: number): Promise<RateLimitCount> {
    const [count] = await this.incrementMany([{ key, windowMs }]);
    if (!count) throw new Error('no count for the key');
    return count;
  }

  async incrementMany(hits: readonly CounterHit[]): Promise<RateLimitCount[]> {
    const now = this.now();
    const counts: (RateLimitCount | undefined)[] = hits.map((hit) => this.hitInMemory(hit, now));
    const spilled = hits.filter((_, i) => counts[i] === undefined);
    if (spilled.length === 0) return counts as RateLimitCount[];
    for (const hit of spilled) this.overflowUntil = Math.max(this.overflowUntil, now + hit.windowMs + CLOCK_MARGIN_MS);
    const fromOverflow = await this.overflow.incrementMany(spilled);
    let next = 0;
    return counts.map((count) => count ?? (fromOverflow[next++] as RateLimitCount));
  }

  async read(key: string): Promise<RateLimitCount> {
    const now = this.now();
    const window = this.windows.get(key);
    if (window && window.endsAt > now) return { hits: window.hits, ttlMs: window.endsAt - now };
    return this.overflowUntil > now ? this.overflow.read(key) : { hits: 0, ttlMs: 0 };
  }

  async delete(key: string): Promise<void> {
    this.windows.delete(key);
    if (this.overflowUntil > this.now()) await this.overflow.delete(key);
  }

  async deleteByPrefix(prefix: string): Promise<void> {
    for (const key of this.windows.keys()) if (key.startsWith(prefix)) this.windows.delete(key);
    if (this.overflowUntil > this.now()) await this.overflow.deleteByPrefix(prefix);
  }

  /** An account's deletion forgets its counters here; the database's go with the account's rows. */
  async deleteMentioningOutsideDatabase(id: string): Promise<void> {
    for (const key of this.windows.keys()) if (key.includes(id)) this.windows.delete(key);
  }

  close(): Promise<void> {
    return this.overflow.close();
  }

  /** The count after this hit, or undefined when the key must count in `overflow`. */
  private hitInMemory({ key, windowMs }: CounterHit, now: number): RateLimitCount | undefined {
    const window = this.windows.get(key);
    if (window && window.endsAt > now) {
      window.hits = Math.min(window.hits, MAX_IN_PROCESS_HITS) + 1;
      return { hits: window.hits, ttlMs: window.endsAt - now };
    }
    if (!window && !this.hasRoom(now)) return undefined;
    this.windows.set(key, { hits: 1, endsAt: now + windowMs });
    return { hits: 1, ttlMs: windowMs };
  }

  private hasRoom(now: number): boolean {
    if (this.overflowUntil > now) return false;
    if (this.windows.size < this.maxKeys) return true;
    if (now - this.lastSweepAt >= SWEEP_INTERVAL_MS) {
      this.lastSweepAt = now;
      for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    }
    return this.windows.size < this.maxKeys;
  }
}

/** As in the database: a flood of hits on one key never overflows a count. */
const MAX_IN_PROCESS_HITS = 2_000_000_000;

/**
 * Fail closed: when the counters cannot be reached, a limited request is refused with 503 rather than
 * let through unlimited. Without Redis the counters are in the database every route needs anyway; with
 * Redis, an outage also stops the queues, and a limiter that switches itself off when its store fails
 * would make the store a target.
 */
class FailClosedRateLimitStore implements RateLimitStore {
  constructor(
    private readonly store: RateLimitStore,
    private readonly logger: Logger,
  ) {}

  increment(key: string, windowMs: number) {
    return this.guard(() => this.store.increment(key, windowMs));
  }
  incrementMany(hits: readonly CounterHit[]) {
    return this.guard(() => this.store.incrementMany(hits));
  }
  read(key: string) {
    return this.guard(() => this.store.read(key));
  }
  delete(key: string) {
    return this.guard(() => this.store.delete(key));
  }
  deleteByPrefix(prefix: string) {
    return this.guard(() => this.store.deleteByPrefix(prefix));
  }
  deleteMentioningOutsideDatabase(id: string) {
    return this.guard(() => this.store.deleteMentioningOutsideDatabase(id));
  }
  close() {
    return this.store.close();
  }

  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      this.logger.error({ err: (error as Error).message }, 'rate-limit store unavailable; refusing the request');
      throw errors.unavailable();
    }
  }
}

export interface RateLimitStoreOptions {
  /** The runtime's rate-limit Redis client; undefined keeps the counters in PostgreSQL. */
  redis: Redis | undefined;
  /** Key prefix in Redis, so installations and test runs sharing one Redis stay apart. */
  namespace: string;
  /** The PostgreSQL counters, used when there is no Redis. */
  counters: RateLimitRepository;
  /**
   * Without Redis, count in this process's memory (InProcessRateLimitStore) rather than in the
   * database: for a database only this process uses (embedded mode).
   */
  inProcess?: boolean | undefined;
  logger: Logger;
}

export function createRateLimitStore(options: RateLimitStoreOptions): RateLimitStore {
  let store: RateLimitStore;
  if (options.redis) store = new RedisRateLimitStore(options.redis, options.namespace);
  else {
    store = new PostgresRateLimitStore(options.counters, options.logger);
    if (options.inProcess) store = new InProcessRateLimitStore(store);
  }
  return new FailClosedRateLimitStore(store, options.logger);
}

type StoreCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * The store as @fastify/rate-limit's custom `store` class. The plugin makes one child per limited route
 * (`routeInfo` has its method and URL) and one per createRateLimit()/rateLimit() call (empty `routeInfo`);
 * a route's per-IP counter is keyed by the route, so each route keeps its own count.
 */
export function fastifyRateLimitStore(store: RateLimitStore) {
  class PluginStore {
    constructor(
      _pluginOptions: unknown,
      private readonly prefix = 'ip:',
    ) {}

    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      store.increment(this.prefix + key, timeWindow).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }

    read(key: string, callback: StoreCallback): void {
      store.read(this.prefix + key).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }

    // Typed as RouteOptions by the plugin, but it passes the merged limit options with `routeInfo`.
    child(routeOptions: object): PluginStore {
      const route = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
      return new PluginStore(undefined, route?.url ? `route:${String(route.method)} ${route.url}:` : 'ip:');
    }
  }
  return PluginStore;
}
