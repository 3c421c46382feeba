import type { ReceivedMail } from '@radar/mail/testing';

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
