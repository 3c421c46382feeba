/**
 * The SMTP sink of `pnpm bench:delivery` in a process of its own, so receiving thousands of mails does
 * not share the benchmark's event loop or memory. Started with fork(): sends `{ port }` once listening,
 * answers `'count'` with `{ received }` and stops on `'stop'`.
 */
import { SmtpSink } from '../packages/mail/src/testing';

const sink = await new SmtpSink({ keepMessages: false }).start();
process.send?.({ port: sink.port });
process.on('message', async (message) => {
  if (message === 'count') process.send?.({ received: sink.received });
  if (message === 'stop') {
    await sink.stop();
    process.exit(0);
  }
});
