import type { FeedbackRow } from '@radar/db';
import type { OutgoingMail } from '@radar/mail';

/** What the page attached to the feedback (spec section 3), as stored in `user_info`. */
export interface FeedbackUserInfo {
  email?: string | null | undefined;
  userId?: string | null | undefined;
  userAgent?: string | null | undefined;
  currentPage?: string | null | undefined;
  timestamp?: string | null | undefined;
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
