import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedFixturesDir } from '@radar/db/testing';
import type { SourceConfig } from '../../src/pipeline/sources-config';
import type { SourceKind } from '../../src/types';

/**
 * A local HTTP server on 127.0.0.1 answering every catalogue entry with a recorded real payload of its
 * kind, and the entries pointed at it. Redistributable payloads come from test/fixtures/recorded; the
 * journal feed (Nature, RSS 1.0) and the news feed (ScienceDaily, RSS 2.0) from the shared fixtures'
 * real/ folder, so those kinds are absent where that folder is.
 */

const RECORDED = fileURLToPath(new URL('../fixtures/recorded/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/ingest/', import.meta.url));
const REAL = path.join(sharedFixturesDir(), 'real');

export const RECORDED_PAYLOADS: Record<SourceKind, string | undefined> = {
  'arxiv-rss': path.join(RECORDED, 'arxiv-rss_cs.AI_2026-04-27_3items.xml'),
  crossref: path.join(RECORDED, 'crossref_journals_2167-8359_works_20items.json'),
  openalex: path.join(RECORDED, 'openalex_works_3results.json'),
  rss: path.join(REAL, 'journal-feeds/nature_rss1.0_rdf_75items_2024-07-18.rss'),
  'news-rss': path.join(REAL, 'news-feeds/sciencedaily_all_rss2_2020-02-10.xml'),
  arxiv: path.join(REAL, 'arxiv/rsxiv_query.xml'),
  // No whole recorded page of bioRxiv's details API exists (biorxiv-adapter.test.ts builds pages from
  // quoted real records), so the catalogue's preprint entries are not served here.
  biorxiv: undefined,
};

/**
 * Entries answered with a payload of their own instead of their kind's: synthetic copies that keep the
 * structure of a real answer of that feed recorded in a public repository (config/README.md names the
 * repository, file and commit), written here because the real answer's text may not be copied.
 */
export const ENTRY_PAYLOADS: Record<string, { file: string; contentType: string }> = {
  'news-quanta': {
    file: path.join(FIXTURES, 'news-quanta-structure.xml'),
    contentType: 'application/rss+xml; charset=UTF-8',
  },
  'news-the-conversation': {
    file: path.join(FIXTURES, 'news-theconversation-structure.xml'),
    contentType: 'application/atom+xml; charset=utf-8',
  },
};

/** The kinds whose recorded payload is on this machine. */
export function availableKinds(): Set<SourceKind> {
  return new Set(
    (Object.entries(RECORDED_PAYLOADS) as [SourceKind, string | undefined][])
      .filter(([, file]) => file && fs.existsSync(file))
      .map(([kind]) => kind),
  );
}

const CONTENT_TYPES: Record<SourceKind, string> = {
  'arxiv-rss': 'application/rss+xml; charset=utf-8',
  arxiv: 'application/atom+xml; charset=utf-8',
  crossref: 'application/json; charset=utf-8',
  openalex: 'application/json; charset=utf-8',
  rss: 'application/rdf+xml',
  'news-rss': 'application/rss+xml',
  biorxiv: 'application/json; charset=utf-8',
};

export interface CatalogueServer {
  url: string;
  /** Path and query of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

function kindOfPath(pathname: string): SourceKind | undefined {
  if (pathname.startsWith('/arxiv-rss/')) return 'arxiv-rss';
  if (pathname.startsWith('/arxiv/')) return 'arxiv';
  if (/^\/crossref\/journals\/[^/]+\/works$/.test(pathname)) return 'crossref';
  if (pathname === '/openalex/works') return 'openalex';
  if (pathname.startsWith('/journal-feed/')) return 'rss';
  if (pathname.startsWith('/news-feed/')) return 'news-rss';
  return undefined;
}

export async function startCatalogueServer(): Promise<CatalogueServer> {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(`${url.pathname}${url.search}`);
    const kind = kindOfPath(url.pathname);
    const own = /^\/(?:news|journal)-feed\/([^/]+)$/.exec(url.pathname)?.[1];
    const entryPayload = own ? ENTRY_PAYLOADS[own] : undefined;
    if (entryPayload) {
      response.writeHead(200, { 'content-type': entryPayload.contentType });
      fs.createReadStream(entryPayload.file).pipe(response);
      return;
    }
    const file = kind ? RECORDED_PAYLOADS[kind] : undefined;
    if (!kind || !file || !fs.existsSync(file)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    // Cursor-paged APIs: the recorded page answers the first request of a run; a further page is empty.
    const cursor = url.searchParams.get('cursor');
    if (cursor && cursor !== '*') {
      const empty =
        kind === 'crossref'
          ? { status: 'ok', 'message-type': 'work-list', message: { items: [], 'total-results': 0 } }
          : { meta: { count: 0, next_cursor: null }, results: [] };
      response.writeHead(200, { 'content-type': CONTENT_TYPES[kind] }).end(JSON.stringify(empty));
      return;
    }
    response.writeHead(200, { 'content-type': CONTENT_TYPES[kind] });
    fs.createReadStream(file).pipe(response);
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

/** The entry with every URL it fetches moved to the local server (same paths and queries as the real one). */
export function pointAtServer(entry: SourceConfig, base: string): SourceConfig {
  switch (entry.kind) {
    case 'arxiv-rss':
      return { ...entry, baseUrl: `${base}/arxiv-rss/` };
    case 'arxiv':
      return { ...entry, baseUrl: `${base}/arxiv/api/query` };
    case 'crossref':
      return { ...entry, baseUrl: `${base}/crossref` };
    case 'openalex':
      return { ...entry, baseUrl: `${base}/openalex` };
    case 'rss':
      return { ...entry, url: `${base}/journal-feed/${entry.name}` };
    case 'news-rss':
      return { ...entry, url: `${base}/news-feed/${entry.name}` };
    case 'biorxiv':
      return { ...entry, baseUrl: `${base}/biorxiv` };
  }
}
