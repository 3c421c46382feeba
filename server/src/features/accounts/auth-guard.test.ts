import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { UserRepository, type UserRow } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

let runtime: TestRuntime;
let users: UserRepository;
let user: UserRow;

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** Builds a JWT by hand, to present tokens the server must refuse. */
function handMadeToken(header: object, payload: object, secret: string, algorithm: 'sha256' | 'sha512' = 'sha256') {
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  return `${unsigned}.${createHmac(algorithm, secret).update(unsigned).digest('base64url')}`;
}

/** Starts a session for the user (as a login does) and returns its id, the token's `sid`. */
async function sessionIdOf(owner: UserRow): Promise<string> {
  const token = await runtime.app.signIn(owner);
  return (runtime.app.jwt.decode(token) as { sid: string }).sid;
}

const getUser = (authorization?: string) =>
  runtime.app.inject({
    method: 'GET',
    url: '/api/auth/user/',
    headers: authorization ? { authorization } : {},
  });

beforeAll(async () => {
  // No in-process worker: nothing here runs a job, and its start is most of a runtime's boot.
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
  users = new UserRepository(runtime.database.db);
  user = await users.create({ email: 'Ada.Lovelace@Example.org', isEmailVerified: true });
});

afterAll(async () => {
  await runtime?.stop();
});

describe('GET /api/auth/user/', () => {
  it('answers 401 AUTH_REQUIRED without a token', async () => {
    const response = await getUser();
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'AUTH_REQUIRED', message: '请先登录' });
  });

  it('returns the user with a valid token, name falling back to the e-mail local part', async () => {
    const token = await runtime.app.signIn(user);
    const response = await getUser(`Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: user.id,
      email: 'Ada.Lovelace@Example.org',
      username: '',
      name: 'Ada.Lovelace',
      research_description: '',
      research_name: '',
      research_email: '',
      research_institution: '',
      research_position: '',
      research_fields: '',
      research_summary_en: '',
    });
  });

  it.each([
    ['garbage', 'Bearer not-a-jwt'],
    ['an empty bearer', 'Bearer '],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
  ])('refuses %s', async (_name, header) => {
    const response = await getUser(header);
    expect(response.statusCode).toBe(401);
    expect(['AUTH_REQUIRED', 'AUTH_INVALID']).toContain(response.json().code);
  });

  it('refuses a token signed with another secret, alg none, or another algorithm', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: user.id, ver: 0, sid: await sessionIdOf(user), iat: now, exp: now + 3600 };
    const forged = handMadeToken({ alg: 'HS256', typ: 'JWT' }, claims, randomBytes(48).toString('hex'));
    const none = `${base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}.`;
    const hs512 = handMadeToken({ alg: 'HS512', typ: 'JWT' }, claims, runtime.jwtSecret, 'sha512');
    for (const token of [forged, none, hs512]) {
      const response = await getUser(`Bearer ${token}`);
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('AUTH_INVALID');
    }
    // The same claims signed correctly are accepted: the refusals above are about the signature.
    const genuine = handMadeToken({ alg: 'HS256', typ: 'JWT' }, claims, runtime.jwtSecret);
    expect((await getUser(`Bearer ${genuine}`)).statusCode).toBe(200);
  });

  it('refuses a tampered payload', async () => {
    const other = await users.create({ email: 'other@example.org' });
    const token = await runtime.app.signIn(user);
    const [header, , signature] = token.split('.');
    const tampered = `${header}.${base64url(JSON.stringify({ sub: other.id, ver: 0 }))}.${signature}`;
    const response = await getUser(`Bearer ${tampered}`);
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('AUTH_INVALID');
  });

  it('answers AUTH_EXPIRED for an expired token', async () => {
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = handMadeToken(
      { alg: 'HS256', typ: 'JWT' },
      { sub: user.id, ver: 0, sid: await sessionIdOf(user), iat: past, exp: past + 60 },
      runtime.jwtSecret,
    );
    const response = await getUser(`Bearer ${expired}`);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'AUTH_EXPIRED', message: '登录已过期，请重新登录' });
  });

  it('refuses tokens issued before the token version changed, and tokens of deleted users', async () => {
    const member = await users.create({ email: 'reset@example.org' });
    const oldToken = await runtime.app.signIn(member);
    // Written here, outside any request: the guard's cache hears of it through the change listener,
    // so wait until that has passed (plugins/user-cache.ts).
    await users.update(member.id, { tokenVersion: member.tokenVersion + 1 });
    await runtime.parts.userChanges?.sync();
    expect((await getUser(`Bearer ${oldToken}`)).statusCode).toBe(401);
    const newToken = await runtime.app.signIn({ ...member, tokenVersion: member.tokenVersion + 1 });
    expect((await getUser(`Bearer ${newToken}`)).statusCode).toBe(200);
    await users.delete(member.id);
    await runtime.parts.userChanges?.sync();
    expect((await getUser(`Bearer ${newToken}`)).statusCode).toBe(401);
  });

  it('refuses a token whose subject is not a user id', async () => {
    const token = runtime.app.jwt.sign({ sub: "1' OR '1'='1", ver: 0, sid: randomUUID() });
    const response = await getUser(`Bearer ${token}`);
    expect(response.statusCode).toBe(401);
  });

  it('refuses a token without an expiry, and one from before sessions (no sid), though correctly signed', async () => {
    const now = Math.floor(Date.now() / 1000);
    const sid = await sessionIdOf(user);
    const header = { alg: 'HS256', typ: 'JWT' };
    const forever = handMadeToken(header, { sub: user.id, ver: 0, sid, iat: now }, runtime.jwtSecret);
    const sessionless = handMadeToken(header, { sub: user.id, ver: 0, iat: now, exp: now + 3600 }, runtime.jwtSecret);
    const unknownSession = handMadeToken(
      header,
      { sub: user.id, ver: 0, sid: randomUUID(), iat: now, exp: now + 3600 },
      runtime.jwtSecret,
    );
    for (const token of [forever, sessionless, unknownSession]) {
      const response = await getUser(`Bearer ${token}`);
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('AUTH_INVALID');
    }
    // The same session with an expiry is accepted.
    const genuine = handMadeToken(header, { sub: user.id, ver: 0, sid, iat: now, exp: now + 3600 }, runtime.jwtSecret);
    expect((await getUser(`Bearer ${genuine}`)).statusCode).toBe(200);
  });

  it("refuses another user's session in a token of this user", async () => {
    const other = await users.create({ email: 'session-owner@example.org' });
    const now = Math.floor(Date.now() / 1000);
    const borrowed = handMadeToken(
      { alg: 'HS256', typ: 'JWT' },
      { sub: user.id, ver: 0, sid: await sessionIdOf(other), iat: now, exp: now + 3600 },
      runtime.jwtSecret,
    );
    expect((await getUser(`Bearer ${borrowed}`)).statusCode).toBe(401);
  });
});
