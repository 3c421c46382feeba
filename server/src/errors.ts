import { DEFAULT_ERROR_MESSAGES, type ErrorCode, RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';

/**
 * The one error type handlers throw for expected failures. The error handler turns it into the
 * shared error body `{ code, message, fields?, remaining_seconds? }` with its HTTP status.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string = DEFAULT_ERROR_MESSAGES[code],
    /** More members of the body: `fields`, `remaining_seconds`, and endpoint-specific ones. */
    readonly extra: { fields?: Record<string, string[]>; remaining_seconds?: number; [member: string]: unknown } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/**
 * Every expected failure is made here, never with `new AppError` elsewhere: one list of what the API can
 * answer, with the status, code and message of each.
 */
export const errors = {
  badRequest: (message?: string, fields?: Record<string, string[]>) =>
    new AppError(400, 'BAD_REQUEST', message, fields ? { fields } : {}),
  validation: (message: string, fields?: Record<string, string[]>) =>
    new AppError(400, 'VALIDATION_ERROR', message, fields ? { fields } : {}),
  authRequired: () => new AppError(401, 'AUTH_REQUIRED'),
  authExpired: () => new AppError(401, 'AUTH_EXPIRED'),
  authInvalid: () => new AppError(401, 'AUTH_INVALID'),
  forbidden: (message?: string) => new AppError(403, 'FORBIDDEN', message),
  notFound: (message?: string) => new AppError(404, 'NOT_FOUND', message),
  conflict: (message?: string) => new AppError(409, 'CONFLICT', message),
  rateLimited: (remainingSeconds: number, message?: string) =>
    new AppError(429, 'RATE_LIMITED', message, { remaining_seconds: remainingSeconds }),
  unavailable: (message?: string) => new AppError(503, 'SERVICE_UNAVAILABLE', message),
  /** A provider this request waited on (the LLM of a synchronous analysis) did not answer in time. */
  upstreamTimedOut: (message: string) => new AppError(504, 'SERVICE_UNAVAILABLE', message),
  /** A provider this request waited on answered with a failure. */
  upstreamFailed: (message: string) => new AppError(502, 'SERVICE_UNAVAILABLE', message),

  // Accounts. The register and verify pages read the extra members.
  emailAlreadyRegistered: () =>
    new AppError(409, 'EMAIL_ALREADY_REGISTERED', undefined, { fields: { email: ['该邮箱已注册'] } }),
  emailNotVerified: (email: string) => new AppError(403, 'EMAIL_NOT_VERIFIED', undefined, { email }),
  invalidCredentials: () => new AppError(400, 'INVALID_CREDENTIALS'),
  /** A password change with the wrong current password: 400, never 401 (which would end the session). */
  currentPasswordInvalid: () =>
    new AppError(400, 'CURRENT_PASSWORD_INVALID', undefined, { fields: { current_password: ['当前密码不正确'] } }),
  /** Disabled by an operator (`radar users disable`): 403 at login, 401 for the tokens it still holds. */
  accountDisabled: (statusCode: 401 | 403 = 403) => new AppError(statusCode, 'ACCOUNT_DISABLED'),
  verificationCodeMissing: (message?: string) => new AppError(400, 'VERIFICATION_CODE_MISSING', message),
  verificationCodeExpired: (remainingAttempts: number) =>
    new AppError(400, 'VERIFICATION_CODE_EXPIRED', undefined, { remaining_attempts: remainingAttempts }),
  verificationCodeInvalid: (remainingAttempts: number) =>
    new AppError(400, 'VERIFICATION_CODE_INVALID', `验证码错误，还可尝试 ${remainingAttempts} 次`, {
      remaining_attempts: remainingAttempts,
    }),
  verificationLocked: (remainingSeconds: number) =>
    new AppError(429, 'VERIFICATION_LOCKED', undefined, {
      error: '尝试次数超限',
      remaining_attempts: 0,
      remaining_seconds: remainingSeconds,
    }),
  /** The signed-in user's password, typed again to confirm a change to the account, did not match. */
  /** Only the holder of the code mailed to the address learns this: the address was taken after the code was sent. */
  newEmailTaken: () =>
    new AppError(409, 'EMAIL_ALREADY_REGISTERED', '该邮箱已被其他账户使用，请换一个邮箱', {
      fields: { new_email: ['该邮箱已被其他账户使用'] },
    }),
  wrongPassword: () =>
    new AppError(400, 'INVALID_CREDENTIALS', '密码错误，请重新输入', { fields: { password: ['密码错误'] } }),
  resetTokenInvalid: () => new AppError(400, 'RESET_TOKEN_INVALID'),

  // Recommendations: the pages branch on `error_type` and show `details`.
  researchProfileNotSet: (details: string = RESEARCH_DIRECTION_NOT_SET.details) =>
    new AppError(400, 'RESEARCH_DIRECTION_NOT_SET', RESEARCH_DIRECTION_NOT_SET.error, {
      success: false,
      error: RESEARCH_DIRECTION_NOT_SET.error,
      error_type: RESEARCH_DIRECTION_NOT_SET.errorType,
      details,
    }),
  mailDeliveryFailed: () => new AppError(503, 'MAIL_DELIVERY_FAILED'),
};

/** Row ids are identity numbers: beyond 15 digits none exists yet, and a JS number holds them exactly. */
const ROW_ID = /^[1-9]\d{0,14}$/;

/**
 * A row id from a request path. Anything that cannot be one names nothing and is answered like an
 * unknown id (404 with `notFoundMessage`), never 400: ids are not for guessing.
 */
export function parseRowId(raw: string, notFoundMessage: string): number {
  if (!ROW_ID.test(raw)) throw errors.notFound(notFoundMessage);
  return Number(raw);
}
