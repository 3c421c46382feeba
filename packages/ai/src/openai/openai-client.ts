import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { AiProviderError } from '../ai-errors';

/**
 * The one place that talks to OpenAI-compatible HTTP endpoints (OpenAI, DeepSeek, Qwen, vLLM, Ollama,
 * llama.cpp ...). Retries are the `openai` SDK's own (`maxRetries`): it retries 408, 409, 429, 5xx,
 * time-outs and dropped connections, with exponential backoff from 0.5 s (capped at 8 s, with jitter)
 * or the wait the server names in `Retry-After` / `retry-after-ms`; any other 4xx fails at once.
 * What we add: a ceiling on the server-named wait, callers' aborts that also cut a wait short, and
 * the mapping of every failure onto AiProviderError.
 */

export interface OpenAiEndpointOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Per HTTP request (each attempt). */
  timeoutMs: number;
  /** Retries after the first request (LLM_MAX_RETRIES); the SDK's default, 2, when unset. */
  maxRetries?: number;
}

const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * The SDK waits as long as `Retry-After` says, however long. A server asking for more than this is
 * not retried within the call: the failure is transient, so the job queue retries later, without a
 * worker slot (or a user's synchronous request) waiting on it.
 */
const MAX_RETRY_AFTER_MS = 60_000;

/** The wait a 429/5xx answer asks for, in ms (`retry-after-ms`, or `Retry-After` in seconds or as a date). */
function requestedWaitMs(headers: Headers): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms)) return ms;
  const retryAfter = headers.get('retry-after');
  if (!retryAfter) return undefined;
  const seconds = Number.parseFloat(retryAfter);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(retryAfter);
  return Number.isFinite(date) ? date - Date.now() : undefined;
}

/** `fetch` for the SDK: an answer asking for a longer wait than MAX_RETRY_AFTER_MS says "do not retry". */
const fetchCappingRetryAfter: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.ok) return response;
  const waitMs = requestedWaitMs(response.headers);
  if (waitMs === undefined || waitMs <= MAX_RETRY_AFTER_MS) return response;
  const headers = new Headers(response.headers);
  // The SDK obeys this header before its own rules (see shouldRetry in openai/client.js).
  headers.set('x-should-retry', 'false');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
};

export function createOpenAiClient(options: OpenAiEndpointOptions): OpenAI {
  return new OpenAI({
    // Always explicit: the SDK would otherwise read OPENAI_* from process.env behind config's back.
    baseURL: options.baseUrl ?? DEFAULT_OPENAI_BASE_URL,
    // Local servers need no key, but the SDK refuses to start without one.
    apiKey: options.apiKey || 'no-key',
    organization: null,
    project: null,
    logLevel: 'warn',
    timeout: options.timeoutMs,
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    fetch: fetchCappingRetryAfter,
  });
}

/** Status codes the SDK retries (and that are worth a later job retry once its retries are spent). */
const isTransientStatus = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/** Maps what the SDK throws (after its retries) onto our kinds. */
function toAiProviderError(error: unknown, what: string, signal?: AbortSignal): AiProviderError {
  if (error instanceof AiProviderError) return error;
  if (error instanceof APIUserAbortError || signal?.aborted) return new AiProviderError('aborted', `${what}: aborted`);
  if (error instanceof APIConnectionTimeoutError) {
    return new AiProviderError('timeout', `${what}: no answer before the time-out`);
  }
  if (error instanceof APIConnectionError) {
    const cause = (error.cause as Error | undefined)?.message;
    return new AiProviderError('unavailable', `${what}: connection failed${cause ? ` (${cause})` : ''}`);
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const detail = `${what}: HTTP ${error.status} ${error.message}`;
    return new AiProviderError(isTransientStatus(error.status) ? 'unavailable' : 'rejected', detail, error.status);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AiProviderError('unavailable', `${what}: ${message}`);
}

/**
 * Runs one SDK call (its retries included) and throws AiProviderError. The SDK checks the caller's
 * signal only around requests, not while it waits to retry; racing the signal ends the call at once
 * (the SDK's pending retry then stops at its next check).
 */
export async function callOpenAi<T>(what: string, call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const request = call();
  try {
    if (!signal) return await request;
    if (signal.aborted) throw signal.reason;
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([request, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  } catch (error) {
    // The SDK's promise still settles after an abort; nobody awaits it any more.
    request.catch(() => {});
    throw toAiProviderError(error, what, signal);
  }
}
