import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));
const read = (file: string): unknown => JSON.parse(fs.readFileSync(`${FIXTURES}${file}`, 'utf8'));

/** The ORCID iD of the recorded record (a real public record; see test/fixtures/own-works/README.md). */
export const RECORDED_ORCID_ID = '0000-0002-7416-5858';
/** The OpenAlex author id the stand-in answers for (its page of works is a recorded /works answer). */
export const RECORDED_OPENALEX_AUTHOR = 'A5023888391';

export interface OwnWorksServer {
  /** http://127.0.0.1:<port>: ORCID_BASE_URL, CROSSREF_BASE_URL and OPENALEX_BASE_URL of a test. */
  origin: string;
  /** Path and query of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A local stand-in for ORCID's public API v3.0, Crossref's /works/{doi} and OpenAlex's /works, speaking
 * their wire formats with recorded real answers: the ORCID record of RECORDED_ORCID_ID (summary and
 * bulk work records), Crossref's recorded PeerJ works one DOI at a time (404 'Resource not found.' for
 * other DOIs, as Crossref answers), and OpenAlex's recorded page of works for RECORDED_OPENALEX_AUTHOR.
 * Other ORCID iDs get ORCID's 404.
 */
export async function startOwnWorksServer(): Promise<OwnWorksServer> {
  const orcidWorks = read('own-works/orcid-works-0000-0002-7416-5858.json');
  const orcidWork = read('own-works/orcid-work-0000-0002-7416-5858-154061860.json') as { 'put-code': number };
  const crossref = read('recorded/crossref_journals_2167-8359_works_20items.json') as {
    message: { items: { DOI: string }[] };
  };
  const crossrefByDoi = new Map(crossref.message.items.map((item) => [item.DOI.toLowerCase(), item]));
  const openAlexPage = read('recorded/openalex_works_3results.json');
  const requests: string[] = [];
  const send = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
    response.end(JSON.stringify(body));
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(`${url.pathname}${url.search}`);
    const orcid = /^\/v3\.0\/([\dX-]{19})\/works(?:\/([\d,]+))?$/.exec(url.pathname);
    if (orcid) {
      if (orcid[1] !== RECORDED_ORCID_ID) {
        return send(response, 404, {
          'response-code': 404,
          'developer-message': `404 Not Found: The resource was not found. Full validation error: ORCID iD ${orcid[1]} not found`,
          'error-code': 9016,
        });
      }
      if (!orcid[2]) return send(response, 200, orcidWorks);
      const bulk = orcid[2]
        .split(',')
        .map((code) =>
          code === String(orcidWork['put-code'])
            ? { work: orcidWork }
            : { error: { 'response-code': 404, 'developer-message': 'Not found', 'error-code': 9016 } },
        );
      return send(response, 200, { bulk });
    }
    const doi = /^\/works\/(10\..+)$/.exec(url.pathname);
    if (doi?.[1]) {
      const item = crossrefByDoi.get(decodeURIComponent(doi[1]).toLowerCase());
      if (!item) {
        response.writeHead(404, { 'content-type': 'text/plain' });
        return response.end('Resource not found.');
      }
      return send(response, 200, { status: 'ok', 'message-type': 'work', 'message-version': '1.0.0', message: item });
    }
    if (url.pathname === '/works' && url.searchParams.get('filter') === `author.id:${RECORDED_OPENALEX_AUTHOR}`) {
      return send(response, 200, openAlexPage);
    }
    send(response, 404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
