import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Small HttpOnly cookies the server writes and reads back, signed so a client can neither forge nor
 * alter one: `<value>.<HMAC-SHA256(purpose, value)>`, keyed by HKDF from the server secret. Each
 * purpose (the cookie's name) has its own MAC input, so a value signed for one cannot pass as another.
 */
export class SignedCookies {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, 'radar', 'signed cookies', 32));
  }

  /** The value of cookie `name` when it carries a valid signature; undefined otherwise. */
  read(request: FastifyRequest, name: string): string | undefined {
    const raw = cookieValue(request.headers.cookie, name);
    if (!raw) return undefined;
    const dot = raw.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const value = raw.slice(0, dot);
    const given = Buffer.from(raw.slice(dot + 1), 'base64url');
    const expected = this.mac(name, value);
    return given.length === expected.length && timingSafeEqual(given, expected) ? value : undefined;
  }

  /**
   * Sets cookie `name` (HttpOnly, SameSite=Strict, Secure over HTTPS) for `path`. `value` must be
   * cookie-safe (letters, digits, `-_.~:`): the callers write ids, fingerprints and numbers.
   */
  write(request: FastifyRequest, reply: FastifyReply, name: string, value: string, options: CookieOptions): void {
    const signed = `${value}.${this.mac(name, value).toString('base64url')}`;
    reply.header('set-cookie', serialize(request, name, signed, options.path, options.maxAgeSeconds));
  }

  clear(request: FastifyRequest, reply: FastifyReply, name: string, path: string): void {
    reply.header('set-cookie', serialize(request, name, '', path, 0));
  }

  private mac(name: string, value: string): Buffer {
    return createHmac('sha256', this.key).update(`${name}\n${value}`).digest();
  }
}

export interface CookieOptions {
  path: string;
  maxAgeSeconds: number;
}

function serialize(request: FastifyRequest, name: string, value: string, path: string, maxAge: number): string {
  // Secure only when the browser reached us over HTTPS (request.protocol follows TRUST_PROXY): a
  // campus install on plain HTTP would otherwise never get its cookies back.
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${name}=${value}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure}`;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
