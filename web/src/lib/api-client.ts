import { DEFAULT_ERROR_MESSAGES, ERROR_CODES, type ErrorCode } from '@radar/shared';
import { expireSession, getToken } from './session';

/**
 * The one way the app talks to its API: same origin, JSON, a bearer token from
 * localStorage on every request, a time-out, and every failure turned into an `ApiError` whose
 * `message` is the Chinese text to show.
 */

/** Time-outs of the API calls, in ms: longer where the server does slow work (mail, ranking). */
export const REQUEST_TIMEOUTS = {
  default: 10_000,
  /** Paper recommendations and recommendation stats. */
  recommendation: 30_000,
  register: 15_000,
} as const;

/** Failures that never reached an HTTP status, plus statuses the table below does not name. */
export type ClientErrorCode = 'HTTP_ERROR' | 'NETWORK_ERROR' | 'TIMEOUT' | 'ABORTED' | 'UNKNOWN_ERROR';

export const CLIENT_ERROR_MESSAGES = {
  NETWORK_ERROR: '网络连接失败，请检查网络设置',
  TIMEOUT: '请求超时，请稍后再试',
  ABORTED: '请求已取消',
  UNKNOWN_ERROR: '未知错误，请稍后再试',
} as const;

type StatusRule = {
  code: ErrorCode;
  /** Whether the server's own message replaces the default (400, 409, 422: answers about this request's input). */
  prefersServerMessage: boolean;
};

const STATUS_RULES: Record<number, StatusRule> = {
  400: { code: 'BAD_REQUEST', prefersServerMessage: true },
  401: { code: 'AUTH_EXPIRED', prefersServerMessage: false },
  403: { code: 'FORBIDDEN', prefersServerMessage: false },
  404: { code: 'NOT_FOUND', prefersServerMessage: false },
  409: { code: 'CONFLICT', prefersServerMessage: true },
  422: { code: 'VALIDATION_ERROR', prefersServerMessage: true },
  429: { code: 'RATE_LIMITED', prefersServerMessage: false },
  500: { code: 'INTERNAL_ERROR', prefersServerMessage: false },
  502: { code: 'SERVICE_UNAVAILABLE', prefersServerMessage: false },
  503: { code: 'SERVICE_UNAVAILABLE', prefersServerMessage: false },
  504: { code: 'SERVICE_UNAVAILABLE', prefersServerMessage: false },
};

/**
 * A parsed JSON error body. Our server sends `{ code, message, fields?, remaining_seconds? }`
 * (packages/shared/src/errors.ts); `error` and `detail` are kept because a backend that sends only the contract's members uses them.
 */
export type ApiErrorBody = Record<string, unknown>;

/**
 * The wait a 429 names, in whole seconds: the body's `remaining_seconds` (our server), else the
 * `Retry-After` header (seconds, or an HTTP date), else undefined.
 */
function retryAfterSeconds(body: ApiErrorBody | null, retryAfter: string | null, now = Date.now()) {
  const fromBody = body?.remaining_seconds;
  if (typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody > 0) return Math.ceil(fromBody);
  const header = retryAfter?.trim();
  if (!header) return undefined;
  if (/^\d+$/.test(header)) return Number(header) > 0 ? Number(header) : undefined;
  const at = Date.parse(header);
  return Number.isNaN(at) || at <= now ? undefined : Math.ceil((at - now) / 1000);
}

