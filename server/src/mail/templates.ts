import { brandedHtml, buttonHtml, codeHtml, escapeHtml, type OutgoingMail, PRODUCT_NAME as PRODUCT } from '@radar/mail';

/** Chinese mail templates, text and HTML. Subjects never contain codes or links (subjects get logged). */

const IGNORE_FOOTER = '如果这不是你本人的操作，请忽略这封邮件，你的账户不会有任何变化。';

/** Small grey print inside the card: what a reader needs to know but should not read first. */
const SMALL_PRINT = 'font-size:13px;color:#4b5563';

/**
 * One paragraph of an account mail in its two forms: the plain-text lines (none: HTML only) and the
 * HTML (none: text only).
 */
interface MailPart {
  text?: string;
  html?: string;
}

/** A paragraph written the same in text and HTML. */
const paragraph = (text: string, style?: string): MailPart => ({
  text,
  html: `<p${style ? ` style="${style}"` : ''}>${escapeHtml(text)}</p>`,
});

/** A one-time code: in the text at the end of its sentence, in the HTML large under it; then how long it lasts. */
const codeParts = (sentence: string, code: string, validMinutes: number): MailPart[] => [
  { text: `${sentence}${code}`, html: `<p>${escapeHtml(sentence)}</p>\n    ${codeHtml(code)}` },
  paragraph(`验证码 ${validMinutes} 分钟内有效，请勿告诉他人。`),
];

/** A sentence that ends with the forgot-password link: the address in the text, a button in the HTML. */
const resetLinkPart = (sentence: string, link: string): MailPart => ({
  text: `${sentence}\n${link}`,
  html: `<p>${escapeHtml(sentence)}</p>\n    ${buttonHtml(link, '重置密码')}`,
});

/**
 * An account mail in the shared layout: the greeting, the parts, the signature. The text ends with
 * `textEnd` under the signature when given; the HTML card with `footer`, a plain-text line saying why
 * the mail came.
 */
function accountMail(
  to: string,
  subject: string,
  parts: MailPart[],
  end: { textEnd?: string; footer?: string } = {},
): OutgoingMail {
  const texts = parts.flatMap((part) => (part.text === undefined ? [] : [part.text]));
  const htmls = parts.flatMap((part) => (part.html === undefined ? [] : [part.html]));
  return {
    to,
    subject,
    text: [`你好！`, ...texts, `—— ${PRODUCT}`].join('\n\n') + (end.textEnd ? `\n${end.textEnd}` : ''),
    html: brandedHtml({
      title: subject,
      bodyHtml: [`<p>你好！</p>`, ...htmls].join('\n    '),
      footerHtml: escapeHtml(end.footer ?? IGNORE_FOOTER),
    }),
  };
}

/**
 * The code mail also goes to people who did not register (anyone can type an address), and to owners
 * whose pending registration someone repeated with another password: it says what to do in both cases.
 */
export function verificationCodeMail(
  to: string,
  code: string,
  validMinutes: number,
  pendingHours: number,
): OutgoingMail {
  const ignore = `如果你没有注册${PRODUCT}，请忽略这封邮件：未完成验证的注册会在 ${pendingHours} 小时后自动删除。`;
  const repeated =
    '为保护账户安全，如果该邮箱在验证前被再次注册且两次设置的密码不同，两个密码都不会生效：验证后请通过“忘记密码”设置新密码。';
  return accountMail(
    to,
    `${PRODUCT}：邮箱验证码`,
    [
      ...codeParts(`你正在注册${PRODUCT}。你的邮箱验证码是：`, code, validMinutes),
      paragraph(repeated, SMALL_PRINT),
      { html: paragraph(ignore, SMALL_PRINT).html },
    ],
    { textEnd: ignore },
  );
}

