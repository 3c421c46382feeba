import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (request: http.IncomingMessage, response: http.ServerResponse, url: URL) => void | Promise<void>;

export interface LocalHttpServer {
  url: string;
  /** Every request seen: path with query, and when it arrived. */
  requests: { path: string; at: number; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A route answering 200 with a file's content (a feed fixture). */
export const fileRoute =
  (contentType: string, file: string): Route =>
  async (_request, response) => {
    response.writeHead(200, { 'content-type': contentType }).end(await fs.readFile(file));
  };

/** A real HTTP server on 127.0.0.1 with a route per path (the sources' stand-in in tests). */
export async function startLocalHttpServer(routes: Record<string, Route>): Promise<LocalHttpServer> {
  const requests: LocalHttpServer['requests'] = [];
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push({ path: `${url.pathname}${url.search}`, at: Date.now(), headers: request.headers });
    const route = routes[url.pathname];
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    try {
      await route(request, response, url);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
