import { DEFAULT_ERROR_MESSAGES, type ErrorCode } from '@radar/shared';

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
};
