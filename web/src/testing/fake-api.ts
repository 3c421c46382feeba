import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake API received it, for assertions on what a screen sent. */
export type RecordedRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The parsed JSON body, or undefined when there was none. */
  body: unknown;
  authorization: string | undefined;
};

/** `headers`: extra response headers (e.g. `Retry-After` on a 429). */
export type FakeReply = { status?: number; body?: unknown; headers?: Record<string, string> };

/** A fixed reply, or a function of the request and the `:name` segments of the route. */
export type FakeResponder =
  | FakeReply
  | ((request: RecordedRequest, params: Record<string, string>) => FakeReply | Promise<FakeReply>);

type Route = { method: string; segments: string[]; responder: FakeResponder };

export type FakeApi = {
  /** Starts the server on a free port of 127.0.0.1. */
  listen: () => Promise<void>;
  /** `http://127.0.0.1:<port>` once listening: the page's origin in component tests, so relative API paths land here. */
  readonly origin: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /**
   * Answers `method path`; `:name` segments match any one segment. A later answer for the same route
   * replaces the earlier one, so a test can change the server's state between steps.
   */
  on: (method: string, path: string, responder: FakeResponder) => void;
  /** The requests received for a route (same pattern syntax as `on`). */
  requestsTo: (method: string, path: string) => RecordedRequest[];
  /** Forgets routes and recorded requests (between tests). */
  reset: () => void;
  close: () => Promise<void>;
};

const toSegments = (path: string) => path.split('/');

function matchRoute(route: Route, method: string, segments: string[]): Record<string, string> | null {
  if (route.method !== method || route.segments.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [index, expected] of route.segments.entries()) {
    const actual = segments[index] ?? '';
    if (expected.startsWith(':')) params[expected.slice(1)] = decodeURIComponent(actual);
    else if (expected !== actual) return null;
  }
  return params;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

/**
 * A real HTTP server on 127.0.0.1 standing in for the API: a route table of
 * method + path -> status + JSON. Unknown routes answer 404 with the API's error shape, as the real
 * server does. Screens under test reach it through the real api client and fetch.
 */
export function createFakeApi(): FakeApi {
  let routes: Route[] = [];
  const requests: RecordedRequest[] = [];

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';
    const recorded: RecordedRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: await readBody(request),
      authorization: request.headers.authorization,
    };
    requests.push(recorded);

    const segments = toSegments(url.pathname);
    let reply: FakeReply = { status: 404, body: { code: 'NOT_FOUND', message: '请求的资源不存在' } };
    for (const route of routes) {
      const params = matchRoute(route, method, segments);
      if (!params) continue;
      reply = typeof route.responder === 'function' ? await route.responder(recorded, params) : route.responder;
      break;
    }
    const status = reply.status ?? 200;
    if (reply.body === undefined) {
      response.writeHead(status, reply.headers).end();
      return;
    }
    if (typeof reply.body === 'string' && reply.headers?.['Content-Type']) {
      // A file (an export): sent as it is, under its own media type.
      response.writeHead(status, reply.headers).end(reply.body);
      return;
    }
    response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...reply.headers });
    response.end(JSON.stringify(reply.body));
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error));
    });
  });
  // Idle keep-alive sockets stay open until close(): with Node's default 5 s timeout the server could
  // close one just as the page sends its next request on it ('socket hang up').
  server.keepAliveTimeout = 0;
  let origin = '';

  return {
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    get origin() {
      if (origin === '') throw new Error('The fake API is not listening yet: call listen() first');
      return origin;
    },
    requests,
    on(method, path, responder) {
      const segments = toSegments(path);
      routes = [
        { method, segments, responder },
        ...routes.filter((route) => route.method !== method || route.segments.join('/') !== segments.join('/')),
      ];
    },
    requestsTo(method, path) {
      const route: Route = { method, segments: toSegments(path), responder: {} };
      return requests.filter((request) => matchRoute(route, request.method, toSegments(request.path)) !== null);
    },
    reset() {
      routes = [];
      requests.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
