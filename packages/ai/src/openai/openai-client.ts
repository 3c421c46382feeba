import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { AiProviderError } from '../ai-errors';

/**
 * The one place that talks to OpenAI-compatible HTTP endpoints (OpenAI, DeepSeek, Qwen, vLLM, Ollama,
 * llama.cpp ...). The SDK's own retries are off: we retry 429 and 5xx (and dropped connections) with
 * exponential backoff, honouring Retry-After, and never retry other 4xx, which a retry cannot fix.
 */

export interface OpenAiEndpointOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Per HTTP request. */
  timeoutMs: number;
  /** Retries after the first request for 429/5xx/connection errors. */
  maxRetries?: number;
  /** First backoff delay; doubled per retry, with jitter, capped at 20 s. */
  retryBaseDelayMs?: number;
}

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
const MAX_BACKOFF_MS = 20_000;
const MAX_RETRY_AFTER_MS = 60_000;

export function createOpenAiClient(options: OpenAiEndpointOptions): OpenAI {
  return new OpenAI({
    // Always explicit: the SDK would otherwise read OPENAI_* from process.env behind config's back.
    baseURL: options.baseUrl ?? DEFAULT_OPENAI_BASE_URL,
    // Local servers need no key, but the SDK refuses to start without one.
    apiKey: options.apiKey || 'no-key',
    timeout: options.timeoutMs,
    maxRetries: 0,
  });
}

function retryAfterMs(error: APIError): number | undefined {
  const headers = error.headers;
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, MAX_RETRY_AFTER_MS);
  const seconds = Number.parseFloat(headers.get('retry-after') ?? '');
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  return undefined;
}

/** Maps SDK errors onto our kinds; `retryable` means worth retrying within this call. */
export function classifyOpenAiError(
  error: unknown,
  what: string,
  signal?: AbortSignal,
): { failure: AiProviderError; retryable: boolean; waitMs?: number } {
  if (error instanceof AiProviderError) return { failure: error, retryable: false };
  if (error instanceof APIUserAbortError || signal?.aborted) {
    return { failure: new AiProviderError('aborted', `${what}: aborted`), retryable: false };
  }
  if (error instanceof APIConnectionTimeoutError) {
    return { failure: new AiProviderError('timeout', `${what}: no answer before the time-out`), retryable: false };
  }
  if (error instanceof APIConnectionError) {
    const cause = (error.cause as Error | undefined)?.message;
    return {
      failure: new AiProviderError('unavailable', `${what}: connection failed${cause ? ` (${cause})` : ''}`),
      retryable: true,
    };
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const detail = `${what}: HTTP ${status} ${error.message}`;
    if (status === 429 || status >= 500) {
      const waitMs = retryAfterMs(error);
      return {
        failure: new AiProviderError('unavailable', detail, status),
        retryable: true,
        ...(waitMs === undefined ? {} : { waitMs }),
      };
    }
    return { failure: new AiProviderError('rejected', detail, status), retryable: false };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { failure: new AiProviderError('unavailable', `${what}: ${message}`), retryable: false };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Runs one API call with our retry policy; throws AiProviderError. */
export async function callWithRetries<T>(
  what: string,
  options: Pick<OpenAiEndpointOptions, 'maxRetries' | 'retryBaseDelayMs'>,
  call: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const maxRetries = options.maxRetries ?? 2;
  const baseDelay = options.retryBaseDelayMs ?? 1_000;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const { failure, retryable, waitMs } = classifyOpenAiError(error, what, signal);
      if (!retryable || attempt >= maxRetries) throw failure;
      const backoff = Math.min(baseDelay * 2 ** attempt, MAX_BACKOFF_MS) * (0.8 + Math.random() * 0.4);
      try {
        await sleep(waitMs ?? backoff, signal);
      } catch {
        throw new AiProviderError('aborted', `${what}: aborted while waiting to retry`);
      }
    }
  }
}
