import fs from 'node:fs/promises';
import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from '@electric-sql/pglite-socket';

/**
 * Serves one PGlite instance to many node-postgres connections over a unix socket.
 *
 * pglite-socket's own server multiplexes every connection onto PGlite's single session, but it returns
 * a NOTIFY only to the connection whose statement produced it. Since the session is shared, a LISTEN
 * issued on one connection is in force for all of them, and BullMQ's PostgreSQL backend wakes its
 * workers with LISTEN/NOTIFY on a dedicated connection: with the stock server a new job waited for
 * the worker's poll timeout (up to an hour when a scheduled job is pending). This server uses
 * pglite-socket's connection handler unchanged and its own query queue, which copies every
 * NotificationResponse to all other connections as well.
 *
 * The queue also pins the session to one connection for longer than pglite-socket does. Statements
 * run one at a time, and while a connection has a transaction open only its messages run (as
 * upstream); in addition, from a connection's first extended-query message (Parse, Bind, ...) until
 * its Sync, only that connection runs, because the unnamed statement and portal those messages
 * build are per session. Upstream relies on timing for this (PGlite answers within microtasks, so a
 * connection's batch usually completes before another socket's data is read; we could not make it
 * fail in a stress test); here it holds by construction.
 *
 * Named prepared statements belong to the session too, so every connection shares them: node-postgres
 * parses a named statement once per connection, and the second connection's Parse of the same name would
 * fail with "already exists". The queue answers a Parse that repeats a statement the session already
 * holds (same name, text and parameter types) with ParseComplete itself, without running it, so
 * repositories can name their hot statements and PostgreSQL keeps their plans (repositories/one-trip.ts,
 * runNamed). A Close of a named statement forgets it; nothing of ours sends SQL DEALLOCATE for them (the
 * SQL-level `radar_` statements of runPreparedInOneTrip are prepared and deallocated in SQL, not here).
 */

type QueryQueue = PGLiteSocketHandlerOptions['queryQueue'];

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

const NOTIFICATION_RESPONSE = 'A'.charCodeAt(0);
const SYNC = 'S'.charCodeAt(0);
const SIMPLE_QUERY = 'Q'.charCodeAt(0);
const PARSE = 'P'.charCodeAt(0);
const CLOSE = 'C'.charCodeAt(0);
const PARSE_COMPLETE = '1'.charCodeAt(0);
const PARSE_COMPLETE_MESSAGE = Buffer.from([PARSE_COMPLETE, 0, 0, 0, 4]);
/** Extended-query messages: the session belongs to the sender until its Sync. */
const EXTENDED_QUERY_MESSAGES = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((letter) => letter.charCodeAt(0)));
const SYNC_MESSAGE = new Uint8Array([SYNC, 0, 0, 0, 4]);
/** An answer is written to the socket in pieces of about this size (see processQueue). */
const ANSWER_WRITE_BYTES = 64 * 1024;

/** Splits a backend message stream into whole messages (type byte + int32 length + body). */
class MessageFramer {
  private pending = Buffer.alloc(0);

  push(chunk: Uint8Array): Buffer[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : Buffer.from(chunk);
    const messages: Buffer[] = [];
    while (this.pending.length >= 5) {
      const length = 1 + this.pending.readInt32BE(1);
      if (this.pending.length < length) break;
      messages.push(this.pending.subarray(0, length));
      this.pending = this.pending.subarray(length);
    }
    return messages;
  }

  /** Bytes that never formed a whole message; the stream should end on a boundary. */
  rest(): Buffer {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    return rest;
  }
}

/**
 * The name of a named statement a Parse creates, with the rest of its body (text and parameter types), or
 * of one a Close ('S') removes; undefined for the unnamed statement and anything else.
 */
function namedStatementOf(message: Uint8Array): { name: string; body: Buffer } | undefined {
  const type = message[0];
  if (type !== PARSE && !(type === CLOSE && message[5] === 'S'.charCodeAt(0))) return undefined;
  const start = type === PARSE ? 5 : 6;
  const end = message.indexOf(0, start);
  if (end <= start) return undefined;
  const bytes = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  return { name: bytes.toString('utf8', start, end), body: bytes.subarray(end + 1) };
}

class BroadcastingQueryQueue {
  private queue: QueuedMessage[] = [];
  /** The session's named statements, by name: the body of the Parse that made each. */
  private readonly namedStatements = new Map<string, Buffer>();
  private processing = false;
  /** The connection whose extended query or transaction is in progress; only it may run. */
  private ownerHandlerId: number | null = null;

