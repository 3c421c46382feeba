/**
 * Stable error codes. Every error response of the API has the shape of `apiErrorSchema`; the web app
 * shows `message` (already in Chinese) and branches on `code`, never on the text.
 */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'AUTH_REQUIRED',
  'AUTH_EXPIRED',
  'AUTH_INVALID',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'EMAIL_ALREADY_REGISTERED',
  'EMAIL_NOT_VERIFIED',
  'EMAIL_ALREADY_VERIFIED',
  'INVALID_CREDENTIALS',
  'CURRENT_PASSWORD_INVALID',
  'ACCOUNT_DISABLED',
  'VERIFICATION_CODE_INVALID',
  'VERIFICATION_CODE_EXPIRED',
  'VERIFICATION_CODE_MISSING',
  'VERIFICATION_LOCKED',
  'RESET_TOKEN_INVALID',
  'MAIL_DELIVERY_FAILED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RESEARCH_DIRECTION_NOT_SET',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The body of every error response (validated by api/error.schema.ts). Kept free of zod for the web bundle. */
export interface ApiError {
  code: ErrorCode;
  message: string;
  /**
   * Extra members some endpoints add, e.g. `remaining_attempts` on verify-email, `error` where the
   * spec's client reads it, and field messages repeated at the top level (`email: [...]`) as the
   * register page parses them.
   */
  [extra: string]: unknown;
  /** Per-field messages, e.g. `{ password: ['密码长度至少为8位'] }`, for forms that highlight fields. */
  fields?: Record<string, string[]>;
  /** Seconds until a rate-limited action may be retried. */
  remaining_seconds?: number;
}

/** Default Chinese messages per code, used when a handler does not give a more specific one. */
export const DEFAULT_ERROR_MESSAGES: Record<ErrorCode, string> = {
  VALIDATION_ERROR: '数据验证失败',
  BAD_REQUEST: '请求参数错误',
  AUTH_REQUIRED: '请先登录',
  AUTH_EXPIRED: '登录已过期，请重新登录',
  AUTH_INVALID: '登录凭证无效，请重新登录',
  FORBIDDEN: '没有权限执行此操作',
  NOT_FOUND: '请求的资源不存在',
  CONFLICT: '数据冲突，请检查输入',
  EMAIL_ALREADY_REGISTERED: '该邮箱已注册，请直接登录或使用其他邮箱',
  EMAIL_NOT_VERIFIED: '邮箱尚未验证，请先完成邮箱验证',
  EMAIL_ALREADY_VERIFIED: '该邮箱已完成验证，请直接登录',
  INVALID_CREDENTIALS: '邮箱或密码错误',
  CURRENT_PASSWORD_INVALID: '当前密码不正确',
  ACCOUNT_DISABLED: '该账户已被停用，请联系管理员',
  VERIFICATION_CODE_INVALID: '验证码错误',
  VERIFICATION_CODE_EXPIRED: '验证码已过期，请重新发送验证码',
  VERIFICATION_CODE_MISSING: '没有有效的验证码，请先发送验证码',
  VERIFICATION_LOCKED: '尝试次数超限，请1小时后再试或重新发送验证码',
  RESET_TOKEN_INVALID: '无效的重置链接，请重新申请密码重置',
  MAIL_DELIVERY_FAILED: '邮件发送失败，请稍后重试',
  PAYLOAD_TOO_LARGE: '请求内容过大',
  UNSUPPORTED_MEDIA_TYPE: '不支持的请求格式，请使用 JSON',
  RESEARCH_DIRECTION_NOT_SET: '请先设置研究方向',
  RATE_LIMITED: '请求过于频繁，请稍后再试',
  INTERNAL_ERROR: '服务器内部错误，请稍后重试',
  SERVICE_UNAVAILABLE: '服务暂时不可用，请稍后重试',
};

/**
 * Recommendations (papers, news, similarity) without an English research summary or a profile vector:
 * 400 with the members web clients read (`error`, `error_type`, `details`), besides `code`/`message`.
 */
export const RESEARCH_DIRECTION_NOT_SET = {
  error: '请先设置研究方向',
  errorType: 'research_direction_not_set',
  details: '请先设置研究方向：通过研究方向分析生成英文研究摘要',
  /** The summary exists but its vector is not computed yet (provider down, re-embedding in progress). */
  detailsVectorPending: '研究方向的向量尚未生成，请稍后重试，或在“我的”页面重新保存研究信息',
} as const;
