import {
  type DatabaseHandle,
  type SessionRepository,
  type SessionState,
  UserChangeListener,
  type UserRepository,
  type UserRow,
} from '@radar/db';
import type { Logger } from 'pino';

/**
 * The auth guard's user rows and sessions (createAccountCache), kept in memory so a guarded request needs
 * no query (issue 10: the guard's lookup was most of the cost of `GET /api/auth/user/`; issue 21 added the
 * sessions to the same entry). Revocation stays immediate:
 * - any process's write to radar.users, and any revocation or deletion in radar.sessions, reaches every
 *   process through UserChangeListener (a trigger's NOTIFY of the user id, delivered at commit) and
 *   drops the entry;
 * - writes made by this process drop the entry before their answer is sent (`changed`, called by
 *   the auth plugin after non-GET requests and by the account service after a login), so the next
 *   request here never sees the old row, and wait until the listener has heard them, by which time
 *   PostgreSQL has signalled every other process's listener too;
 * - an ended session (logout, ending devices, a password change or reset) waits for more (`revoked`):
 *   until every other live process has acknowledged dropping the entry, so none accepts the ended
 *   session once the answer is sent, however late its notification is handled there;
 * - a hit waits one turn of the event loop, so a notification already received is handled first;
 * - while the listener is not live (not yet connected, reconnecting, heartbeat missed) nothing is
 *   cached or served from the cache, and every change of that state empties it, since changes made
 *   meanwhile were missed;
 * - a row loaded while an invalidation arrived is not kept (it may predate the change);
 * - entries expire after `ttlMs` and at most `maxEntries` are kept (least recently used go first).
 * Rows are frozen: they are shared by concurrent requests.
 */

export interface UserCacheOptions<T> {
  maxEntries?: number;
  ttlMs?: number;
  now?: () => number;
  /** Makes a loaded value immutable (it is shared by concurrent requests); rows of radar.users by default. */
  freeze?: (value: T) => T;
}

const USER_CACHE_DEFAULTS = { maxEntries: 5_000, ttlMs: 60_000 };

interface Entry<T> {
  row: T;
  expiresAt: number;
}

/**
 * What the auth guard caches per user (see cachedAccountLoader): the row and the user's unexpired
 * sessions, so a request needs no query to check its token's session. A revoked session notifies on
 * the users' channel (the sessions trigger), which drops this entry like a change of the row does.
 */
export interface CachedAccount {
  user: UserRow;
  /** By session id (the token's `sid`), revoked ones included. */
  sessions: ReadonlyMap<string, SessionState>;
}

