import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RECORDED = fileURLToPath(new URL('../../test/fixtures/recorded/', import.meta.url));
const ARXIV_FEED = path.join(RECORDED, 'arxiv-rss_cs.AI_2026-04-27_3items.xml');
const CROSSREF_WORKS = path.join(RECORDED, 'crossref_journals_2167-8359_works_20items.json');

/** Whether the recorded answers the stand-in serves are in this checkout (CC0 metadata, kept in the repository). */
export const RECORDED_CATALOGUE_ANSWERS = {
  dir: RECORDED,
  present: fs.existsSync(ARXIV_FEED) && fs.existsSync(CROSSREF_WORKS),
};

export interface RecordedCatalogueServer {
  /** http://127.0.0.1:<port>: the catalogue's origin for tests (RuntimeOptions.catalogueOriginForTests). */
  origin: string;
  /** Paths requested so far, in order. */
  requests: string[];
  /** performance.now() of the first request, or null before any. */
  firstRequestAt(): number | null;
  close(): Promise<void>;
}

/**
 * A local stand-in for the built-in catalogue's hosts, answering with real recorded payloads: arXiv's
 * announcement feeds (rss.arxiv.org/rss/<categories>) the recorded feed, a Crossref journal's works the
 * recorded first page and no works after it. Every other host of the catalogue gets 404, as an unreachable
 * source would: these two bring the papers.
 */
export async function startRecordedCatalogueServer(): Promise<RecordedCatalogueServer> {
  const requests: string[] = [];
  let firstRequestAt: number | null = null;
  const server = http.createServer((request, response) => {
    firstRequestAt ??= performance.now();
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname);
    if (url.pathname.startsWith('/rss/')) {
      response.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
      return void fs.createReadStream(ARXIV_FEED).pipe(response);
    }
    if (/^\/journals\/[^/]+\/works$/.test(url.pathname)) {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      const cursor = url.searchParams.get('cursor');
      if (cursor && cursor !== '*') {
        return void response.end(JSON.stringify({ status: 'ok', message: { items: [], 'total-results': 0 } }));
      }
      return void fs.createReadStream(CROSSREF_WORKS).pipe(response);
    }
    response.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    firstRequestAt: () => firstRequestAt,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
