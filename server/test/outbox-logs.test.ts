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

/** Waits for the n-th (1-based) .eml file in the outbox and parses it. */
async function outboxMail(nth: number): Promise<ReceivedMail & { file: string }> {
  for (let waited = 0; ; waited += 50) {
    const files = (await fs.readdir(outboxDir()).catch(() => [] as string[])).filter((file) => file.endsWith('.eml'));
    const name = files.sort()[nth - 1];
    if (name) {
      const file = path.join(outboxDir(), name);
      const parsed = await PostalMime.parse(await fs.readFile(file));
      return {
        file,
        to: (parsed.to ?? []).map((address) => address.address ?? ''),
        subject: parsed.subject ?? '',
        text: parsed.text ?? '',
        html: parsed.html ?? '',
      };
    }
    if (waited > 10_000) throw new Error(`no mail #${nth} in ${outboxDir()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits for the mail to `to` whose subject is `subject` in the outbox, and parses it. */
async function outboxMailTo(to: string, subject: string): Promise<ReceivedMail> {
  for (let waited = 0; ; waited += 50) {
    const files = (await fs.readdir(outboxDir()).catch(() => [] as string[])).filter((file) => file.endsWith('.eml'));
    for (const name of files) {
      const parsed = await PostalMime.parse(await fs.readFile(path.join(outboxDir(), name)));
      const recipients = (parsed.to ?? []).map((address) => address.address ?? '');
      if (recipients.includes(to) && parsed.subject === subject) {
        return { to: recipients, subject, text: parsed.text ?? '', html: parsed.html ?? '' };
      }
    }
    if (waited > 10_000) throw new Error(`no mail "${subject}" to ${to} in ${outboxDir()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

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
    const names = (await fs.readdir(outboxDir())).filter((file) => file.endsWith('.eml'));
    const subjects = await Promise.all(
      names.map(async (name) => {
        const parsed = await PostalMime.parse(await fs.readFile(path.join(outboxDir(), name)));
        return `${(parsed.to ?? []).map((address) => address.address).join(',')} ${parsed.subject}`;
      }),
    );
    expect(subjects).toContain(`${email} 科研雷达：账户密码已重置`);
  });
});
