import { mapCrossrefWork } from '../adapters/crossref';
import type { HttpClient } from '../adapters/http';
import { mapOpenAlexWork } from '../adapters/openalex';
import type { IngestEntry, PaperDraft } from '../types';

/**
 * Most DOI look-ups one seeding makes: each costs a request to Crossref (and maybe OpenAlex), and the
 * reader waits for them in the dialog. Works past it keep what their source gave.
 */
const MAX_ABSTRACT_LOOKUPS = 60;
/** Failed look-ups in a row (not 'not found') after which the service is taken to be down and left alone. */
const MAX_FAILURES_IN_A_ROW = 3;
const MAX_BYTES = 4 * 1024 * 1024;
const POLITENESS = {
  crossref: { key: 'crossref', minIntervalMs: 100 },
  openalex: { key: 'openalex', minIntervalMs: 100 },
};

export interface AbstractSources {
  crossrefBaseUrl: string;
  crossrefMailto?: string | undefined;
  /** OpenAlex is asked only with a key (OpenAlex requires one). */
  openAlex?: { baseUrl: string; apiKey: string } | undefined;
}

async function lookUp(
  http: HttpClient,
  url: string,
  politeness: { key: string; minIntervalMs: number },
  map: (work: unknown) => IngestEntry,
  signal?: AbortSignal,
): Promise<PaperDraft | undefined> {
  const body = await http.get(url, {
    headers: { accept: 'application/json' },
    maxBytes: MAX_BYTES,
    politeness,
    signal,
  });
  const document = JSON.parse(new TextDecoder().decode(body.bytes)) as { message?: unknown };
  const entry = map(document.message ?? document);
  return entry.type === 'paper' ? entry.draft : undefined;
}

const isNotFound = (error: unknown) => error instanceof Error && / answered 404\b/.test(error.message);

/**
 * Fills in, in place, the abstracts (and authors, when missing) of works that have a DOI but no
 * abstract: from Crossref by DOI, then from OpenAlex by DOI when a key is set. Best effort: a DOI
 * neither knows is left as it is, and after a few failures in a row the rest are left too.
 * Returns how many works got an abstract.
 */
export async function fillAbstractsByDoi(
  http: HttpClient,
  works: PaperDraft[],
  sources: AbstractSources,
  options: { signal?: AbortSignal; onLookup?: (done: number, total: number) => Promise<void> } = {},
): Promise<number> {
  const missing = works.filter((work) => work.doi && !work.abstract.trim()).slice(0, MAX_ABSTRACT_LOOKUPS);
  let filled = 0;
  let failuresInARow = 0;
  for (const [index, work] of missing.entries()) {
    if (failuresInARow >= MAX_FAILURES_IN_A_ROW) break;
    const doi = encodeURIComponent(work.doi ?? '');
    const crossref = new URL(`${sources.crossrefBaseUrl.replace(/\/+$/, '')}/works/${doi}`);
    if (sources.crossrefMailto) crossref.searchParams.set('mailto', sources.crossrefMailto);
    const attempts: (() => Promise<PaperDraft | undefined>)[] = [
      () => lookUp(http, crossref.toString(), POLITENESS.crossref, (item) => mapCrossrefWork(item), options.signal),
    ];
    if (sources.openAlex) {
      const openAlex = new URL(`${sources.openAlex.baseUrl.replace(/\/+$/, '')}/works/doi:${doi}`);
      openAlex.searchParams.set('api_key', sources.openAlex.apiKey);
      attempts.push(() =>
        lookUp(http, openAlex.toString(), POLITENESS.openalex, (item) => mapOpenAlexWork(item), options.signal),
      );
    }
    for (const attempt of attempts) {
      try {
        const found = await attempt();
        failuresInARow = 0;
        if (found && !work.authors.length) work.authors = found.authors;
        if (found?.abstract.trim()) {
          work.abstract = found.abstract;
          filled++;
          break;
        }
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (!isNotFound(error)) failuresInARow++;
      }
    }
    await options.onLookup?.(index + 1, missing.length);
  }
  return filled;
}