/** '30 秒', '5 分钟', '2 小时': a wait as people say it, rounded up. */
function formatWait(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.ceil(seconds))} 秒`;
  if (seconds < 3600) return `${Math.ceil(seconds / 60)} 分钟`;
  return `${Math.ceil(seconds / 3600)} 小时`;
}

/** The spec's 429 text, with the wait when the answer named one. */
function rateLimitedMessage(waitSeconds: number | undefined): string {
  const base = DEFAULT_ERROR_MESSAGES.RATE_LIMITED;
  return waitSeconds === undefined ? base : `${base}（${formatWait(waitSeconds)}后可重试）`;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status, or null when no response arrived (network error, time-out, abort). */
  readonly status: number | null;
  readonly code: ErrorCode | ClientErrorCode;
  /** The parsed JSON error body, or null when there was none or it was not JSON. */
  readonly body: ApiErrorBody | null;

  constructor(init: {
    message: string;
    status: number | null;
    code: ErrorCode | ClientErrorCode;
    body?: ApiErrorBody | null;
    cause?: unknown;
    /** The answer's `Retry-After` header, read when the body names no wait. */
    retryAfter?: string | null;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.body = init.body ?? null;
    this.retryAfter = init.retryAfter ?? null;
  }

  private readonly retryAfter: string | null;

  /** The server's own text (`message`, else `error`, else `detail`), e.g. for the login screen's error line. */
  get serverMessage(): string | undefined {
    return readServerMessage(this.body) ?? readNonEmptyString(this.body?.detail);
  }

  /** Per-field messages for forms, e.g. `{ password: ['密码长度至少为8位'] }`. */
  get fields(): Record<string, string[]> | undefined {
    const fields = this.body?.fields;
    if (typeof fields !== 'object' || fields === null) return undefined;
    const result: Record<string, string[]> = {};
    for (const [name, messages] of Object.entries(fields)) {
      if (Array.isArray(messages)) result[name] = messages.filter((item): item is string => typeof item === 'string');
    }
    return result;
  }

  /** Seconds until a rate-limited action may be retried: the body's remaining_seconds, else Retry-After. */
  get remainingSeconds(): number | undefined {
    const seconds = this.body?.remaining_seconds;
    if (typeof seconds === 'number' && Number.isFinite(seconds)) return seconds;
    return this.status === 429 ? retryAfterSeconds(null, this.retryAfter) : undefined;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * `error` as an ApiError of this copy of the module when another copy built it: the early script
 * (app/early-script.ts) bundles its own client, and the app takes the answers it started. The screens
 * then read the error as any other (`isApiError`, its status, code and body). Anything else is returned
 * unchanged.
 */
export function adoptApiError(error: unknown): unknown {
  if (isApiError(error) || !(error instanceof Error) || error.name !== 'ApiError') return error;
  const foreign = error as Error & {
    status: number | null;
    code: ErrorCode | ClientErrorCode;
    body: ApiErrorBody | null;
    retryAfter?: string | null;
  };
  return new ApiError({
    message: foreign.message,
    status: foreign.status,
    code: foreign.code,
    body: foreign.body,
    cause: foreign.cause,
    retryAfter: foreign.retryAfter,
  });
}

/** The text to show for any thrown value. */
export function getErrorMessage(error: unknown): string {
  return isApiError(error) ? error.message : CLIENT_ERROR_MESSAGES.UNKNOWN_ERROR;
}

/**
 * Builds the ApiError of an HTTP error response. A 429 (any route: the per-user
 * quotas cover every signed-in call) says the spec's text and, when the answer named it, the wait.
 */
export function createHttpError(status: number, body: ApiErrorBody | null, retryAfter: string | null = null): ApiError {
  if (status === 429) {
    return new ApiError({
      status,
      body,
      retryAfter,
      code: readErrorCode(body?.code) ?? 'RATE_LIMITED',
      message: rateLimitedMessage(retryAfterSeconds(body, retryAfter)),
    });
  }
  const rule = STATUS_RULES[status];
  const serverMessage = readServerMessage(body);
  const serverCode = readErrorCode(body?.code);

  if (!rule) {
    return new ApiError({
      status,
      body,
      code: serverCode ?? 'HTTP_ERROR',
      message: serverMessage ?? `请求失败 (${status})`,
    });
  }
  return new ApiError({
    status,
    body,
    // A 401 always means the session is over (spec); otherwise the server's code is more precise.
    code: status === 401 ? rule.code : (serverCode ?? rule.code),
    message: (rule.prefersServerMessage ? serverMessage : undefined) ?? DEFAULT_ERROR_MESSAGES[rule.code],
  });
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export type RequestOptions = {
  /** Appended to the path; null, undefined and empty lists are left out, lists are comma-joined. */
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** Milliseconds before the request fails with TIMEOUT; default `REQUEST_TIMEOUTS.default`. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** 'file': the answer is a file to save (its text, media type and name), not JSON. */
  as?: 'json' | 'file';
};

/** A file the API answered (an export): its text, media type and the name it asks to be saved under. */
export type DownloadedFile = { text: string; contentType: string; fileName: string | null };

/** The file name of a `Content-Disposition: attachment; filename="..."` header; null without one. */
function attachmentFileName(header: string | null): string | null {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header ?? '')?.[1];
  if (encoded) return decodeURIComponent(encoded);
  return /filename="?([^";]+)"?/i.exec(header ?? '')?.[1] ?? null;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type ApiClientOptions = {
  /** Origin of the API; empty (the default) means the page's own origin. */
  baseUrl?: string;
  defaultTimeoutMs?: number;
  getToken?: () => string | null;
  /** Called on every 401, after the error is built. */
  onUnauthorized?: () => void;
  /** Receives one line per request: method, path (no query) and outcome. Never the token. */
  log?: (line: string) => void;
};

export function createApiClient(options: ApiClientOptions = {}) {
  const {
    baseUrl = '',
    defaultTimeoutMs = REQUEST_TIMEOUTS.default,
    getToken: readToken = getToken,
    onUnauthorized = expireSession,
    log = (line: string) => console.debug(line),
  } = options;

  async function request<T>(
    method: HttpMethod,
    path: string,
    body?: unknown,
    requestOptions: RequestOptions = {},
  ): Promise<T> {
    const { query, headers: extraHeaders, timeoutMs = defaultTimeoutMs, signal, as = 'json' } = requestOptions;
    const headers: Record<string, string> = { Accept: as === 'file' ? '*/*' : 'application/json', ...extraHeaders };
    // Only with a body: Fastify rejects `Content-Type: application/json` on an empty body.
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const token = readToken();
    if (token) headers.Authorization = `Bearer ${token}`;

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const abortFromCaller = () => controller.abort();
    if (signal?.aborted) controller.abort();
    signal?.addEventListener('abort', abortFromCaller, { once: true });

    const started = Date.now();
    const describe = (outcome: string | number) => `[api] ${method} ${path} ${outcome} (${Date.now() - started} ms)`;

    try {
      let response: Response;
      try {
        response = await fetch(`${baseUrl}${path}${toQueryString(query)}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: controller.signal,
          credentials: 'same-origin',
        });
      } catch (error) {
        throw toTransportError(error, timedOut);
      }

      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        throw toTransportError(error, timedOut);
      }
      log(describe(response.status));

      if (!response.ok) {
        const apiError = createHttpError(response.status, parseErrorBody(text), response.headers.get('retry-after'));
        if (response.status === 401) onUnauthorized();
        throw apiError;
      }
      if (as === 'file') {
        const file: DownloadedFile = {
          text,
          contentType: response.headers.get('content-type') ?? 'application/octet-stream',
          fileName: attachmentFileName(response.headers.get('content-disposition')),
        };
        return file as T;
      }
      if (text === '') return undefined as T;
      try {
        return JSON.parse(text) as T;
      } catch (error) {
        throw new ApiError({
          status: response.status,
          code: 'UNKNOWN_ERROR',
          message: CLIENT_ERROR_MESSAGES.UNKNOWN_ERROR,
          cause: error,
        });
      }
    } catch (error) {
      if (isApiError(error) && error.status === null) log(describe(error.code));
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abortFromCaller);
    }
  }

  return {
    request,
    get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
    post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body, options),
    put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body, options),
    patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, body, options),
    delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
    /** GET of a file (an export), with the reader's token like every call. */
    download: (path: string, options?: Omit<RequestOptions, 'as'>) =>
      request<DownloadedFile>('GET', path, undefined, { ...options, as: 'file' }),
  };
}

