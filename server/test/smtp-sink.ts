import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives, parsed, so tests read the verification
 * code or reset link from the message the app actually sent.
 */
export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  private server: SMTPServer | undefined;
  private waiters: (() => void)[] = [];
  port = 0;

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          const parsed = await PostalMime.parse(Buffer.concat(chunks));
          this.messages.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html ?? '',
          });
          for (const wake of this.waiters.splice(0)) wake();
          callback();
        });
      },
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  mailsTo(address: string): ReceivedMail[] {
    return this.messages.filter((mail) => mail.to.includes(address.toLowerCase()));
  }

  /** Waits for the n-th (1-based) mail to an address. */
  async waitForMail(address: string, nth = 1, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.mailsTo(address)[nth - 1];
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`no mail #${nth} to ${address} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export const codeFrom = (mail: ReceivedMail): string => {
  const match = /验证码是：(\d{6})/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no code in mail: ${mail.text}`);
  return match[1];
};

export const resetLinkFrom = (mail: ReceivedMail): URL => {
  const match = /(http\S+\/reset-password\?token=\S+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no reset link in mail: ${mail.text}`);
  return new URL(match[1]);
};
