import type { ReceivedMail, SmtpSink } from '@radar/mail/testing';

// The SMTP server of the tests lives in @radar/mail, so the worker's tests use the same one.
export { type ReceivedMail, SmtpSink } from '@radar/mail/testing';

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

/** The n-th (1-based) mail to an address whose subject is exactly `subject`, waiting up to 10 s for it. */
export async function waitForSubject(
  sink: SmtpSink,
  address: string,
  subject: string,
  nth = 1,
  timeoutMs = 10_000,
): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = sink.mailsTo(address).filter((received) => received.subject === subject)[nth - 1];
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail #${nth} "${subject}" to ${address} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const RESET_LINK_SUBJECT = '科研雷达：重置密码';
