import type { FeedbackRow } from '@radar/db';
import type { OutgoingMail } from '@radar/mail';

/** What the page attached to the feedback, as stored in `user_info`. */
export interface FeedbackUserInfo {
  email?: string | null | undefined;
  userId?: string | null | undefined;
  userAgent?: string | null | undefined;
  currentPage?: string | null | undefined;
  timestamp?: string | null | undefined;
}

/** What the contact form stores in `user_info`: its origin, and who to answer. */
export interface ContactUserInfo {
  source: 'contact';
  name: string | null;
  email: string;
  userAgent: string | null;
}

/** A field shown on one line: a line break in it could fake the lines after it. */
const oneLine = (value: string | null | undefined) => (value ?? '').replace(/[\r\n\u2028\u2029\v\f]+/g, ' ');

/**
 * The mail to the FEEDBACK_TO address. Plain text only (no HTML part): what the user typed reaches the
 * reader as text and is never interpreted. The subject carries no user text (subjects get logged, and
 * nothing the user types ends up in a header).
 */
export function feedbackMail(
  to: string,
  row: FeedbackRow,
  account: { id: string; email: string } | undefined,
  userInfo: FeedbackUserInfo,
): OutgoingMail {
  return {
    to,
    subject: `科研雷达用户反馈 #${row.id}：${row.type}`,
    text: [
      `科研雷达收到一条用户反馈（#${row.id}）。`,
      '',
      `类型：${row.type}`,
      `标题：${oneLine(row.title)}`,
      `账户：${account ? `${account.email}（用户编号 ${account.id}）` : '未登录'}`,
      `收到时间：${row.createdAt.toISOString()}`,
      '',
      '详细描述：',
      row.description,
      '',
      '页面附带的用户信息（由浏览器提供，未经核实）：',
      `邮箱：${oneLine(userInfo.email)}`,
      `用户编号：${oneLine(userInfo.userId)}`,
      `浏览器：${oneLine(userInfo.userAgent)}`,
      `当前页面：${oneLine(userInfo.currentPage)}`,
      `提交时间：${oneLine(userInfo.timestamp)}`,
    ].join('\n'),
    // Empty: nodemailer then sends a text/plain message with no HTML alternative.
    html: '',
  };
}

/**
 * A contact message to the operators. Reply-To is the visitor's address, so answering is one click; the
 * address was typed by the visitor and is not verified, which the mail says. Plain text only, and no
 * user text in the subject, as for feedback.
 */
export function contactMail(to: string, row: FeedbackRow, info: ContactUserInfo): OutgoingMail {
  return {
    to,
    replyTo: info.email,
    subject: `科研雷达联系表单留言 #${row.id}`,
    text: [
      `科研雷达的联系页面收到一条留言（#${row.id}），直接回复这封邮件即可答复对方。`,
      '',
      `姓名：${oneLine(info.name) || '（未填写）'}`,
      `回复邮箱：${info.email}（由访客填写，未经验证）`,
      `标题：${oneLine(row.title)}`,
      `收到时间：${row.createdAt.toISOString()}`,
      '',
      '详细描述：',
      row.description,
      '',
      `浏览器：${oneLine(info.userAgent)}`,
    ].join('\n'),
    html: '',
  };
}
