import { describe, expect, it } from 'vitest';
import { StoredSecrets } from '../src/stored-secrets';

/** Sealing a stored credential (AES-256-GCM, key from the server secret): what opens and what does not. */

const SERVER_SECRET = 'a server secret of at least thirty-two characters';
const URL = 'https://oapi.dingtalk.com/robot/send?access_token=0123456789abcdef';
const CONTEXT = 'delivery_settings.webhook_url:5b0f6c3e-2f7e-4a43-9d2e-7f1f0c9a1b2c';

describe('stored secrets', () => {
  const secrets = new StoredSecrets(SERVER_SECRET);

  it('seals to a value that does not contain the clear text, and opens it again', () => {
    const sealed = secrets.seal(URL, CONTEXT);
    expect(sealed).toMatch(/^enc:v1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('0123456789abcdef');
    expect(secrets.open(sealed, CONTEXT)).toBe(URL);
    // A fresh IV each time: equal addresses do not give equal stored values.
    expect(secrets.seal(URL, CONTEXT)).not.toBe(sealed);
    expect(secrets.open(secrets.seal('', CONTEXT), CONTEXT)).toBe('');
  });

  it('does not open under another server secret, in another row, or altered', () => {
    const sealed = secrets.seal(URL, CONTEXT);
    expect(new StoredSecrets('another server secret, thirty-two characters').open(sealed, CONTEXT)).toBeUndefined();
    expect(secrets.open(sealed, 'delivery_settings.webhook_url:another-reader')).toBeUndefined();
    const body = sealed.slice('enc:v1:'.length);
    const flipped = `${body.slice(0, -2)}${body.at(-2) === 'A' ? 'B' : 'A'}${body.at(-1)}`;
    expect(secrets.open(`enc:v1:${flipped}`, CONTEXT)).toBeUndefined();
    expect(secrets.open('enc:v1:short', CONTEXT)).toBeUndefined();
  });

  it('reads a value stored in clear before sealing began as it is', () => {
    expect(secrets.open(URL, CONTEXT)).toBe(URL);
    expect(secrets.open('SECsigning-secret', CONTEXT)).toBe('SECsigning-secret');
  });
});
