import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/server';

describe('loadConfig', () => {
  it('gives embedded defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      runWorker: true,
      jwtExpiresInMs: 7 * 24 * 3_600_000,
      webBaseUrl: 'http://localhost:3000',
    });
  });

  it('serves the unauthenticated metrics listener on loopback unless METRICS_HOST says otherwise', () => {
    expect(loadConfig({}).metricsHost).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).metricsHost).toBe('127.0.0.1');
    expect(loadConfig({ METRICS_HOST: '0.0.0.0' }).metricsHost).toBe('0.0.0.0');
  });

  it('trusts no proxy unless told, and reads hops or addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    // `true` is one hop, never "believe every entry": the first entry is whatever the client wrote.
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).warnings).toEqual([
      expect.stringMatching(/TRUST_PROXY=true .*one proxy hop/),
    ]);
    expect(loadConfig({ TRUST_PROXY: '1' }).warnings).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1,10.0.0.2' }).trustProxy).toBe('10.0.0.1,10.0.0.2');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY must be/);
  });

  it('treats empty values as unset, as docker compose passes them', () => {
    expect(loadConfig({ DATABASE_URL: '', REDIS_URL: ' ', PORT: '' })).toMatchObject({
      databaseUrl: undefined,
      redisUrl: undefined,
      port: 3000,
    });
  });

  it('takes an optional OPERATOR_TOKEN of at least 16 characters, never echoing a short one', () => {
    expect(loadConfig({}).operatorToken).toBeUndefined();
    expect(loadConfig({ OPERATOR_TOKEN: '' }).operatorToken).toBeUndefined();
    expect(loadConfig({ OPERATOR_TOKEN: 'a'.repeat(16) }).operatorToken).toBe('a'.repeat(16));
    expect(() => loadConfig({ OPERATOR_TOKEN: 'short-secret' })).toThrow(/OPERATOR_TOKEN must be at least 16/);
    expect(() => loadConfig({ OPERATOR_TOKEN: 'short-secret' })).not.toThrow(/short-secret/);
  });

  it('names every bad variable in one line, without echoing URLs or secrets', () => {
    let message = '';
    try {
      loadConfig({ PORT: '70000', RUN_WORKER: 'maybe', DATABASE_URL: 'mysql://user:hunter2@db/x' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain('PORT must be at most 65535 (got "70000")');
    expect(message).toContain('RUN_WORKER must be true or false');
    expect(message).toContain('DATABASE_URL must be a URL like');
    expect(message).not.toContain('hunter2');
  });

  it('derives the mail-link address from HOST and PORT when WEB_BASE_URL is unset', () => {
    expect(loadConfig({})).toMatchObject({ webBaseUrl: 'http://localhost:3000', webBaseUrlFollowsPort: true });
    expect(loadConfig({ PORT: '8080' }).webBaseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '8080', HOST: '192.168.1.20' }).webBaseUrl).toBe('http://192.168.1.20:8080');
    expect(loadConfig({ PORT: '8080', HOST: '::' }).webBaseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '8080', HOST: '::1' }).webBaseUrl).toBe('http://[::1]:8080');
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '8080', WEB_BASE_URL: 'https://radar.example.edu/' })).toMatchObject({
      webBaseUrl: 'https://radar.example.edu',
      webBaseUrlFollowsPort: false,
    });
  });

  it('takes an optional SUPPORT_EMAIL, one address', () => {
    expect(loadConfig({}).supportEmail).toBeUndefined();
    expect(loadConfig({ SUPPORT_EMAIL: ' ' }).supportEmail).toBeUndefined();
    expect(loadConfig({ SUPPORT_EMAIL: ' help@lab.example.edu ' }).supportEmail).toBe('help@lab.example.edu');
    for (const bad of ['help', 'help@lab', 'a@example.org, b@example.org']) {
      expect(() => loadConfig({ SUPPORT_EMAIL: bad }), bad).toThrow(/SUPPORT_EMAIL must be one e-mail address/);
    }
  });

  it("takes the readers' time zone from TIME_ZONE: Asia/Shanghai unless set, an IANA zone if set", () => {
    expect(loadConfig({}).timeZone).toBe('Asia/Shanghai');
    expect(loadConfig({ TIME_ZONE: '' }).timeZone).toBe('Asia/Shanghai');
    expect(loadConfig({ TIME_ZONE: 'Europe/Berlin' }).timeZone).toBe('Europe/Berlin');
    expect(loadConfig({ TIME_ZONE: 'asia/shanghai' }).timeZone).toBe('Asia/Shanghai');
    expect(() => loadConfig({ TIME_ZONE: 'Beijing' })).toThrow(
      'TIME_ZONE must be an IANA time zone like Asia/Shanghai, Europe/Berlin or UTC (got "Beijing")',
    );
  });
});
