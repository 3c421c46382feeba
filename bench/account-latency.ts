/**
 * `node --import tsx bench/account-latency.ts [tries]`: mean latency of resend, verification-status,
 * verify-email and forgot-password for an address without an account, one waiting for verification and
 * a verified one (docs/decisions.md, "No account enumeration"). Runs the real server in-process over a
 * fresh embedded database with the outbox mailer; requests go through `app.inject`, so the figures are
 * the server's own time. Informational: the tests check answers, never timing.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { UserRepository } from '../packages/db/src';
import { createTestDatabase } from '../packages/db/src/testing';
import { loadConfig } from '../packages/shared/src/server';
import { createLogger, startRuntime } from '../server/src';
import { GENEROUS_AUTH_RATE_LIMITS } from '../server/test/test-runtime';

const tries = Number(process.argv[2] ?? 30);
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-bench-'));
const database = await createTestDatabase();
const config = loadConfig({
  DATA_DIR: dataDir,
  JWT_SECRET: randomBytes(48).toString('base64url'),
  INGEST_ENABLED: 'false',
  LOG_LEVEL: 'warn',
});
const silent = new Writable({ write: (_chunk, _encoding, callback) => callback() });
const runtime = await startRuntime(config, createLogger(config.logLevel, silent), {
  database,
  webDistDir: '', // no web app: only the API is measured
  authRateLimits: GENEROUS_AUTH_RATE_LIMITS,
  clock,
});
const { app } = runtime;
const post = (url: string, payload: Record<string, unknown>) => app.inject({ method: 'POST', url, payload });

const PASSWORD = 'tr0ub4dor-horse';
const addresses = {
  unknown: 'bench-nobody@example.org',
  pending: 'bench-pending@example.org',
  verified: 'bench-verified@example.org',
};
for (const email of [addresses.pending, addresses.verified]) {
  await post('/api/auth/register/', { email, password: PASSWORD, password2: PASSWORD });
}
// Verified directly: the bench is about the three kinds of address, not about reading the code mail.
const verified = await new UserRepository(database.db).findByEmail(addresses.verified);
await new UserRepository(database.db).update(verified?.id ?? '', { isEmailVerified: true });

const calls: Record<string, (email: string) => Promise<unknown>> = {
  'resend-verification-code': async (email) => {
    offsetMs += 25 * 60_000; // past the cooldown and the hourly cap, so every try sends (or stores) a code
    return post('/api/auth/resend-verification-code/', { email });
  },
  'verification-status': (email) =>
    app.inject({ method: 'GET', url: `/api/auth/verification-status/?email=${encodeURIComponent(email)}` }),
  'verify-email (wrong code)': (email) => post('/api/auth/verify-email/', { email, verification_code: '000000' }),
  'forgot-password': (email) => post('/api/auth/forgot-password/', { email }),
};

const settle = () => new Promise((resolve) => setTimeout(resolve, 25));
for (const [name, call] of Object.entries(calls)) {
  const totals = Object.fromEntries(Object.keys(addresses).map((kind) => [kind, 0]));
  for (const email of Object.values(addresses)) await call(email); // warm-up
  // Round-robin, with a pause after each call so work done after one answer does not slow the next.
  for (let i = 0; i < tries; i++) {
    for (const [kind, email] of Object.entries(addresses)) {
      await settle();
      const started = process.hrtime.bigint();
      await call(email);
      totals[kind] = (totals[kind] ?? 0) + Number(process.hrtime.bigint() - started) / 1e6;
    }
  }
  const means = Object.entries(totals).map(([kind, total]) => `${kind} ${(total / tries).toFixed(2)} ms`);
  process.stdout.write(`${name.padEnd(28)} ${means.join('   ')}\n`);
}

await runtime.close();
await database.close();
await fs.rm(dataDir, { recursive: true, force: true });
