import { PermanentSourceError, TransientSourceError } from '../types';
import { charsetOf } from './decode';

/**
 * The one module that talks HTTP to content sources. It applies per-request time-outs (to the first
 * byte and between body chunks), a size cap, waits out 429/503 answers (Retry-After, else exponential
 * backoff) a few times before giving the failure to the job's own retries, and spaces requests per
 * politeness key (arXiv: one request every 3 s, one connection at a time).
 */

export interface HttpSettings {
  userAgent: string;
  timeoutMs: number;
  /** Tries per request when the server answers 429/503 or the connection fails. */
  maxAttempts: number;
  /** First wait when the server gives no Retry-After; doubles per try. */
  retryBaseDelayMs: number;
  /** Longest wait honoured for one Retry-After; a longer one fails the run, which is retried later. */
  maxRetryAfterMs: number;
  /** Called before each request goes out, retries included (callers that count calls against a budget). */
  onRequest?: (() => void) | undefined;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Requests with the same key are serialised and spaced by `minIntervalMs`. */
  politeness?: { key: string; minIntervalMs: number } | undefined;
  /** Conditional request: 304 answers come back as `notModified`. */
  etag?: string | undefined;
  lastModified?: string | undefined;
  maxBytes: number;
  signal?: AbortSignal | undefined;
}

export interface FetchedBody {
  status: number;
  notModified: boolean;
  url: string;
  contentType: string | undefined;
  charset: string | undefined;
  etag: string | undefined;
  lastModified: string | undefined;
  /** The body, stopped at maxBytes. */
  bytes: Uint8Array;
  /** The body was longer than maxBytes and was cut. */
  truncated: boolean;
}

export interface PolitenessLease {
  /** Waits for the cross-process lease of a key; resolves with a release function. */
  acquire(key: string, signal?: AbortSignal): Promise<() => Promise<void>>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Serialises requests per key within this process and keeps them `minIntervalMs` apart. */
class PolitenessGate {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly lastFinished = new Map<string, number>();

  async run<T>(key: string, minIntervalMs: number, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.tails.set(
      key,
      previous.then(() => tail),
    );
    await previous;
    try {
      const wait = (this.lastFinished.get(key) ?? 0) + minIntervalMs - Date.now();
      if (wait > 0) await sleep(wait, signal);
      return await task();
    } finally {
      this.lastFinished.set(key, Date.now());
      release();
    }
  }
}

export class HttpClient {
  private readonly gate = new PolitenessGate();

  constructor(private readonly settings: HttpSettings) {}

  /** GET with retries for 429/503 and network failures; the whole body is read (up to maxBytes). */
  async get(url: string, options: RequestOptions): Promise<FetchedBody> {
    let lastError: Error | undefined;
    for (let attempt = 1; attempt <= this.settings.maxAttempts; attempt++) {
      let waitMs: number;
      try {
        const run = () => this.fetchOnce(url, options);
        const result = options.politeness
          ? await this.gate.run(options.politeness.key, options.politeness.minIntervalMs, run, options.signal)
          : await run();
        if (result.kind === 'ok') return result.body;
        lastError = result.error;
        waitMs = result.retryAfterMs ?? this.settings.retryBaseDelayMs * 2 ** (attempt - 1);
        if (waitMs > this.settings.maxRetryAfterMs) {
          throw new TransientSourceError(
            `${result.error.message}; the server asks to wait ${Math.round(waitMs / 1000)} s, the run will be retried later`,
          );
        }
      } catch (error) {
        if (error instanceof PermanentSourceError || error instanceof TransientSourceError) throw error;
        if (options.signal?.aborted) throw options.signal.reason;
        lastError = error as Error;
        waitMs = this.settings.retryBaseDelayMs * 2 ** (attempt - 1);
      }
      if (attempt < this.settings.maxAttempts) await sleep(waitMs, options.signal);
    }
    throw new TransientSourceError(
      `${lastError?.message ?? 'request failed'} (after ${this.settings.maxAttempts} attempts)`,
    );
  }