export function passwordResetMail(to: string, link: string, validMinutes: number): OutgoingMail {
  const request = `我们收到了重置${PRODUCT}账户密码的请求。请在 ${validMinutes} 分钟内`;
  return accountMail(
    to,
    `${PRODUCT}：重置密码`,
    [
      {
        text: `${request}打开下面的链接设置新密码（链接只能使用一次）：`,
        html: `<p>${request}点击下面的按钮设置新密码（链接只能使用一次）：</p>`,
      },
      {
        text: link,
        html: `${buttonHtml(link, '重置密码')}
    <p style="font-size:12px;color:#6b7280;word-break:break-all">如果按钮无法打开，请复制此链接到浏览器：<br>${escapeHtml(link)}</p>`,
      },
    ],
    { textEnd: '如果这不是你本人的操作，请忽略这封邮件，你的密码不会改变。' },
  );
}

/**
 * Tells the owner that the password was changed (from /my) or reset (with a mailed link): when, from
 * which device, what happened to the sessions, and what to do if it was not them.
 */
export function passwordChangedMail(
  to: string,
  notice: { kind: 'changed' | 'reset'; at: string; device: string; forgotPasswordLink: string },
): OutgoingMail {
  const what = notice.kind === 'changed' ? '修改' : '重置';
  const sessions =
    notice.kind === 'changed'
      ? '为保护账户安全，其他设备上的登录已全部退出，进行修改的设备保持登录。'
      : '为保护账户安全，所有设备上的登录已全部退出，请使用新密码重新登录。';
  return accountMail(
    to,
    `${PRODUCT}：账户密码已${what}`,
    [
      {
        text: `你的${PRODUCT}账户密码已于 ${notice.at} ${what}（设备：${notice.device}）。`,
        html: `<p>你的${PRODUCT}账户密码已于 <strong>${escapeHtml(notice.at)}</strong> ${what}（设备：${escapeHtml(notice.device)}）。</p>`,
      },
      paragraph(sessions),
      resetLinkPart(
        `如果这不是你本人的操作，你的密码可能已泄露：请立即通过下面的链接重置密码。`,
        notice.forgotPasswordLink,
      ),
    ],
    { footer: '这是一封账户安全通知，每次修改或重置密码都会发送。' },
  );
}

/** The code that confirms moving an account to this address; sent to the new address only. */
export function emailChangeCodeMail(to: string, code: string, validMinutes: number): OutgoingMail {
  const ignore = `如果你没有申请把${PRODUCT}账户的邮箱改为此地址，请忽略这封邮件，不会有任何变化。`;
  return accountMail(
    to,
    `${PRODUCT}：更改邮箱验证码`,
    codeParts(`你正在把${PRODUCT}账户的登录邮箱改为此地址。验证码是：`, code, validMinutes),
    { textEnd: ignore, footer: ignore },
  );
}

/**
 * Sent instead of a code when someone asks to move their account to an address that already has an
 * account: the requester's answer does not say so (it would reveal who has an account), this mail does.
 */
export function emailChangeTakenMail(to: string, forgotPasswordLink: string): OutgoingMail {
  return accountMail(
    to,
    `${PRODUCT}：更改邮箱未能完成`,
    [
      paragraph(
        `有人申请把另一个${PRODUCT}账户的登录邮箱改为此地址，但此地址已经注册了${PRODUCT}账户，所以没有发送验证码，两个账户都没有变化。`,
      ),
      resetLinkPart(`如果是你本人操作：请直接用此地址登录；忘记密码可通过下面的链接重置。`, forgotPasswordLink),
    ],
    { textEnd: IGNORE_FOOTER },
  );
}

/** Tells the old address that the account now signs in with another one, and what to do if it was not them. */
export function emailChangedMail(
  to: string,
  notice: { newEmail: string; at: string; forgotPasswordLink: string },
): OutgoingMail {
  return accountMail(
    to,
    `${PRODUCT}：账户邮箱已更改`,
    [
      paragraph(
        `你的${PRODUCT}账户的登录邮箱已于 ${notice.at} 改为 ${notice.newEmail}，此地址不再用于登录和接收通知。`,
      ),
      resetLinkPart(
        `如果这不是你本人的操作，你的账户可能已被他人使用：请通过下面的链接用新邮箱重置密码，或联系管理员。`,
        notice.forgotPasswordLink,
      ),
    ],
    { footer: '这是一封账户安全通知，每次更改账户邮箱都会发送。' },
  );
}
