import type { ServerOptions } from 'node:http';

/**
 * How long the HTTP server waits for clients. Without limits (Fastify's requestTimeout and
 * connectionTimeout are 0 by default) a client that sends its body a byte at a time holds a socket
 * for as long as it likes, and a thousand of them hold a thousand.
 */
export interface HttpTimeouts {
  /** The whole request, headers and body, must arrive within this (Node's requestTimeout): 408, then closed. */
  requestMs: number;
  /** The headers must arrive within this (Node's headersTimeout); at most requestMs. */
  headersMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
  /**
   * A socket with no traffic in either direction is closed after this (Fastify's connectionTimeout).
   * Handlers send nothing until they finish, so it must outlast the slowest one.
   */
  idleSocketMs: number;
  /** How often Node checks requestMs and headersMs (connectionsCheckingInterval). */
  checkIntervalMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  // Request bodies are at most 256 KB of JSON: seconds on the slowest real link.
  requestMs: 30_000,
  // Headers are a few kB; a client still sending them after 15 s is holding the socket on purpose.
  headersMs: 15_000,
  // Longer than the 60 s idle timeout of common reverse proxies and load balancers, so the proxy closes an
  // idle connection first and never sends a request on one the server is closing (Fastify's default).
  keepAliveMs: 72_000,
  // The slowest handler is POST .../process/, bounded by LLM_TIMEOUT_MS (see idleSocketMsFor).
  idleSocketMs: 120_000,
  // Node's default of 30 s would let a slow request live up to twice requestMs.
  checkIntervalMs: 5_000,
};

/** Time past a handler's own deadline for it to answer before its silent socket counts as idle. */
const HANDLER_DEADLINE_MARGIN_MS = 30_000;

/**
 * Fastify's server options for the timeouts. `slowestHandlerMs` is the longest a handler may legitimately
 * run without sending anything (the synchronous research analysis); the idle-socket timeout outlasts it.
 */
export function httpServerOptions(
  overrides: Partial<HttpTimeouts> | undefined,
  slowestHandlerMs: number,
): { requestTimeout: number; keepAliveTimeout: number; connectionTimeout: number; http: ServerOptions } {
  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...overrides };
  const idleSocketMs =
    overrides?.idleSocketMs ?? Math.max(timeouts.idleSocketMs, slowestHandlerMs + HANDLER_DEADLINE_MARGIN_MS);
  return {
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: idleSocketMs,
    // Node reads these when the server is created; Fastify passes `http` to http.createServer.
    http: {
      requestTimeout: timeouts.requestMs,
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
  };
}
