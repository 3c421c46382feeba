import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Tokens for links in mails that act without a login (unsubscribe). A token is `<user id>.<MAC>`: an
 * HMAC-SHA256 over the purpose and the user id, keyed with a key derived (HKDF) from the server secret,
 * so it cannot be forged, is bound to one user, and a token made for one purpose is refused for any
 * other. Tokens do not expire: an unsubscribe link must keep working in an old mail. Changing the
 * server secret (JWT_SECRET) invalidates every token.
 */

/** The purposes tokens are made for; a token only verifies for the purpose it was made for. */
export const MAIL_LINK_PURPOSES = {
  keywordAlertUnsubscribe: 'keyword-alert-unsubscribe',
  digestUnsubscribe: 'digest-unsubscribe',
} as const;
export type MailLinkPurpose = (typeof MAIL_LINK_PURPOSES)[keyof typeof MAIL_LINK_PURPOSES];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** base64url of a 32-byte MAC. */
const MAC = /^[A-Za-z0-9_-]{43}$/;

export class MailLinkTokens {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    if (!serverSecret) throw new Error('mail link tokens need the server secret');
    // Its own key: these MACs can never be mistaken for login tokens or verification-code hashes.
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, 'radar', 'mail link tokens', 32));
  }

  private mac(purpose: MailLinkPurpose, userId: string): Buffer {
    return createHmac('sha256', this.key).update(`${purpose}\n${userId}`).digest();
  }

  sign(purpose: MailLinkPurpose, userId: string): string {
    const id = userId.toLowerCase();
    if (!UUID.test(id)) throw new RangeError('mail link tokens are made for user ids (UUIDs)');
    return `${id}.${this.mac(purpose, id).toString('base64url')}`;
  }

  /** The user id the token was made for, or undefined for anything else (malformed, forged, other purpose). */
  verify(purpose: MailLinkPurpose, token: string): string | undefined {
    const dot = token.indexOf('.');
    const id = token.slice(0, dot);
    const mac = token.slice(dot + 1);
    if (dot < 0 || !UUID.test(id) || !MAC.test(mac)) return undefined;
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(purpose, id);
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
  }
}
