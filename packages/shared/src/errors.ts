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
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The body of every error response (validated by api/error.schema.ts). Kept free of zod for the web bundle. */
export interface ApiError {
  code: ErrorCode;
  message: string;
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
  PAYLOAD_TOO_LARGE: '请求内容过大',
  UNSUPPORTED_MEDIA_TYPE: '不支持的请求格式，请使用 JSON',
  RATE_LIMITED: '请求过于频繁，请稍后再试',
  INTERNAL_ERROR: '服务器内部错误，请稍后重试',
  SERVICE_UNAVAILABLE: '服务暂时不可用，请稍后重试',
};
