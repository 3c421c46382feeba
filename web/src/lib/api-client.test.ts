import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, getErrorMessage } from './api-client';
import { onSessionExpired, SESSION_STORAGE_KEYS } from './session';

/**
 * Runs the real client (real fetch) against a real HTTP server on 127.0.0.1. Routes:
 *   /status/:code?body=json|html|empty|error-field|fields  answers with that status and body
 *   /echo                                                  answers 200 with what the request carried
 *   /slow                                                  never answers
 *   /broken-json                                           answers 200 with invalid JSON
 */
let server: Server;
let baseUrl: string;

const TOKEN = 'secret-token-abc123';

function handle(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const sendJson = (status: number, payload: unknown) => {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(payload));
  };

  if (url.pathname === '/echo') {
    let raw = '';
    request.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    request.on('end', () => {
      sendJson(200, {
        method: request.method,
        authorization: request.headers.authorization ?? null,
        contentType: request.headers['content-type'] ?? null,
        query: Object.fromEntries(url.searchParams),
        body: raw === '' ? null : JSON.parse(raw),
      });
    });
    return;
  }
  if (url.pathname === '/slow') return; // never answers
  if (url.pathname === '/broken-json') {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end('{not json');
    return;
  }

  const statusMatch = /^\/status\/(\d{3})$/.exec(url.pathname);
  if (statusMatch) {
    const status = Number(statusMatch[1]);
    switch (url.searchParams.get('body')) {
      case 'json':
        return sendJson(status, { code: 'CONFLICT', message: `服务器消息 ${status}` });
      case 'error-field':
        return sendJson(status, { error: `旧版错误 ${status}` });
      case 'fields':
        return sendJson(status, {
          code: 'VALIDATION_ERROR',
          message: '密码不符合要求',
          fields: { password: ['密码长度至少为8位'] },
          remaining_seconds: 42,
        });
      case 'retry-after':
        // A proxy's or another service's 429: no body of ours, only the header.
        response.writeHead(status, { 'Retry-After': url.searchParams.get('seconds') ?? '' });
        response.end();
        return;
      case 'html':
        response.writeHead(status, { 'Content-Type': 'text/html' });
        response.end('<html><body>Bad Gateway</body></html>');
        return;
      default:
        response.writeHead(status);
        response.end();
        return;
    }
  }
  sendJson(404, { code: 'NOT_FOUND', message: 'no route' });
}

function createMemoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => {
      items.delete(key);
    },
    setItem: (key, value) => {
      items.set(key, String(value));
    },
  };
}

async function captureError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let logLines: string[];
let storage: Storage;

