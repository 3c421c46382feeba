import jwt from '@fastify/jwt';
import type { UserRepository, UserRow } from '@radar/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../errors';

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
  users: UserRepository;
}

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
      const user = await options.users.findById(claims.sub);
      if (!user || user.tokenVersion !== claims.ver) throw errors.authInvalid();
      request.currentUser = user;
    });
  },
  { name: 'auth' },
);

/** The authenticated user of a guarded route. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.currentUser) throw errors.authRequired();
  return request.currentUser;
}
