import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import pg from 'pg';

/**
 * Tells a process, within milliseconds, that a row of radar.users changed or was deleted anywhere:
 * the trigger that UserRepository.ensureChangeNotifications() installs sends the user id on this
 * channel for every UPDATE and DELETE, committed. Caches of user rows (the auth guard's) keep
 * entries only while the listener is live, and drop them all whenever it is not, since a change
 * made meanwhile would be missed.
 *
 * Live means: this dedicated connection (not from the pool, which hands connections around) has run
 * `LISTEN` and the last heartbeat came back through the channel. The heartbeat is a NOTIFY of our
 * own, so it proves the whole path: a connection that is silently dead, or a session that stopped
 * listening, fails it within `heartbeatTimeoutMs` and the listener reconnects. Works the same on
 * PostgreSQL and on embedded PGlite, whose socket server copies every notification to all its
 * connections (pglite-socket-server.ts).
 */

export const USER_CHANGES_CHANNEL = 'radar_user_changes';
/** How the listener's connection shows in pg_stat_activity. */
export const USER_CHANGES_APPLICATION_NAME = 'radar-user-changes';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ECHO_PREFIX = 'echo:';

export interface UserChangeListenerOptions {
  /** node-postgres settings of the database (DatabaseHandle.connectionConfig). */
  connectionConfig: pg.ClientConfig;
  /** Time between heartbeats while live. */
  heartbeatMs?: number;
  /** A heartbeat (or the first LISTEN) not answered within this means the connection is lost. */
  heartbeatTimeoutMs?: number;
  /** Reconnection backoff, doubling from the first value to the second. */
  reconnectDelayMs?: [number, number];
}

export interface UserChangeListenerEvents {
  /** A user's row changed or was deleted (its id). */
  change: [userId: string];
  /** Became live (true) or stopped being live (false): changes may have been missed since. */
  live: [isLive: boolean];
  /** A connection attempt or heartbeat failed; the listener retries by itself. */
  error: [error: Error];
}

export class UserChangeListener extends EventEmitter<UserChangeListenerEvents> {
  private client: pg.Client | undefined;
  private live = false;
  private closed = false;
  private suspended = false;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelay: number;
  private echoSeq = 0;
  /** Every listener (several may share a process) tells its own echoes from the others'. */
  private readonly echoPrefix = `${ECHO_PREFIX}${randomBytes(6).toString('hex')}:`;
  /** Our own notifications on their way back through the channel (heartbeats and sync()), by token. */
  private readonly echoes = new Map<string, () => void>();
  private readonly heartbeatMs: number;
  private readonly heartbeatTimeoutMs: number;
  private readonly reconnectDelayMs: [number, number];

  constructor(private readonly options: UserChangeListenerOptions) {
    super();
    this.heartbeatMs = options.heartbeatMs ?? 10_000;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 5_000;
    this.reconnectDelayMs = options.reconnectDelayMs ?? [100, 5_000];
    this.reconnectDelay = this.reconnectDelayMs[0];
  }

  isLive(): boolean {
    return this.live;
  }

  /** Connects and listens; resolves once the first attempt has ended (live or not, it keeps trying). */
  async start(): Promise<boolean> {
    await this.connect();
    return this.live;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const client = this.client;
    this.drop();
    await client?.end().catch(() => {});
  }

  /**
   * Ends the connection as a network failure would, and stays down until resume(). For tests of what
   * depends on the listener being live.
   */
  suspend(): void {
    this.suspended = true;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const client = this.client;
    this.drop();
    (client as unknown as { connection?: { stream?: { destroy(): void } } })?.connection?.stream?.destroy();
  }

  /** Reconnects after suspend(); resolves once that attempt has ended. */
  async resume(): Promise<boolean> {
    this.suspended = false;
    return this.start();
  }

  private async connect(): Promise<void> {
    if (this.closed || this.suspended || this.client) return;
    const client = new pg.Client({
      ...this.options.connectionConfig,
      keepAlive: true,
      application_name: USER_CHANGES_APPLICATION_NAME,
    });
    this.client = client;
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('user change listener: connection ended')));
    client.on('notification', (message) => {
      if (client !== this.client || message.channel !== USER_CHANGES_CHANNEL || !message.payload) return;
      const echo = this.echoes.get(message.payload);
      if (echo) {
        echo();
      } else if (UUID.test(message.payload)) {
        this.emit('change', message.payload.toLowerCase());
      }
    });
    try {
      await withTimeout(client.connect(), this.heartbeatTimeoutMs, 'connect');
      await withTimeout(client.query(`LISTEN ${USER_CHANGES_CHANNEL}`), this.heartbeatTimeoutMs, 'LISTEN');
      await this.echo(client);
    } catch (error) {
      this.lost(client, error as Error);
      return;
    }
    if (client !== this.client) return; // lost (or suspended) meanwhile
    this.reconnectDelay = this.reconnectDelayMs[0];
    this.setLive(true);
    this.scheduleHeartbeat(client);
  }

  /**
   * Resolves once every change committed before the call has been emitted here. Notifications reach a
   * listener in commit order, so our own NOTIFY coming back means the earlier ones came first. At
   * each commit PostgreSQL signals every listening connection at once, so by then the other
   * processes' listeners have been signalled too: a process that made a change waits for this before
   * answering (UserCache.changed). Resolves at
   * once when not live (nothing is cached then), and also when it times out (the connection is
   * then treated as lost).
   */
  async sync(): Promise<void> {
    const client = this.client;
    if (!client || !this.live) return;
    await this.echo(client).catch((error: Error) => this.lost(client, error));
  }

  /** Our own NOTIFY must come back through the channel: LISTEN is in force on a working connection. */
  private async echo(client: pg.Client): Promise<void> {
    const token = `${this.echoPrefix}${++this.echoSeq}`;
    const received = new Promise<void>((resolve) => this.echoes.set(token, resolve));
    try {
      await withTimeout(
        Promise.all([client.query('SELECT pg_notify($1, $2)', [USER_CHANGES_CHANNEL, token]), received]),
        this.heartbeatTimeoutMs,
        'heartbeat',
      );
    } finally {
      this.echoes.delete(token);
    }
  }

  private scheduleHeartbeat(client: pg.Client): void {
    this.heartbeatTimer = setTimeout(() => {
      this.echo(client).then(
        () => client === this.client && this.scheduleHeartbeat(client),
        (error: Error) => this.lost(client, error),
      );
    }, this.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  private lost(client: pg.Client, error: Error): void {
    if (client !== this.client) return;
    this.drop();
    void client.end().catch(() => {});
    // An EventEmitter throws an 'error' nobody listens to; the listener recovers by itself either way.
    if (!this.closed && this.listenerCount('error')) this.emit('error', error);
    this.scheduleReconnect();
  }

  /** Forgets the current connection: not live from here on. */
  private drop(): void {
    clearTimeout(this.heartbeatTimer);
    this.client = undefined;
    // Whoever waits for an echo stops waiting: nothing is cached while not live.
    for (const resolve of this.echoes.values()) resolve();
    this.echoes.clear();
    this.setLive(false);
  }

  private scheduleReconnect(): void {
    if (this.closed || this.suspended || this.reconnectTimer) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(delay * 2, this.reconnectDelayMs[1]);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  private setLive(live: boolean): void {
    if (this.live === live) return;
    this.live = live;
    this.emit('live', live);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`user change listener: ${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