/** The value cached for T: kept by user id, loaded by `load`, dropped when the user id is notified. */
export class UserCache<T extends object = UserRow> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Bumped by every invalidation: a load that saw it change keeps nothing. */
  private epoch = 0;
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly freeze: (value: T) => T;
  private readonly detach: () => void;

  constructor(
    private readonly load: (id: string) => Promise<T | undefined>,
    private readonly listener: Pick<UserChangeListener, 'isLive' | 'sync' | 'syncAll' | 'on' | 'off'> | undefined,
    options: UserCacheOptions<T> = {},
  ) {
    this.maxEntries = options.maxEntries ?? USER_CACHE_DEFAULTS.maxEntries;
    this.ttlMs = options.ttlMs ?? USER_CACHE_DEFAULTS.ttlMs;
    this.now = options.now ?? Date.now;
    this.freeze = options.freeze ?? ((value) => freezeUserRow(value as UserRow) as T);
    const onChange = (id: string) => this.invalidate(id);
    const onLive = () => this.clear();
    listener?.on('change', onChange);
    listener?.on('live', onLive);
    this.detach = () => {
      listener?.off('change', onChange);
      listener?.off('live', onLive);
    };
  }

  /** The user's row: from memory when the listener is live and the entry is fresh, else from the database. */
  async get(id: string): Promise<T | undefined> {
    if (!this.listener?.isLive()) return this.load(id);
    const entry = this.entries.get(id);
    if (entry && entry.expiresAt > this.now()) {
      // A notification may already have arrived but wait behind this request in the same turn of the
      // event loop (the writer's answer and the notification are read together, e.g. in one process):
      // let what has been received be handled first, then use the entry only if it is still there.
      await new Promise(setImmediate);
      if (this.entries.get(id) === entry) {
        // Map order is insertion order: re-inserting makes it the most recently used.
        this.entries.delete(id);
        this.entries.set(id, entry);
        return entry.row;
      }
    }
    return this.refresh(id);
  }

  /** The row from the database, replacing what is cached. */
  async refresh(id: string): Promise<T | undefined> {
    this.entries.delete(id);
    const epoch = this.epoch;
    const row = await this.load(id);
    if (!row || epoch !== this.epoch || !this.listener?.isLive()) return row;
    this.entries.set(id, { row: this.freeze(row), expiresAt: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return row;
  }

  /**
   * This process changed the user's row: drop it here, and resolve once the listener has heard every
   * change committed so far. Other processes' listeners were told at the same moment, so answering
   * after this leaves them the time the notification takes to travel, not more.
   */
  async changed(id: string): Promise<void> {
    this.invalidate(id);
    await this.listener?.sync();
  }

  /**
   * This process ended sessions of the user (or all of them): like `changed`, and then resolves once
   * every other live process has acknowledged dropping its entry (or has been waited out: see
   * UserChangeListener.syncAll), so no process accepts an ended session once the revoking request answers.
   */
  async revoked(id: string): Promise<void> {
    this.invalidate(id);
    await this.listener?.syncAll();
  }

  /** The user's row changed (or may have): the next lookup reads it again. */
  invalidate(id: string): void {
    this.epoch++;
    this.entries.delete(id);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  close(): void {
    this.detach();
    this.clear();
  }
}

function freezeUserRow(row: UserRow): UserRow {
  Object.freeze(row.researchFields);
  Object.freeze(row.researchFieldsUnmapped);
  if (row.profileEmbedding) Object.freeze(row.profileEmbedding);
  return Object.freeze(row);
}

function freezeCachedAccount(account: CachedAccount): CachedAccount {
  freezeUserRow(account.user);
  for (const session of account.sessions.values()) Object.freeze(session);
  return Object.freeze(account);
}

/** The auth guard's cache: each user's row and unexpired sessions, read together on a miss. */
export function createAccountCache(
  users: UserRepository,
  sessions: SessionRepository,
  listener: UserChangeListener | undefined,
  now: () => Date = () => new Date(),
): UserCache<CachedAccount> {
  return new UserCache<CachedAccount>(
    async (id) => {
      const [user, states] = await Promise.all([users.findById(id), sessions.listForAuth(id, now())]);
      return user ? { user, sessions: new Map(states.map((state) => [state.id, state])) } : undefined;
    },
    listener,
    { freeze: freezeCachedAccount },
  );
}

/**
 * Installs the change trigger and starts listening. Without the trigger (the database role may not
 * alter radar.users) there is no listener, and the cache reads every row from the database, as before.
 * A listener that cannot connect yet keeps trying in the background; until then nothing is cached.
 */
export async function startUserChangeListener(
  database: DatabaseHandle,
  users: UserRepository,
  logger: Logger,
): Promise<UserChangeListener | undefined> {
  try {
    await users.ensureChangeNotifications();
  } catch (error) {
    logger.warn({ err: (error as Error).message }, 'user change trigger not installed: signed-in users are not cached');
    return undefined;
  }
  const listener = new UserChangeListener({ connectionConfig: database.connectionConfig });
  let lastError = '';
  listener.on('error', (error) => {
    // Once per kind of failure, not once per retry.
    if (error.message !== lastError)
      logger.warn({ err: error.message }, 'user change listener lost; not caching users');
    lastError = error.message;
  });
  listener.on('live', (isLive) => {
    if (isLive && lastError) logger.info('user change listener live again');
    if (isLive) lastError = '';
  });
  await listener.start();
  return listener;
}
