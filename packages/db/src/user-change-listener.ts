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
 *
 * Revocations are acknowledged by every listening process (syncAll): a process that ended a session
 * answers only once each other live listener has said it dropped what it cached. Listeners learn of each
 * other from their heartbeats, which every listener hears; each heartbeat carries its sender's lease
 * (how long after sending it the sender trusts its cache without a newer echo back), so a peer that
 * does not acknowledge is waited out: past its lease it reads every request from the database until a
 * newer echo proves it has heard everything, the revocation included. docs/decisions.md, "Revocation
 * acknowledged by every instance".
 */

export const USER_CHANGES_CHANNEL = 'radar_user_changes';
/** How the listener's connection shows in pg_stat_activity. */
export const USER_CHANGES_APPLICATION_NAME = 'radar-user-changes';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * Payloads besides user ids: `hb:<listener>:<leaseMs>:<seq>` a heartbeat or plain sync (an echo to its
 * sender, a sign of life to the others), `all:<listener>:<leaseMs>:<seq>` the same asking every other
 * listener to acknowledge, `ack:<listener>:<all token>` that acknowledgement, `bye:<listener>` a
 * listener closing. (Listeners of earlier versions sent `echo:`; they acknowledge nothing, so they are
 * not counted as peers.)
 */
const HEARTBEAT = /^(hb|all):([0-9a-f]{12}):(\d{1,9}):\d+$/;
const ACK = /^ack:([0-9a-f]{12}):(all:.+)$/;
const BYE = /^bye:([0-9a-f]{12})$/;
const monotonicNow = () => performance.now();

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
  private readonly id = randomBytes(6).toString('hex');
  /** Our own notifications on their way back through the channel (heartbeats and sync()), by token. */
  private readonly echoes = new Map<string, () => void>();
  /** Acknowledgements awaited by syncAll(), by its token: the listeners that have acknowledged. */
  private readonly awaitingAcks = new Map<string, { acked: Set<string>; onAck: () => void }>();
  /** Other listeners heard on the channel: when their last heartbeat arrived (monotonic ms) and their lease. */
  private readonly peers = new Map<string, { heardAt: number; leaseMs: number }>();
  /** When the newest of our echoes that came back was sent (monotonic ms): the lease runs from it. */
  private confirmedAt = Number.NEGATIVE_INFINITY;
  /** slowDownForTests(): notifications are handled this late, in order. */
  private handlingDelayMs = 0;
  /** The last NOTIFY sent on the listener's connection: the next waits for it. */
  private sending: Promise<unknown> = Promise.resolve();
  private readonly heartbeatMs: number;
  private readonly heartbeatTimeoutMs: number;
  /** How long after sending an echo that came back this listener counts as live without a newer one. */
  private readonly leaseMs: number;
  private readonly reconnectDelayMs: [number, number];

  constructor(private readonly options: UserChangeListenerOptions) {
    super();
    // Short, since a peer that stops acknowledging (a crash) is waited out for a lease: 2 s + 5 s.
    this.heartbeatMs = options.heartbeatMs ?? 2_000;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 5_000;
    this.leaseMs = this.heartbeatMs + this.heartbeatTimeoutMs;
    this.reconnectDelayMs = options.reconnectDelayMs ?? [100, 5_000];
    this.reconnectDelay = this.reconnectDelayMs[0];
  }

  /**
   * Connected, listening, and an echo sent less than the lease ago has come back. The lease bound is
   * what lets a revoking process wait out a listener that does not acknowledge (syncAll).
   */
  isLive(): boolean {
    return this.live && monotonicNow() - this.confirmedAt < this.leaseMs;
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
    // The others stop waiting for our acknowledgements at once instead of waiting out our lease.
    if (client) await this.notify(client, `bye:${this.id}`).catch(() => {});
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
      // Timers of one duration fire in the order they were set: the order of the notifications is kept.
      if (this.handlingDelayMs > 0) {
        setTimeout(() => this.handle(client, message), this.handlingDelayMs);
      } else {
        this.handle(client, message);
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
   * Handles every notification `ms` late, in order, as a process whose event loop is busy does. For
   * tests of what must not depend on how fast the other processes hear of a change.
   */
  slowDownForTests(ms: number): void {
    this.handlingDelayMs = ms;
  }

  private handle(client: pg.Client, message: pg.Notification): void {
    if (client !== this.client || message.channel !== USER_CHANGES_CHANNEL || !message.payload) return;
    const payload = message.payload;
    const echo = this.echoes.get(payload);
    if (echo) {
      echo();
    } else if (UUID.test(payload)) {
      this.emit('change', payload.toLowerCase());
    } else {
      this.heardFromPeer(client, payload);
    }
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

  /**
   * Like sync(), and then resolves once every other live listener has acknowledged that it handled the
   * changes committed before the call, or its lease (counted from its last heartbeat heard before
   * ours) has run out, so that it reads from the database until it has heard them. A revocation waits
   * for this before it answers: no process trusts a cached session after that. Not live here: first
   * waits (at most a lease) to be live again, since what the others cached is unknown meanwhile.
   */
  async syncAll(): Promise<void> {
    if (this.closed) return;
    if (!this.isLive()) await this.untilLive(this.leaseMs);
    const client = this.client;
    if (!client || !this.isLive()) return;
    const token = `all:${this.id}:${this.leaseMs}:${++this.echoSeq}`;
    let onAck = () => {};
    const acked = new Set<string>();
    this.awaitingAcks.set(token, { acked, onAck: () => onAck() });
    let heard = false;
    try {
      await this.echo(client, token);
      heard = client === this.client;
    } catch (error) {
      this.lost(client, error as Error);
    }
    try {
      if (!heard) {
        // Lost before our token came back: a peer may have renewed its lease by a heartbeat we never
        // heard, but not beyond one lease from now. Wait that out.
        await new Promise((resolve) => setTimeout(resolve, this.longestLease()));
        return;
      }
      // Our token came back: every heartbeat committed before it has been heard, so the peers known
      // now are every listener that may trust its cache, each until its lease from that heartbeat ends.
      const now = monotonicNow();
      const waiting = new Map<string, number>();
      for (const [peer, { heardAt, leaseMs }] of this.peers) {
        if (heardAt + leaseMs <= now) this.peers.delete(peer);
        else waiting.set(peer, heardAt + leaseMs);
      }
      await new Promise<void>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const check = () => {
          clearTimeout(timer);
          const at = monotonicNow();
          let next = Number.POSITIVE_INFINITY;
          for (const [peer, until] of waiting) {
            if (acked.has(peer) || until <= at || !this.peers.has(peer)) waiting.delete(peer);
            else next = Math.min(next, until);
          }
          // Lost meanwhile: no acknowledgement can arrive any more, but the leases still run out.
          if (waiting.size === 0) return resolve();
          timer = setTimeout(check, Math.max(1, next - at));
        };
        onAck = check;
        check();
      });
    } finally {
      this.awaitingAcks.delete(token);
    }
  }

  private longestLease(): number {
    let longest = this.leaseMs;
    for (const { leaseMs } of this.peers.values()) longest = Math.max(longest, leaseMs);
    return longest;
  }

  /** Resolves once live (connected, and the lease renewed by an echo), or after `ms`. */
  private async untilLive(ms: number): Promise<void> {
    const deadline = monotonicNow() + ms;
    while (!this.isLive() && !this.closed && monotonicNow() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, this.reconnectDelayMs[0])));
    }
  }

  /** Another listener's heartbeat, request for acknowledgement, acknowledgement or goodbye. */
  private heardFromPeer(client: pg.Client, payload: string): void {
    const heartbeat = HEARTBEAT.exec(payload);
    if (heartbeat) {
      const [, kind, peer, leaseMs] = heartbeat as unknown as [string, string, string, string];
      if (peer === this.id) return;
      const known = this.peers.has(peer);
      this.peers.set(peer, { heardAt: monotonicNow(), leaseMs: Number(leaseMs) });
      // A listener new to us (just started or reconnected) learns of us at once, not at our next heartbeat.
      if (!known && this.live) void this.echo(client).catch((error: Error) => this.lost(client, error));
      // Every notification before this one has been handled (they arrive in commit order and 'change'
      // is handled synchronously): our cache no longer holds what the asker changed.
      if (kind === 'all')
        void this.notify(client, `ack:${this.id}:${payload}`).catch((error: Error) => this.lost(client, error));
      return;
    }
    const ack = ACK.exec(payload);
    if (ack) {
      const waiting = this.awaitingAcks.get(ack[2] as string);
      if (waiting) {
        waiting.acked.add(ack[1] as string);
        waiting.onAck();
      }
      return;
    }
    const bye = BYE.exec(payload);
    if (bye) {
      this.peers.delete(bye[1] as string);
      for (const waiting of this.awaitingAcks.values()) waiting.onAck();
    }
  }

  private async notify(client: pg.Client, payload: string): Promise<void> {
    await withTimeout(this.send(client, payload), this.heartbeatTimeoutMs, 'notify');
  }

  /** One NOTIFY on the listener's connection, after the ones already sent (a client runs one query at a time). */
  private send(client: pg.Client, payload: string): Promise<unknown> {
    const sent = this.sending.then(() => client.query('SELECT pg_notify($1, $2)', [USER_CHANGES_CHANNEL, payload]));
    this.sending = sent.catch(() => {});
    return sent;
  }

  /** Our own NOTIFY must come back through the channel: LISTEN is in force on a working connection. */
  private async echo(client: pg.Client, token = `hb:${this.id}:${this.leaseMs}:${++this.echoSeq}`): Promise<void> {
    const sentAt = monotonicNow();
    const received = new Promise<void>((resolve) => this.echoes.set(token, resolve));
    try {
      await withTimeout(Promise.all([this.send(client, token), received]), this.heartbeatTimeoutMs, 'heartbeat');
      // Resolved by drop() too: only an echo that came back on the current connection renews the lease.
      if (client === this.client) this.confirmedAt = Math.max(this.confirmedAt, sentAt);
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
    this.sending = Promise.resolve();
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
