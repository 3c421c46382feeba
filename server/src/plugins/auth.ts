import jwt from '@fastify/jwt';
import type { UserRow } from '@radar/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../errors';
import type { UserCache } from './user-cache';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a login token carries: the user id and the user's token version at issue time. */
export interface TokenClaims {
  sub: string;
  ver: number;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: TokenClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook of guarded routes (before the body is read and validated): verifies the bearer token and loads the user. */
    authenticate(request: FastifyRequest): Promise<void>;
    /** A bearer token for the user (login, verify-email): their id and current token version. */
    signToken(user: UserRow): string;
  }
  interface FastifyRequest {
    currentUser: UserRow | undefined;
  }
}

export interface AuthPluginOptions {
  secret: string;
  expiresIn: string;
  /** The signed-in user's row, cached while every process's changes to it are heard (user-cache.ts). */
  users: UserCache;
}

/** Methods that never change the signed-in user's row. */
const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Bearer-token authentication. Only HS256 is accepted (no `none`, no algorithm switching), `exp` is
 * checked, and a token whose version is older than the user's (bumped by a password reset) is refused.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app: FastifyInstance, options) => {
    await app.register(jwt, {
      secret: options.secret,
      sign: { algorithm: 'HS256', expiresIn: options.expiresIn },
      verify: { algorithms: ['HS256'] },
    });
    app.decorateRequest('currentUser', undefined);
    app.decorate('signToken', (user: UserRow) => app.jwt.sign({ sub: user.id, ver: user.tokenVersion }));

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
      if (typeof claims.sub !== 'string' || !UUID.test(claims.sub) || typeof claims.ver !== 'number') {
        throw errors.authInvalid();
      }
      // Lookup errors propagate (500): a database outage must not look like a bad token and log users out.
      let user = await options.users.get(claims.sub);
      // Token versions only grow: a token newer than the cached row means the row is out of date
      // (a reset elsewhere whose notice has not arrived yet), never that the token is revoked.
      if (user && user.tokenVersion < claims.ver) user = await options.users.refresh(claims.sub);
      if (!user || user.tokenVersion !== claims.ver) throw errors.authInvalid();
      // Read through the cache, which hears every write to the row: a disable takes effect at once.
      if (user.disabledAt) throw errors.accountDisabled(401);
      request.currentUser = user;
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
