import type { OutgoingMail } from '@radar/mail';

/** Chinese mail templates, text and HTML. Subjects never contain codes or links (subjects get logged). */

const PRODUCT = '科研雷达';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

function layout(title: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f5f7fb;font-family:-apple-system,'PingFang SC','Microsoft YaHei',sans-serif;color:#1f2937">
  <div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <div style="font-size:18px;font-weight:600;color:#1d4ed8;margin-bottom:24px">${PRODUCT}</div>
    ${bodyHtml}
    <p style="margin-top:32px;font-size:12px;color:#6b7280">如果这不是你本人的操作，请忽略这封邮件，你的账户不会有任何变化。</p>
  </div>
</body></html>`;
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
  const subject = `${PRODUCT}：邮箱验证码`;
  const ignore = `如果你没有注册${PRODUCT}，请忽略这封邮件：未完成验证的注册会在 ${pendingHours} 小时后自动删除。`;
  const repeated =
    '为保护账户安全，如果该邮箱在验证前被再次注册且两次设置的密码不同，两个密码都不会生效：验证后请通过“忘记密码”设置新密码。';
  return {
    to,
    subject,
    text: [
      `你好！`,
      ``,
      `你正在注册${PRODUCT}。你的邮箱验证码是：${code}`,
      ``,
      `验证码 ${validMinutes} 分钟内有效，请勿告诉他人。`,
      ``,
      repeated,
      ``,
      `—— ${PRODUCT}`,
      ignore,
    ].join('\n'),
    html: layout(
      subject,
      `<p>你好！</p>
    <p>你正在注册${PRODUCT}。你的邮箱验证码是：</p>
    <p style="font-size:32px;font-weight:700;letter-spacing:8px;color:#111827;margin:16px 0">${escapeHtml(code)}</p>
    <p>验证码 ${validMinutes} 分钟内有效，请勿告诉他人。</p>
    <p style="font-size:13px;color:#4b5563">${escapeHtml(repeated)}</p>
    <p style="font-size:13px;color:#4b5563">${escapeHtml(ignore)}</p>`,
    ),
  };
}

export function passwordResetMail(to: string, link: string, validMinutes: number): OutgoingMail {
  const subject = `${PRODUCT}：重置密码`;
  return {
    to,
    subject,
    text: [
      `你好！`,
      ``,
      `我们收到了重置${PRODUCT}账户密码的请求。请在 ${validMinutes} 分钟内打开下面的链接设置新密码（链接只能使用一次）：`,
      ``,
      link,
      ``,
      `—— ${PRODUCT}`,
      `如果这不是你本人的操作，请忽略这封邮件，你的密码不会改变。`,
    ].join('\n'),
    html: layout(
      subject,
      `<p>你好！</p>
    <p>我们收到了重置${PRODUCT}账户密码的请求。请在 ${validMinutes} 分钟内点击下面的按钮设置新密码（链接只能使用一次）：</p>
    <p style="margin:24px 0"><a href="${escapeHtml(link)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:8px">重置密码</a></p>
    <p style="font-size:12px;color:#6b7280;word-break:break-all">如果按钮无法打开，请复制此链接到浏览器：<br>${escapeHtml(link)}</p>`,
    ),
  };
}
