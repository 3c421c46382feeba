import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, isApiError } from './api-client';
import { createEarlyAnswers } from './early-answers';
import { onSessionExpired, SESSION_STORAGE_KEYS } from './session';

/** A real HTTP server on 127.0.0.1: /user answers 200 with a count of its requests, /expired 401. */
let server: Server;
let baseUrl: string;
let userRequests = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url?.startsWith('/expired')) {
      response.writeHead(401, { 'Content-Type': 'application/json' });
      response.end('{"code":"AUTH_EXPIRED"}');
      return;
    }
    userRequests += 1;
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ request: userRequests, url: request.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const storage = new Map<string, string>();
beforeEach(() => {
  userRequests = 0;
  storage.clear();
  storage.set(SESSION_STORAGE_KEYS.token, 'token-a');
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => storage.set(key, value),
    removeItem: (key: string) => storage.delete(key),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const early = () => createEarlyAnswers(createApiClient({ baseUrl, onUnauthorized: () => {}, log: () => {} }));

describe('early answers', () => {
  it('gives the answer once, to the same path and query only', async () => {
    const answers = early();
    void answers.start('/user', { query: { page: 1, date_filter: ['一周内'] } });
    expect(answers.take('/user', { page: 2 })).toBeNull();
    await expect(answers.take('/user', { page: 1, date_filter: ['一周内'] })).resolves.toMatchObject({ request: 1 });
    expect(answers.take('/user', { page: 1, date_filter: ['一周内'] })).toBeNull();
    expect(userRequests).toBe(1);
  });

  it('sends one request for the same request started twice', async () => {
    const answers = early();
    void answers.start('/user');
    void answers.start('/user');
    await answers.take('/user');
    expect(userRequests).toBe(1);
  });

  it('gives nothing when the token changed since the request was sent', async () => {
    const answers = early();
    void answers.start('/user');
    storage.set(SESSION_STORAGE_KEYS.token, 'token-b');
    expect(answers.take('/user')).toBeNull();
  });

  it('ends the session on a 401 only when the answer is taken', async () => {
    const answers = early();
    const expired = vi.fn();
    const unsubscribe = onSessionExpired(expired);
    try {
      await answers.start('/expired').catch(() => {});
      expect(expired).not.toHaveBeenCalled();
      expect(storage.get(SESSION_STORAGE_KEYS.token)).toBe('token-a');
      await expect(answers.take('/expired')).rejects.toMatchObject({ status: 401 });
      expect(expired).toHaveBeenCalledOnce();
      expect(storage.has(SESSION_STORAGE_KEYS.token)).toBe(false);
    } finally {
      unsubscribe();
    }
  });

  it("takes what the early script's own copy of the client started, its errors as this copy's", async () => {
    // Another instance of the module, as the early script bundles one (app/early-script.ts).
    vi.resetModules();
    const copy = await import('./api-client');
    expect(copy.createApiClient).not.toBe(createApiClient);
    const started = new Map();
    const script = createEarlyAnswers(
      copy.createApiClient({ baseUrl, onUnauthorized: () => {}, log: () => {} }),
      started,
    );
    const app = createEarlyAnswers(createApiClient({ baseUrl, onUnauthorized: () => {}, log: () => {} }), started);
    void script.start('/user');
    void script.start('/expired').catch(() => {});
    void app.start('/user');
    await expect(app.take('/user')).resolves.toMatchObject({ request: 1 });
    expect(userRequests).toBe(1);

    const expired = vi.fn();
    const unsubscribe = onSessionExpired(expired);
    try {
      const error = await app.take('/expired')?.catch((failure: unknown) => failure);
      expect(isApiError(error)).toBe(true);
      expect(error).toMatchObject({ status: 401, code: 'AUTH_EXPIRED' });
      expect(expired).toHaveBeenCalledOnce();
    } finally {
      unsubscribe();
    }
  });
});
