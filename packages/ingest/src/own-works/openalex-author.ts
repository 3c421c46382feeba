import type { HttpClient } from '../adapters/http';
import { mapOpenAlexWork } from '../adapters/openalex';
import type { PaperDraft } from '../types';

const MAX_BYTES = 32 * 1024 * 1024;
/** OpenAlex's largest page. */
const PAGE_SIZE = 200;

/**
 * The newest `limit` works of an OpenAlex author (`/works?filter=author.id:A...`, newest publication
 * first), with abstracts rebuilt from OpenAlex's inverted index. Needs the API key (OpenAlex requires
 * one); the key goes in the query string and is never logged (the HTTP client's errors name only the host).
 */
export async function fetchOpenAlexAuthorWorks(
  http: HttpClient,
  options: { baseUrl: string; apiKey: string; authorId: string; limit: number; signal?: AbortSignal },
): Promise<{ works: PaperDraft[]; total: number }> {
  const url = new URL(`${options.baseUrl.replace(/\/+$/, '')}/works`);
  url.searchParams.set('filter', `author.id:${options.authorId}`);
  url.searchParams.set('sort', 'publication_date:desc');
  url.searchParams.set('per-page', String(Math.min(PAGE_SIZE, options.limit)));
  url.searchParams.set('api_key', options.apiKey);
  const body = await http.get(url.toString(), {
    headers: { accept: 'application/json' },
    maxBytes: MAX_BYTES,
    signal: options.signal,
  });
  const document = JSON.parse(new TextDecoder().decode(body.bytes)) as {
    results?: unknown;
    meta?: { count?: unknown };
  };
  const results = Array.isArray(document.results) ? document.results : [];
  const works = results.slice(0, options.limit).flatMap((work, index) => {
    const entry = mapOpenAlexWork(work, index);
    return entry.type === 'paper' ? [entry.draft] : [];
  });
  const total = typeof document.meta?.count === 'number' ? document.meta.count : works.length;
  return { works, total };
}