  constructor(
    private readonly db: PGlite,
    private readonly broadcast: (notification: Buffer, fromHandlerId: number) => void,
  ) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.processQueue();
    });
  }

  private nextMessage(): QueuedMessage | undefined {
    if (this.ownerHandlerId !== null) {
      const index = this.queue.findIndex((item) => item.handlerId === this.ownerHandlerId);
      return index === -1 ? undefined : this.queue.splice(index, 1)[0];
    }
    return this.queue.shift();
  }

  private updateOwner(handlerId: number, messageType: number | undefined): void {
    if (messageType !== undefined && EXTENDED_QUERY_MESSAGES.has(messageType)) {
      this.ownerHandlerId = handlerId;
    } else if (messageType === SYNC || messageType === SIMPLE_QUERY) {
      this.ownerHandlerId = this.db.isInTransaction() ? handlerId : null;
    }
  }

  private async processQueue(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (let item = this.nextMessage(); item; item = this.nextMessage()) {
        const current = item;
        const named = namedStatementOf(current.message);
        if (named && current.message[0] === PARSE && this.namedStatements.get(named.name)?.equals(named.body)) {
          // Another connection parsed this very statement: the session has it already.
          current.onData(PARSE_COMPLETE_MESSAGE);
          this.updateOwner(current.handlerId, PARSE);
          current.resolve(PARSE_COMPLETE_MESSAGE.length);
          continue;
        }
        let parsed = false;
        const framer = new MessageFramer();
        // The answer goes out in writes of up to ANSWER_WRITE_BYTES: the connection handler writes each
        // chunk it is given to the socket, and a write per backend message (one per row) took about twice
        // the CPU of one write for a 200-row answer (docs/benchmarks.md, issue 35). Bounded, so a large
        // result is not held twice in memory before it is written.
        let answer: Buffer[] = [];
        let answerBytes = 0;
        let bytes = 0;
        const flush = () => {
          if (answer.length === 0) return;
          current.onData(answer.length === 1 ? (answer[0] as Buffer) : Buffer.concat(answer, answerBytes));
          answer = [];
          answerBytes = 0;
        };
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(current.message, {
              onRawData: (chunk: Uint8Array) => {
                for (const message of framer.push(chunk)) {
                  bytes += message.length;
                  answer.push(message);
                  answerBytes += message.length;
                  if (message[0] === NOTIFICATION_RESPONSE) this.broadcast(message, current.handlerId);
                  else if (message[0] === PARSE_COMPLETE) parsed = true;
                }
                if (answerBytes >= ANSWER_WRITE_BYTES) flush();
              },
            }),
          );
          const rest = framer.rest();
          if (rest.length) {
            answer.push(rest);
            answerBytes += rest.length;
          }
          flush();
        } catch (error) {
          // What PGlite answered before it failed, as a write per message did.
          flush();
          this.updateOwner(current.handlerId, current.message[0]);
          current.reject(error);
          continue;
        }
        if (named && current.message[0] === PARSE && parsed)
          this.namedStatements.set(named.name, Buffer.from(named.body));
        else if (named && current.message[0] === CLOSE) this.namedStatements.delete(named.name);
        this.updateOwner(current.handlerId, current.message[0]);
        current.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /**
   * A connection that drops mid-query or inside a transaction must not leave the shared session stuck:
   * end its extended query with a Sync and roll its transaction back.
   */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.ownerHandlerId !== handlerId) return;
    // No runExclusive here: exec() takes the same lock. The session is pinned to this connection, so
    // nothing else runs meanwhile.
    try {
      await this.db.execProtocolRaw(SYNC_MESSAGE);
      if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    } finally {
      this.ownerHandlerId = null;
    }
    await this.processQueue();
  }
}

export class PgliteSocketServer {
  private readonly sockets = new Map<number, net.Socket>();
  private readonly handlers = new Set<PGLiteSocketHandler>();
  private server: net.Server | undefined;

  constructor(
    private readonly db: PGlite,
    private readonly socketPath: string,
  ) {}

  async start(): Promise<void> {
    const queryQueue = new BroadcastingQueryQueue(this.db, (notification, fromHandlerId) => {
      for (const [handlerId, socket] of this.sockets) {
        if (handlerId !== fromHandlerId && socket.writable) socket.write(notification);
      }
    }) as unknown as QueryQueue; // implements the contract pglite-socket's handler calls
    await fs.rm(this.socketPath, { force: true });
    this.server = net.createServer((socket) => {
      const handler = new PGLiteSocketHandler({ queryQueue, closeOnDetach: true });
      this.handlers.add(handler);
      this.sockets.set(handler.handlerId, socket);
      const forget = () => {
        this.handlers.delete(handler);
        this.sockets.delete(handler.handlerId);
      };
      handler.addEventListener('close', forget);
      handler.addEventListener('error', forget);
      void handler.attach(socket);
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  async stop(): Promise<void> {
    for (const handler of this.handlers) await handler.detach(true);
    this.handlers.clear();
    this.sockets.clear();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    await fs.rm(this.socketPath, { force: true });
  }
}