  private async fetchOnce(
    url: string,
    options: RequestOptions,
  ): Promise<{ kind: 'ok'; body: FetchedBody } | { kind: 'retry'; error: Error; retryAfterMs: number | undefined }> {
    const controller = new AbortController();
    const abortFromCaller = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', abortFromCaller, { once: true });
    const timeoutMs = this.settings.timeoutMs;
    let timer = setTimeout(() => controller.abort(new Error('timed out')), timeoutMs);
    const resetTimer = () => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(new Error('timed out')), timeoutMs);
    };
    const host = safeHost(url);
    try {
      const headers: Record<string, string> = {
        'user-agent': this.settings.userAgent,
        accept:
          'application/atom+xml, application/rss+xml, application/rdf+xml, application/xml, application/json;q=0.9, text/xml;q=0.9, */*;q=0.5',
        ...options.headers,
      };
      if (options.etag) headers['if-none-match'] = options.etag;
      if (options.lastModified) headers['if-modified-since'] = options.lastModified;
      let response: Response;
      this.settings.onRequest?.();
      try {
        response = await fetch(url, { headers, signal: controller.signal, redirect: 'follow' });
      } catch (error) {
        if (controller.signal.aborted && !options.signal?.aborted) {
          return {
            kind: 'retry',
            error: new Error(`${host}: no answer within ${timeoutMs} ms`),
            retryAfterMs: undefined,
          };
        }
        throw new Error(`${host}: ${describeFetchError(error)}`);
      }

      if (response.status === 304) {
        await response.body?.cancel();
        return { kind: 'ok', body: emptyBody(response, true) };
      }
      if (response.status === 429 || response.status === 503 || response.status === 502 || response.status === 504) {
        await response.body?.cancel();
        return {
          kind: 'retry',
          error: new Error(`${host} answered ${response.status} ${response.statusText}`.trim()),
          retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
        };
      }
      if (response.status >= 500) {
        await response.body?.cancel();
        throw new TransientSourceError(`${host} answered ${response.status} ${response.statusText}`.trim());
      }
      if (response.status >= 400) {
        const text = await response.text().catch(() => '');
        const hint = text.replace(/\s+/g, ' ').trim().slice(0, 200);
        const message = `${host} answered ${response.status} ${response.statusText}${hint ? `: ${hint}` : ''}`;
        // 408 is the server's time-out; everything else in 4xx is about our request (URL, key, filter).
        if (response.status === 408) throw new TransientSourceError(message);
        throw new PermanentSourceError(message);
      }

      const chunks: Uint8Array[] = [];
      let size = 0;
      let truncated = false;
      if (response.body) {
        const reader = response.body.getReader();
        try {
          for (;;) {
            resetTimer();
            const { done, value } = await reader.read();
            if (done) break;
            if (size + value.length > options.maxBytes) {
              chunks.push(value.subarray(0, options.maxBytes - size));
              size = options.maxBytes;
              truncated = true;
              await reader.cancel();
              break;
            }
            chunks.push(value);
            size += value.length;
          }
        } catch (error) {
          if (controller.signal.aborted && !options.signal?.aborted) {
            return {
              kind: 'retry',
              error: new Error(`${host}: the answer stalled for more than ${timeoutMs} ms`),
              retryAfterMs: undefined,
            };
          }
          throw new Error(`${host}: ${describeFetchError(error)}`);
        }
      }
      const contentType = response.headers.get('content-type') ?? undefined;
      return {
        kind: 'ok',
        body: {
          status: response.status,
          notModified: false,
          url: response.url || url,
          contentType,
          charset: charsetOf(contentType),
          etag: response.headers.get('etag') ?? undefined,
          lastModified: response.headers.get('last-modified') ?? undefined,
          bytes: Buffer.concat(chunks),
          truncated,
        },
      };
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abortFromCaller);
    }
  }
}

function emptyBody(response: Response, notModified: boolean): FetchedBody {
  return {
    status: response.status,
    notModified,
    url: response.url,
    contentType: undefined,
    charset: undefined,
    etag: response.headers.get('etag') ?? undefined,
    lastModified: response.headers.get('last-modified') ?? undefined,
    bytes: new Uint8Array(0),
    truncated: false,
  };
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function describeFetchError(error: unknown): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  const code = err.cause?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown host (DNS)';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  return err.cause?.message ?? err.message ?? String(error);
}

/** Bytes as a one-chunk stream for the streaming parsers. */
export async function* asChunks(bytes: Uint8Array, chunkSize = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += chunkSize) yield bytes.subarray(offset, offset + chunkSize);
}

export { sleep };