/** The app's client: same origin, token from localStorage, a 401 ends the session. */
export const api = createApiClient();

function toTransportError(error: unknown, timedOut: boolean): ApiError {
  if (timedOut)
    return new ApiError({ status: null, code: 'TIMEOUT', message: CLIENT_ERROR_MESSAGES.TIMEOUT, cause: error });
  if (error instanceof DOMException && error.name === 'AbortError') {
    return new ApiError({ status: null, code: 'ABORTED', message: CLIENT_ERROR_MESSAGES.ABORTED, cause: error });
  }
  // fetch rejects with a TypeError when the connection fails (refused, DNS, offline, CORS).
  if (error instanceof TypeError) {
    return new ApiError({
      status: null,
      code: 'NETWORK_ERROR',
      message: CLIENT_ERROR_MESSAGES.NETWORK_ERROR,
      cause: error,
    });
  }
  return new ApiError({
    status: null,
    code: 'UNKNOWN_ERROR',
    message: CLIENT_ERROR_MESSAGES.UNKNOWN_ERROR,
    cause: error,
  });
}

export function toQueryString(query: RequestOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(key, value.join(','));
      continue;
    }
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `?${search}` : '';
}

function parseErrorBody(text: string): ApiErrorBody | null {
  if (text === '') return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as ApiErrorBody) : null;
  } catch {
    // Proxies answer 502/504 with HTML; the status alone decides the message.
    return null;
  }
}

function readServerMessage(body: ApiErrorBody | null): string | undefined {
  return readNonEmptyString(body?.message) ?? readNonEmptyString(body?.error);
}

function readNonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function readErrorCode(value: unknown): ErrorCode | undefined {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value)
    ? (value as ErrorCode)
    : undefined;
}
