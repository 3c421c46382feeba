import { z } from 'zod';
import { FEEDBACK_TYPES, type FeedbackType, LIMITS } from '../limits';
import { text } from './text.schema';

/** The feedback page's type options: the Chinese label is what the page shows and sends. */
export const FEEDBACK_TYPE_LABELS: Record<FeedbackType, string> = {
  bug: '错误报告',
  suggestion: '功能建议',
  question: '使用问题',
  other: '其他',
};

export const FEEDBACK_DESCRIPTION_MAX_LENGTH = 5000;

/** A type as sent: its Chinese label (what the spec's page sends) or its English id. */
export function parseFeedbackType(value: string): FeedbackType | undefined {
  const trimmed = value.trim();
  return FEEDBACK_TYPES.find((type) => type === trimmed.toLowerCase() || FEEDBACK_TYPE_LABELS[type] === trimmed);
}

const REQUIRED = '请填写标题和详细描述';
const TYPE_MESSAGE = `反馈类型只能是 ${FEEDBACK_TYPES.map((type) => FEEDBACK_TYPE_LABELS[type]).join('、')}`;

/** Free text of the user-info box: trimmed, bounded; null counts as absent. */
const infoText = (max: number, label: string) =>
  text(label)
    .trim()
    .max(max, { message: `${label}不能超过 ${max} 个字符` })
    .nullish();

/** Title and description of feedback and of the contact form: trimmed, required, bounded. */
export const feedbackTitleSchema = text('标题', { message: REQUIRED })
  .trim()
  .min(1, { message: REQUIRED })
  .max(LIMITS.feedbackTitleMaxLength, { message: `标题不能超过 ${LIMITS.feedbackTitleMaxLength} 个字符` });
export const feedbackDescriptionSchema = text('详细描述', { message: REQUIRED })
  .trim()
  .min(1, { message: REQUIRED })
  .max(FEEDBACK_DESCRIPTION_MAX_LENGTH, { message: `详细描述不能超过 ${FEEDBACK_DESCRIPTION_MAX_LENGTH} 个字符` });

/**
 * POST /api/feedback/send/. `userInfo` is what the page attached (the account's e-mail or “未登录”,
 * user id or “unknown”, browser, page, time); the server records the signed-in account besides it.
 */
export const feedbackRequestSchema = z.object({
  type: text('反馈类型', { message: '请选择反馈类型' }).transform((value, ctx) => {
    const type = parseFeedbackType(value);
    if (!type) {
      ctx.addIssue({ code: 'custom', message: TYPE_MESSAGE });
      return z.NEVER;
    }
    return type;
  }),
  title: feedbackTitleSchema,
  description: feedbackDescriptionSchema,
  userInfo: z
    .object(
      {
        email: infoText(LIMITS.emailMaxLength, '用户邮箱'),
        userId: infoText(100, '用户编号'),
        userAgent: infoText(500, '浏览器信息'),
        currentPage: infoText(2000, '当前页面'),
        timestamp: infoText(100, '提交时间'),
      },
      { error: 'userInfo 必须是对象' },
    )
    .nullish(),
});
export type FeedbackRequest = z.output<typeof feedbackRequestSchema>;

export const FEEDBACK_THANKS = '感谢您的反馈';

export const feedbackResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** The stored feedback's number, to quote when following it up. */
  id: z.string(),
});
export type FeedbackResponse = z.infer<typeof feedbackResponseSchema>;
