import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAIL_LINK_PURPOSES, MailLinkTokens } from '../src';

const purpose = MAIL_LINK_PURPOSES.keywordAlertUnsubscribe;

describe('mail link tokens', () => {
  const tokens = new MailLinkTokens('a server secret of at least thirty-two characters');
  const userId = randomUUID();

  it('verify for the user and purpose they were made for, without expiry', () => {
    const token = tokens.sign(purpose, userId);
    expect(token).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    expect(tokens.verify(purpose, token)).toBe(userId);
    // Another instance with the same secret (the worker signs, the server verifies).
    expect(new MailLinkTokens('a server secret of at least thirty-two characters').verify(purpose, token)).toBe(userId);
  });

  it('refuse another secret, another user, a changed MAC and malformed input', () => {
    const token = tokens.sign(purpose, userId);
    const [, mac] = token.split('.');
    const flipped = `${mac?.[0] === 'A' ? 'B' : 'A'}${mac?.slice(1)}`;
    for (const bad of [
      `${randomUUID()}.${mac}`,
      `${userId}.${flipped}`,
      `${userId}.${mac}x`,
      `${userId}${mac}`,
      userId,
      '',
      '.',
      `${userId.toUpperCase()}.${mac}`,
      `${userId}.${'A'.repeat(43)}`,
      '\u0000'.repeat(80),
    ]) {
      expect(tokens.verify(purpose, bad), bad).toBeUndefined();
    }
    expect(
      new MailLinkTokens('another secret of at least thirty-two characters!').verify(purpose, token),
    ).toBeUndefined();
  });

  it('are made for user ids only', () => {
    expect(() => tokens.sign(purpose, 'not-a-uuid')).toThrow(RangeError);
    expect(() => new MailLinkTokens('')).toThrow();
  });
});