beforeEach(() => {
  logLines = [];
  storage = createMemoryStorage();
  vi.stubGlobal('localStorage', storage);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const client = () => createApiClient({ baseUrl, log: (line) => logLines.push(line) });

describe('status to message mapping', () => {
  it.each([
    [400, '请求参数错误', 'BAD_REQUEST'],
    [401, '登录已过期，请重新登录', 'AUTH_EXPIRED'],
    [403, '没有权限执行此操作', 'FORBIDDEN'],
    [404, '请求的资源不存在', 'NOT_FOUND'],
    [409, '数据冲突，请检查输入', 'CONFLICT'],
    [422, '数据验证失败', 'VALIDATION_ERROR'],
    [429, '请求过于频繁，请稍后再试', 'RATE_LIMITED'],
    [500, '服务器内部错误，请稍后重试', 'INTERNAL_ERROR'],
    [502, '服务暂时不可用，请稍后重试', 'SERVICE_UNAVAILABLE'],
    [503, '服务暂时不可用，请稍后重试', 'SERVICE_UNAVAILABLE'],
    [504, '服务暂时不可用，请稍后重试', 'SERVICE_UNAVAILABLE'],
    [418, '请求失败 (418)', 'HTTP_ERROR'],
  ])('%i without a body -> %s', async (status, message, code) => {
    const error = await captureError(client().get(`/status/${status}`));
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
    expect(error.code).toBe(code);
    expect(error.body).toBeNull();
  });

  it.each([400, 409, 422, 418])('%i shows the server message when there is one', async (status) => {
    const error = await captureError(client().get(`/status/${status}?body=json`));
    expect(error.message).toBe(`服务器消息 ${status}`);
  });

  it('400 falls back to the legacy `error` field', async () => {
    const error = await captureError(client().get('/status/400?body=error-field'));
    expect(error.message).toBe('旧版错误 400');
  });

  it.each([403, 404, 429, 500, 503])('%i keeps the fixed message even when the server sends one', async (status) => {
    const error = await captureError(client().get(`/status/${status}?body=json`));
    expect(error.message).not.toContain('服务器消息');
    expect(error.serverMessage).toBe(`服务器消息 ${status}`);
  });

  it('a 502 HTML page from a proxy still maps by status', async () => {
    const error = await captureError(client().get('/status/502?body=html'));
    expect(error.message).toBe('服务暂时不可用，请稍后重试');
    expect(error.body).toBeNull();
  });

  it('exposes the parsed body, fields and remaining_seconds', async () => {
    const error = await captureError(client().post('/status/429?body=fields', { email: 'a@b.c' }));
    expect(error.message).toBe('请求过于频繁，请稍后再试（42 秒后可重试）');
    expect(error.body).toMatchObject({ code: 'VALIDATION_ERROR', message: '密码不符合要求' });
    expect(error.fields).toEqual({ password: ['密码长度至少为8位'] });
    expect(error.remainingSeconds).toBe(42);
  });

  it('a 429 names the wait from the Retry-After header when the body has none', async () => {
    const seconds = await captureError(client().get('/status/429?body=retry-after&seconds=90'));
    expect(seconds.message).toBe('请求过于频繁，请稍后再试（2 分钟后可重试）');
    expect(seconds.code).toBe('RATE_LIMITED');
    expect(seconds.remainingSeconds).toBe(90);
    const short = await captureError(client().get('/status/429?body=retry-after&seconds=7'));
    expect(short.message).toBe('请求过于频繁，请稍后再试（7 秒后可重试）');
    const date = new Date(Date.now() + 3 * 3600_000).toUTCString();
    const later = await captureError(client().get(`/status/429?body=retry-after&seconds=${encodeURIComponent(date)}`));
    expect(later.message).toBe('请求过于频繁，请稍后再试（3 小时后可重试）');
  });

  it('prefers the server code over the status default, except on 401', async () => {
    const validation = await captureError(client().get('/status/400?body=fields'));
    expect(validation.code).toBe('VALIDATION_ERROR');
    const expired = await captureError(client().get('/status/401?body=json'));
    expect(expired.code).toBe('AUTH_EXPIRED');
    expect(expired.message).toBe('登录已过期，请重新登录');
  });
});

describe('failures without a response', () => {
  it('network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const error = await captureError(createApiClient({ baseUrl: `http://127.0.0.1:${port}`, log: () => {} }).get('/x'));
    expect(error.status).toBeNull();
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.message).toBe('网络连接失败，请检查网络设置');
  });

  it('time-out, per call', async () => {
    const started = Date.now();
    const error = await captureError(client().get('/slow', { timeoutMs: 100 }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toBe('请求超时，请稍后再试');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('time-out, client default', async () => {
    const error = await captureError(createApiClient({ baseUrl, defaultTimeoutMs: 100, log: () => {} }).get('/slow'));
    expect(error.code).toBe('TIMEOUT');
  });

  it('abort by the caller is not a time-out', async () => {
    const controller = new AbortController();
    const pending = client().get('/slow', { signal: controller.signal });
    controller.abort();
    const error = await captureError(pending);
    expect(error.code).toBe('ABORTED');
  });

  it('unparseable success body is an unknown error', async () => {
    const error = await captureError(client().get('/broken-json'));
    expect(error.code).toBe('UNKNOWN_ERROR');
    expect(error.message).toBe('未知错误，请稍后再试');
  });

  it('getErrorMessage covers non-ApiError values', () => {
    expect(getErrorMessage(new Error('boom'))).toBe('未知错误，请稍后再试');
    expect(getErrorMessage(new ApiError({ status: 404, code: 'NOT_FOUND', message: '请求的资源不存在' }))).toBe(
      '请求的资源不存在',
    );
  });
});

describe('requests', () => {
  it('sends JSON and the bearer token from localStorage', async () => {
    storage.setItem(SESSION_STORAGE_KEYS.token, TOKEN);
    const echo = await client().post<{ authorization: string; contentType: string; body: unknown; method: string }>(
      '/echo',
      { title: '反馈' },
    );
    expect(echo).toMatchObject({
      method: 'POST',
      authorization: `Bearer ${TOKEN}`,
      contentType: 'application/json',
      body: { title: '反馈' },
    });
  });

  it('sends no Authorization header without a token and no Content-Type without a body', async () => {
    const echo = await client().post<{ authorization: string | null; contentType: string | null }>('/echo');
    expect(echo.authorization).toBeNull();
    expect(echo.contentType).toBeNull();
  });

  it('builds the query: lists comma-joined, empty and null values left out', async () => {
    const echo = await client().get<{ query: Record<string, string> }>('/echo', {
      query: {
        top_k: 20,
        excluded_jcr: [4, 3],
        date_filter: [],
        similarity_threshold: 0.3,
        page: null,
        q: '图神经网络',
      },
    });
    expect(echo.query).toEqual({ top_k: '20', excluded_jcr: '4,3', similarity_threshold: '0.3', q: '图神经网络' });
  });

  it('logs method, path and status, never the token or the query', async () => {
    storage.setItem(SESSION_STORAGE_KEYS.token, TOKEN);
    await client().get('/echo', { query: { email: 'someone@example.org' } });
    await captureError(client().get('/status/404'));
    expect(logLines).toHaveLength(2);
    expect(logLines[0]).toMatch(/^\[api\] GET \/echo 200 \(\d+ ms\)$/);
    expect(logLines[1]).toMatch(/^\[api\] GET \/status\/404 404/);
    expect(logLines.join('\n')).not.toContain(TOKEN.slice(0, 6));
    expect(logLines.join('\n')).not.toContain('someone');
  });
});

describe('401 ends the session', () => {
  it('clears token and userEmail and notifies listeners', async () => {
    storage.setItem(SESSION_STORAGE_KEYS.token, TOKEN);
    storage.setItem(SESSION_STORAGE_KEYS.userEmail, 'someone@example.org');
    storage.setItem('recommendationParams', '{"topK":20}');
    const listener = vi.fn();
    const unsubscribe = onSessionExpired(listener);

    const error = await captureError(client().get('/status/401'));
    unsubscribe();

    expect(error.code).toBe('AUTH_EXPIRED');
    expect(storage.getItem(SESSION_STORAGE_KEYS.token)).toBeNull();
    expect(storage.getItem(SESSION_STORAGE_KEYS.userEmail)).toBeNull();
    expect(storage.getItem('recommendationParams')).toBe('{"topK":20}');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('other errors leave the session alone', async () => {
    storage.setItem(SESSION_STORAGE_KEYS.token, TOKEN);
    const listener = vi.fn();
    const unsubscribe = onSessionExpired(listener);
    await captureError(client().get('/status/403'));
    unsubscribe();
    expect(storage.getItem(SESSION_STORAGE_KEYS.token)).toBe(TOKEN);
    expect(listener).not.toHaveBeenCalled();
  });
});
