import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';

/**
 * The only module that sends mail, for the server and the worker alike. With SMTP_URL set, messages go
 * through nodemailer's SMTP transport; otherwise (the embedded default) each message is written to
 * DATA_DIR/outbox as an .eml file, so a local user can read their verification code without a mail server.
 */

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header lines, e.g. List-Unsubscribe on alert mails. */
  headers?: Record<string, string>;
  /** Where a reply goes (a contact message: the visitor's address); the sender otherwise. */
  replyTo?: string;
}

export interface MailStatus {
  transport: 'smtp' | 'outbox';
  ok: boolean;
  error?: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  /** Resolves with where the message went (message id, or the .eml path). */
  send(mail: OutgoingMail): Promise<{ id: string; file?: string }>;
  check(): Promise<MailStatus>;
  close(): void;
}

export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger?: Logger;
  /** false accepts a self-signed server certificate. */
  tlsRejectUnauthorized?: boolean;
}): Mailer {
  return options.smtpUrl
    ? createSmtpMailer(options.smtpUrl, options.from, options.tlsRejectUnauthorized ?? true)
    : createOutboxMailer(options.outboxDir, options.from, options.logger);
}

/** SMTP verification costs a round trip to the mail server; health checks reuse a recent answer. */
const CHECK_CACHE_MS = 60_000;

/**
 * Connections kept open to the mail server: the hourly digests and alerts send thousands of mails, and
 * a new connection per mail (TCP, greeting, EHLO, STARTTLS) cost more than the mail itself
 * (docs/benchmarks.md, bench:delivery). A connection idle for 10 s is closed (the server and an hourly
 * worker hold none in between).
 */
const SMTP_POOL = { pool: true, maxConnections: 4, maxMessages: 500, idleTimeout: 10_000 };

/**
 * smtps:// connects with TLS; smtp:// upgrades with STARTTLS when the server offers it. Timeouts keep a
 * hung mail server from holding a registration request open.
 */
function createSmtpMailer(smtpUrl: string, from: string, tlsRejectUnauthorized: boolean): Mailer {
  const transporter: Transporter = nodemailer.createTransport({
    ...SMTP_POOL,
    url: smtpUrl,
    tls: { rejectUnauthorized: tlsRejectUnauthorized },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  let lastCheck: { at: number; status: MailStatus } | undefined;
  return {
    transport: 'smtp',
    async send(mail) {
      const info = await transporter.sendMail({ from, ...mail });
      return { id: String(info.messageId) };
    },
    async check() {
      if (lastCheck && Date.now() - lastCheck.at < CHECK_CACHE_MS) return lastCheck.status;
      let status: MailStatus;
      try {
        await transporter.verify();
        status = { transport: 'smtp', ok: true };
      } catch (error) {
        status = { transport: 'smtp', ok: false, error: `SMTP_URL: ${(error as Error).message}` };
      }
      lastCheck = { at: Date.now(), status };
      return status;
    },
    close() {
      transporter.close();
    },
  };
}

function createOutboxMailer(outboxDir: string, from: string, logger: Logger | undefined): Mailer {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    transport: 'outbox',
    async send(mail) {
      await fs.mkdir(outboxDir, { recursive: true });
      const info = await transporter.sendMail({ from, ...mail });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outboxDir, `${stamp}-${randomUUID().slice(0, 8)}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      // Where, never what: codes and reset links stay in the file (mode 0600), out of the logs.
      logger?.info({ file, subject: mail.subject }, 'mail written to the outbox (no SMTP_URL)');
      return { id: String(info.messageId), file };
    },
    async check() {
      try {
        await fs.mkdir(outboxDir, { recursive: true });
        await fs.access(outboxDir, fs.constants.W_OK);
        return { transport: 'outbox', ok: true };
      } catch (error) {
        return { transport: 'outbox', ok: false, error: `outbox ${outboxDir}: ${(error as Error).message}` };
      }
    },
    close() {},
  };
}
