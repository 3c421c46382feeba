import fs from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, RESET_LINK_SUBJECT, type ReceivedMail, resetLinkFrom } from './smtp-sink';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/** Embedded mode without SMTP_URL: mail goes to DATA_DIR/outbox, and its secrets never reach the logs. */

let runtime: TestRuntime;
const PASSWORD = 'tr0ub4dor-horse';

const post = (url: string, payload: unknown) =>
  runtime.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });

const outboxDir = () => path.join(runtime.dataDir, 'outbox');

/** Every mail in the outbox, parsed, oldest first (file names start with an ISO timestamp). */
async function readOutboxMails(): Promise<(ReceivedMail & { file: string })[]> {
  const names = (await fs.readdir(outboxDir()).catch(() => [] as string[])).filter((file) => file.endsWith('.eml'));
  return Promise.all(
    names.sort().map(async (name) => {
      const file = path.join(outboxDir(), name);
      const parsed = await PostalMime.parse(await fs.readFile(file));
      return {
        file,
        to: (parsed.to ?? []).map((address) => address.address ?? ''),
        subject: parsed.subject ?? '',
        text: parsed.text ?? '',
        html: parsed.html ?? '',
      };
    }),
  );
}

/** Waits until `pick` finds its mail in the outbox (the server writes it after answering). */
async function waitForOutboxMail(
  what: string,
  pick: (mails: (ReceivedMail & { file: string })[]) => (ReceivedMail & { file: string }) | undefined,
): Promise<ReceivedMail & { file: string }> {
  for (let waited = 0; ; waited += 50) {
    const mail = pick(await readOutboxMails());
    if (mail) return mail;
    if (waited > 10_000) throw new Error(`no ${what} in ${outboxDir()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The n-th (1-based) mail of the outbox. */
const outboxMail = (nth: number) => waitForOutboxMail(`mail #${nth}`, (mails) => mails[nth - 1]);

/** The mail to `to` whose subject is `subject`. */
const outboxMailTo = (to: string, subject: string) =>
  waitForOutboxMail(`mail "${subject}" to ${to}`, (mails) =>
    mails.find((mail) => mail.to.includes(to) && mail.subject === subject),
  );

beforeAll(async () => {
  // No in-process worker: the mails go out from the requests, nothing here runs a job, and the worker's
  // start is most of a runtime's boot.
  runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the outbox mailer', () => {
  it('logs where each mail was written, never the code, the reset link or the body', async () => {
    const email = 'local-user@example.org';
    await post('/api/auth/register/', { email, password: PASSWORD, password2: PASSWORD });
    const codeMail = await outboxMail(1);
    const code = codeFrom(codeMail);
    expect((await post('/api/auth/verify-email/', { email, verification_code: code })).statusCode).toBe(200);

    expect((await post('/api/auth/forgot-password/', { email })).statusCode).toBe(200);
    const resetMail = await outboxMail(2);
    const link = resetLinkFrom(resetMail);
    const token = link.searchParams.get('token') ?? '';
    const reset = await post('/api/auth/reset-password/', {
      token,
      password: 'n3w-passphrase',
      confirm_password: 'n3w-passphrase',
    });
    expect(reset.statusCode).toBe(200);

    const logs = runtime.logLines.join('\n');
    for (const mail of [codeMail, resetMail]) {
      expect(logs).toContain(JSON.stringify(mail.file).slice(1, -1));
    }
    expect(logs).toContain('mail written to the outbox');
    for (const secret of [code, token, encodeURIComponent(token), link.toString(), PASSWORD, 'n3w-passphrase']) {
      expect(secret.length).toBeGreaterThan(5);
      expect(logs).not.toContain(secret);
    }
    expect(logs).not.toContain('验证码是');
  });

  it('writes the mail an answer handed over before the server closes (the reset notice)', async () => {
    // The reset's notice to the owner goes out after the answer; closing right away must not lose it.
    const email = 'closing-user@example.org';
    await post('/api/auth/register/', { email, password: PASSWORD, password2: PASSWORD });
    const code = codeFrom(await outboxMailTo(email, '科研雷达：邮箱验证码'));
    expect((await post('/api/auth/verify-email/', { email, verification_code: code })).statusCode).toBe(200);
    expect((await post('/api/auth/forgot-password/', { email })).statusCode).toBe(200);
    const token = resetLinkFrom(await outboxMailTo(email, RESET_LINK_SUBJECT)).searchParams.get('token') ?? '';
    const reset = await post('/api/auth/reset-password/', {
      token,
      password: 'an0ther-passphrase',
      confirm_password: 'an0ther-passphrase',
    });
    expect(reset.statusCode).toBe(200);
    await runtime.close();
    // No waiting: the notice is in the outbox once close() has returned.
    const subjects = (await readOutboxMails()).map((mail) => `${mail.to.join(',')} ${mail.subject}`);
    expect(subjects).toContain(`${email} 科研雷达：账户密码已重置`);
  });
});
