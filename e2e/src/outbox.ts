import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The mails the server wrote to DATA_DIR/outbox (no SMTP_URL: every e2e server runs that way), read
 * as a person would read them: tests take the verification code and the reset link from here, never
 * from the database.
 */
export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  /** The decoded text/plain part. */
  text: string;
}

/** Every mail in the outbox, oldest first (file names start with an ISO timestamp). */
export async function readOutbox(dataDir: string): Promise<OutboxMail[]> {
  const dir = path.join(dataDir, 'outbox');
  const names = await fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const mails: OutboxMail[] = [];
  for (const name of names.filter((file) => file.endsWith('.eml')).sort()) {
    const file = path.join(dir, name);
    mails.push({ file, ...parseMail(await fs.readFile(file, 'utf8')) });
  }
  return mails;
}

/**
 * Waits until a mail to `to` that is not in `seen` (files) arrives and matches `predicate`; the
 * server writes it after answering, so a test polls. Fails after `timeoutMs`.
 */
export async function waitForMail(
  dataDir: string,
  to: string,
  options: { seen?: ReadonlySet<string>; predicate?: (mail: OutboxMail) => boolean; timeoutMs?: number } = {},
): Promise<OutboxMail> {
  const { seen = new Set(), predicate = () => true, timeoutMs = 10_000 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = (await readOutbox(dataDir)).find(
      (item) => !seen.has(item.file) && item.to.toLowerCase() === to.toLowerCase() && predicate(item),
    );
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no new mail to ${to} in the outbox after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The 6-digit code of a verification mail. */
export function readVerificationCode(mail: OutboxMail): string {
  const code = /验证码是：\s*(\d{6})/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no verification code in the mail "${mail.subject}"`);
  return code;
}

/** The reset link of a password-reset mail, as path and query (the mail's host is WEB_BASE_URL's). */
export function readResetPath(mail: OutboxMail): string {
  const link = /https?:\/\/\S+\/reset-password\?token=\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no reset link in the mail "${mail.subject}"`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

// ---- a small MIME reader: enough for the mails nodemailer writes (multipart/alternative, QP or base64) ----

type Part = { headers: Map<string, string>; body: string };

function splitPart(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? '' : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = part.body
      .replace(/=\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) => `%${hex}`)
      .replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
    return decodeURIComponent(bytes);
  }
  return part.body;
}

/** RFC 2047 encoded words (=?UTF-8?B?...?= and =?UTF-8?Q?...?=) in a header. */
function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g, (_match, _charset, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeBody({
          headers: new Map([['content-transfer-encoding', 'quoted-printable']]),
          body: data.replace(/_/g, ' '),
        }),
  );
}

function findTextPart(part: Part): Part | undefined {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) {
    return type.toLowerCase().startsWith('text/plain') ? part : undefined;
  }
  const sections = part.body.split(`--${boundary}`).slice(1);
  for (const section of sections) {
    if (section.startsWith('--')) break;
    const found = findTextPart(splitPart(section.replace(/^\n/, '')));
    if (found) return found;
  }
  return undefined;
}

function parseMail(raw: string): Omit<OutboxMail, 'file'> {
  const message = splitPart(raw);
  const textPart = findTextPart(message);
  const to = message.headers.get('to') ?? '';
  return {
    to: /<([^>]+)>/.exec(to)?.[1] ?? to,
    subject: decodeHeader(message.headers.get('subject') ?? ''),
    text: textPart ? decodeBody(textPart) : '',
  };
}
