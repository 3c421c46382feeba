import { randomUUID } from 'node:crypto';
import jwt from '@fastify/jwt';
import type { UserRow } from '@radar/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../errors';
import type { CachedAccount, UserCache } from './user-cache';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a login token carries: the user id, the user's token version at issue time (bumped by a
 * password reset), the session id (a row of radar.sessions) and the expiry, which is required.
 */
export interface TokenClaims {
  sub: string;
  ver: number;
  sid: string;
  exp: number;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: Omit<TokenClaims, 'exp'>;
    user: TokenClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook of guarded routes (before the body is read and validated): verifies the bearer token and loads the user. */
    authenticate(request: FastifyRequest): Promise<void>;
    /**
     * Starts a session for the user (login, verify-email) and returns its bearer token. `userAgent` is
     * the signing-in request's, shown as the device on /my.
     */
    signIn(user: UserRow, userAgent?: string): Promise<string>;
  }
  interface FastifyRequest {
    currentUser: UserRow | undefined;
    /** The session of the bearer token (its `sid`), on guarded routes. */
    currentSessionId: string | undefined;
  }
}

/** Where sessions are recorded (features/accounts/session.service.ts). */
export interface SessionRecorder {
  start(session: { id: string; userId: string; userAgent: string; expiresAt: Date }): Promise<void>;
  /** The session made a request; records it at most once per interval, whatever `lastSeenAt` was. */
  seen(sessionId: string, lastSeenAt: Date): Promise<void>;
}

export interface AuthPluginOptions {
  secret: string;
  /** Token lifetime (JWT_EXPIRES_IN, parsed by parseDuration). */
  expiresInMs: number;
  /** The signed-in user's row and sessions, cached while every process's changes to them are heard (user-cache.ts). */
  users: UserCache<CachedAccount>;
  sessions: SessionRecorder;
}

/** Methods that never change the signed-in user's row. */
const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Bearer-token authentication. Only HS256 is accepted (no `none`, no algorithm switching); `exp` is
 * required and checked; the token's session must exist, be the user's and not be revoked (logout, "log
 * out other devices", password change or reset); and a token whose version is older than the user's
 * (bumped by a password reset) is refused. Tokens from before sessions (no `sid`) are refused: one
 * more login.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app: FastifyInstance, options) => {
    await app.register(jwt, {
      secret: options.secret,
      // @fastify/jwt reads a number as seconds.
      sign: { algorithm: 'HS256', expiresIn: options.expiresInMs / 1000 },
      verify: { algorithms: ['HS256'], requiredClaims: ['exp', 'sid'] },
    });
    app.decorateRequest('currentUser', undefined);
    app.decorateRequest('currentSessionId', undefined);

    app.decorate('signIn', async (user: UserRow, userAgent = '') => {
      const sid = randomUUID();
      const token = app.jwt.sign({ sub: user.id, ver: user.tokenVersion, sid });
      const { exp } = app.jwt.decode<TokenClaims>(token) ?? {};
      if (typeof exp !== 'number') throw new Error('signed token has no exp');
      // Recorded before the token is handed out, so its first request finds the session.
      await options.sessions.start({ id: sid, userId: user.id, userAgent, expiresAt: new Date(exp * 1000) });
      return token;
    });

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      if (!header?.startsWith('Bearer ') || header.length <= 'Bearer '.length) throw errors.authRequired();
      let claims: TokenClaims;
      try {
        claims = await request.jwtVerify<TokenClaims>();
      } catch (error) {
        const code = (error as { code?: string }).code;
        throw code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED' ? errors.authExpired() : errors.authInvalid();
      }
      if (
        typeof claims.sub !== 'string' ||
        !UUID.test(claims.sub) ||
        typeof claims.ver !== 'number' ||
        typeof claims.sid !== 'string' ||
        !UUID.test(claims.sid) ||
        typeof claims.exp !== 'number'
      ) {
        throw errors.authInvalid();
      }
      const sid = claims.sid.toLowerCase();
      // Lookup errors propagate (500): a database outage must not look like a bad token and log users out.
      let account = await options.users.get(claims.sub);
      // Token versions only grow, and a session unknown to the cached entry may have been started by
      // another process since it was read: either means the entry is out of date, never that the
      // token is revoked (a revoked session stays in the entry until its token expires).
      if (account && (account.user.tokenVersion < claims.ver || !account.sessions.has(sid))) {
        account = await options.users.refresh(claims.sub);
      }
      const session = account?.sessions.get(sid);
      if (!account || account.user.tokenVersion !== claims.ver || !session || session.revokedAt) {
        throw errors.authInvalid();
      }
      // Read through the cache, which hears every write to the row: a disable takes effect at once.
      if (account.user.disabledAt) throw errors.accountDisabled(401);
      await options.sessions.seen(sid, session.lastSeenAt);
      request.currentUser = account.user;
      request.currentSessionId = sid;
    });

    // A request that may have changed its user's row drops the cached copy before it answers, so this
    // process's next request reads the new row; other processes hear of it through the trigger
    // (`changed` waits until that notification has gone out to them).
    app.addHook('onSend', async (request, _reply, payload) => {
      if (request.currentUser && !READ_ONLY_METHODS.has(request.method))
        await options.users.changed(request.currentUser.id);
      return payload;
    });
  },
  { name: 'auth' },
);

/** The authenticated user of a guarded route. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.currentUser) throw errors.authRequired();
  return request.currentUser;
}

/** The session of a guarded route's bearer token. */
export function requireSessionId(request: FastifyRequest): string {
  if (!request.currentSessionId) throw errors.authRequired();
  return request.currentSessionId;
}
