import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Header lines by lower-case name (the last one of a repeated header); SmtpSink always fills it. */
  headers?: Record<string, string>;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives, parsed, so tests read the verification
 * code, reset link or unsubscribe link from the message the server or worker actually sent.
 */
export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  /** Mails received, kept or not. */
  received = 0;
  private server: SMTPServer | undefined;
  private waiters: (() => void)[] = [];
  port = 0;

  /**
   * `keepMessages: false` only counts what arrives (a benchmark receiving thousands of mails would
   * otherwise hold them all, parsed, in memory).
   */
  constructor(private readonly options: { keepMessages?: boolean } = {}) {}

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          this.received++;
          if (this.options.keepMessages === false) {
            callback();
            return;
          }
          const parsed = await PostalMime.parse(Buffer.concat(chunks));
          this.messages.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html ?? '',
            headers: Object.fromEntries(parsed.headers.map((header) => [header.key, header.value])),
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
