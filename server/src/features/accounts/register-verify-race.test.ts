import { sql } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, SmtpSink } from '../../../test/smtp-sink';
import { PRODUCTION_PASSWORD_HASHING, startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * A registration repeated while the owner verifies must not touch the verified account: its password
 * write is conditional on the account still waiting for verification. The real argon2 cost keeps the
 * window between the repeated registration's lookup and its write as wide as in production.
 */

let runtime: TestRuntime;
let smtp: SmtpSink;
const OWNER_PASSWORD = 'owner-passw0rd';
const ROUNDS = 15;

const post = (url: string, payload: Record<string, unknown>) => runtime.app.inject({ method: 'POST', url, payload });
const register = (email: string, password: string) =>
  post('/api/auth/register/', { email, password, password2: password });

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  // No in-process worker: the mails go out from the requests, nothing here runs a job, and the worker's
  // start is most of a runtime's boot.
  runtime = await startTestRuntime({
    env: { SMTP_URL: smtp.url, RUN_WORKER: 'false' },
    passwordHashing: PRODUCTION_PASSWORD_HASHING,
  });
  // Records every password change of an account that is already verified (this test logs nobody in,
  // so no rehash at login writes one either).
  await runtime.database.db.execute(sql`CREATE TABLE radar.test_verified_hash_writes (user_id uuid, at timestamptz)`);
  await runtime.database.db.execute(sql`
    CREATE FUNCTION radar.test_record_verified_hash_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO radar.test_verified_hash_writes VALUES (NEW.id, clock_timestamp());
      RETURN NEW;
    END $$`);
  await runtime.database.db.execute(sql`
    CREATE TRIGGER test_verified_hash_write BEFORE UPDATE ON radar.users FOR EACH ROW
    WHEN (OLD.is_email_verified AND NEW.password_hash IS DISTINCT FROM OLD.password_hash)
    EXECUTE FUNCTION radar.test_record_verified_hash_write()`);
});

afterAll(async () => {
  await runtime?.stop();
  await smtp?.stop();
});

describe('a registration racing the verification of the same address', () => {
  it('never rewrites the password of the account once it is verified', async () => {
    let verifiedRounds = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const email = `race-${round}@example.org`;
      expect((await register(email, OWNER_PASSWORD)).statusCode).toBe(201);
      const code = codeFrom(await smtp.waitForMail(email, 1));
      // The repeated registrations read the account as pending, hash, then write; the verification
      // lands in between in some rounds.
      const [verified, ...repeated] = await Promise.all([
        post('/api/auth/verify-email/', { email, verification_code: code }),
        register(email, `attacker-passw0rd-${round}-a`),
        register(email, `attacker-passw0rd-${round}-b`),
      ]);
      if (verified.statusCode === 200) verifiedRounds++;
      for (const answer of repeated) {
        // Either it came first (answered like any registration) or it found the address taken.
        expect([201, 409], answer.body).toContain(answer.statusCode);
      }
    }
    expect(verifiedRounds).toBe(ROUNDS);
    const writes = await runtime.database.db.execute(
      sql`SELECT count(*)::int AS n FROM radar.test_verified_hash_writes`,
    );
    expect(writes.rows[0]).toEqual({ n: 0 });
  });
});
