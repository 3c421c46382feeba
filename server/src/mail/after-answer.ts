import type { Logger } from 'pino';
import { emailFingerprint } from '../security/secret-codes';

/**
 * Mail that goes out after the answer: registration codes, reset links, password and e-mail change
 * notices, feedback. After, so the time to answer says nothing about an address and a slow mail server
 * never holds a request. One per server process: shutdown waits for every mail still being handed to
 * the mailer (an app onClose hook, runtime.ts) before the mailer, the outbox and the database close,
 * so a reset notice is never lost to a restart.
 */
export class AfterAnswer {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  /** Sends after the answer; a failure is logged with the address fingerprinted, never the mail. */
  mail(failure: string, email: string, send: () => Promise<unknown>): void {
    this.run(async () => {
      try {
        await send();
      } catch (error) {
        this.logger.error({ email: emailFingerprint(email), err: (error as Error).message }, failure);
      }
    });
  }

  /** Runs `work` after the answer; `work` reports its own failures (anything it lets through is logged). */
  run(work: () => Promise<void>): void {
    const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: Error) => this.logger.error({ err: error.message }, 'work after the answer failed'))
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  /** Resolves once nothing started here is still running, including work started while waiting. */
  async settle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
