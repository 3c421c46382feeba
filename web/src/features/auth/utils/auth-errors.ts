import { DEFAULT_ERROR_MESSAGES } from '@radar/shared';
import { type ApiError, isApiError } from '@/lib/api-client';
import { AUTH_STRINGS } from '../strings';

/**
 * Which message each auth screen shows for a failed call. The API client has already
 * turned every failure into an ApiError with a Chinese `message`; these rules pick the screen's own
 * wording where the spec gives one, and branch on `code`, never on the text.
 */

/** The register form's fields, named as the API names them. */
export type RegisterField = 'email' | 'password' | 'password2';

export type RegisterFailure =
  /** The address has a verified account: the warning with 'log in' and 'use another email'. */
  | { kind: 'already-registered' }
  /** A message that belongs under one field (the rest of the form stays as typed). */
  | { kind: 'field'; field: RegisterField; message: string }
  | { kind: 'form'; message: string };

/** The form's message for a malformed address; the server's copy of it adds an example address. */
const EMAIL_FORMAT_MESSAGE = '请输入正确的邮箱格式';
const PASSWORDS_DIFFER_MESSAGE = '两次输入的密码不一致';

/*
 * A backend that answers only as the contract says gives no error code, just a message (a 409 with
 * `message`, or arrays under `email`, `password`, `password2`), so for these three cases the text is all
 * there is to go on (they are recognised by their message). Ours also sends the code; both are read.
 */
const ALREADY_REGISTERED_TEXT = /已(被)?注册|已存在|already (been )?(registered|taken|exists?)|already in use/i;
const EMAIL_FORMAT_TEXT =
  /邮箱格式|邮箱地址无效|无效的邮箱|(valid|invalid) e-?mail|e-?mail (address )?(format|is invalid)/i;
const PASSWORDS_DIFFER_TEXT = /不一致|不匹配|(do|does|did)(n't| not) match|mismatch/i;

const REGISTER_FIELDS: readonly RegisterField[] = ['email', 'password', 'password2'];

/**
 * The first message for each register field: from our `fields`, else from the contract's arrays at the
 * top of the body (`{ "email": ["该邮箱已被注册"] }`; a plain string is taken too).
 */
function registerFieldMessages(error: ApiError): Partial<Record<RegisterField, string>> {
  const messages: Partial<Record<RegisterField, string>> = {};
  for (const field of REGISTER_FIELDS) {
    const top = error.body?.[field];
    const candidates = [error.fields?.[field]?.[0], Array.isArray(top) ? top[0] : top];
    const message = candidates.find((value): value is string => typeof value === 'string' && value.trim() !== '');
    if (message) messages[field] = message;
  }
  return messages;
}

export function describeRegisterError(error: unknown): RegisterFailure {
  const t = AUTH_STRINGS.register;
  if (!isApiError(error)) return { kind: 'form', message: error instanceof Error ? t.failed : t.unknown };

  const fields = registerFieldMessages(error);
  // The server's own words, for the message-only answers; never the client's status text.
  const serverMessage = error.status !== null && error.status < 500 ? error.serverMessage : undefined;
  const isTaken = (message: string | undefined) => message !== undefined && ALREADY_REGISTERED_TEXT.test(message);
  // A 409 is a conflict with an existing account: the only one registering can run into.
  if (
    error.code === 'EMAIL_ALREADY_REGISTERED' ||
    error.status === 409 ||
    isTaken(fields.email) ||
    isTaken(serverMessage)
  ) {
    return { kind: 'already-registered' };
  }

  const emailMessage = fields.email;
  if (emailMessage) {
    const isFormat = emailMessage === EMAIL_FORMAT_MESSAGE || EMAIL_FORMAT_TEXT.test(emailMessage);
    return { kind: 'field', field: 'email', message: isFormat ? t.emailFormatHint : emailMessage };
  }
  const passwordMessage = fields.password;
  if (passwordMessage) {
    if (PASSWORDS_DIFFER_TEXT.test(passwordMessage)) {
      return { kind: 'field', field: 'password2', message: t.passwordsDifferRetry };
    }
    return { kind: 'field', field: 'password', message: passwordMessage };
  }
  const confirmMessage = fields.password2;
  if (confirmMessage) {
    const differ = confirmMessage === PASSWORDS_DIFFER_MESSAGE || PASSWORDS_DIFFER_TEXT.test(confirmMessage);
    return { kind: 'field', field: 'password2', message: differ ? t.passwordsDifferRetry : confirmMessage };
  }
  // A message alone (`{ "error": "..." }`): the format and mismatch texts still go to their fields.
  if (serverMessage && EMAIL_FORMAT_TEXT.test(serverMessage)) {
    return { kind: 'field', field: 'email', message: t.emailFormatHint };
  }
  if (serverMessage && PASSWORDS_DIFFER_TEXT.test(serverMessage)) {
    return { kind: 'field', field: 'password2', message: t.passwordsDifferRetry };
  }

  switch (error.code) {
    case 'TIMEOUT':
      return { kind: 'form', message: t.timeout };
    case 'NETWORK_ERROR':
      return { kind: 'form', message: t.network };
    // A success status whose body was not the expected JSON.
    case 'UNKNOWN_ERROR':
      return { kind: 'form', message: error.status !== null && error.status < 400 ? t.badResponse : t.failed };
    // These say what to do next, which the generic text would hide.
    case 'RATE_LIMITED':
    case 'SERVICE_UNAVAILABLE':
      return { kind: 'form', message: error.message };
    // The client shows a 503's status text; this code says more: the code mail could not be sent.
    case 'MAIL_DELIVERY_FAILED':
      return { kind: 'form', message: DEFAULT_ERROR_MESSAGES.MAIL_DELIVERY_FAILED };
    default:
      return { kind: 'form', message: t.failed };
  }
}

export type LoginFailure = {
  message: string;
  /** The account exists but its e-mail is not verified yet: offer the verify screen. */
  needsVerification: boolean;
};

/**
 * Login: the server's message, else its detail, else '登录失败，请检查邮箱和密码'.
 * Failures without a server answer (network, time-out) and rate limits keep the client's text.
 */
export function describeLoginError(error: unknown): LoginFailure {
  if (!isApiError(error)) return { message: AUTH_STRINGS.login.failed, needsVerification: false };
  const needsVerification = error.code === 'EMAIL_NOT_VERIFIED';
  const answeredByServer = error.status !== null && error.status < 500 && error.status !== 429;
  const message = answeredByServer ? (error.serverMessage ?? AUTH_STRINGS.login.failed) : error.message;
  return { message, needsVerification };
}

export type VerifyFailure = {
  message: string;
  /** Attempts left on the current code when the server said so. */
  remainingAttempts?: number;
};

/** Verify e-mail: message/error or '验证失败'; the lock and network failures have their own text. */
export function describeVerifyError(error: unknown): VerifyFailure {
  const t = AUTH_STRINGS.verify;
  if (!isApiError(error)) return { message: t.failed };
  const attempts = error.body?.remaining_attempts;
  const remainingAttempts = typeof attempts === 'number' && Number.isFinite(attempts) ? attempts : undefined;
  if (error.code === 'VERIFICATION_LOCKED') return { message: t.locked, remainingAttempts: 0 };
  if (error.code === 'NETWORK_ERROR' || error.code === 'TIMEOUT') return { message: t.network };
  if (error.status !== null && error.status < 500 && error.status !== 429) {
    return { message: error.serverMessage ?? t.failed, remainingAttempts };
  }
  return { message: error.message };
}

export type RateLimitedFailure = {
  message: string;
  /** Seconds the send button stays disabled (from the 429's remaining_seconds). */
  waitSeconds?: number;
};

/** Resend code: '发送失败' with the reason; a 429 also starts the cooldown. */
export function describeResendError(error: unknown): RateLimitedFailure {
  const t = AUTH_STRINGS.verify;
  if (!isApiError(error)) return { message: t.resendFailed };
  const reason = error.serverMessage ?? error.message;
  return { message: `${t.resendFailed}：${reason}`, waitSeconds: positive(error.remainingSeconds) };
}

/** Forgot password: a 429 disables the button for its remaining seconds. */
export function describeForgotPasswordError(error: unknown): RateLimitedFailure {
  const t = AUTH_STRINGS.forgot;
  // The button counts the seconds down, so the message is the plain one (a wait in it would go stale);
  // without a known wait the client's text, which then says none either.
  if (isApiError(error) && error.status === 429) {
    const waitSeconds = positive(error.remainingSeconds);
    return { message: waitSeconds ? DEFAULT_ERROR_MESSAGES.RATE_LIMITED : error.message, waitSeconds };
  }
  return { message: t.failed };
}

/** Reset password: an unusable link, or a generic failure. */
export function describeResetPasswordError(error: unknown): { message: string; invalidLink: boolean } {
  const t = AUTH_STRINGS.reset;
  if (isApiError(error) && (error.code === 'RESET_TOKEN_INVALID' || error.fields?.token)) {
    return { message: t.invalidLink, invalidLink: true };
  }
  return { message: t.failed, invalidLink: false };
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && value > 0 ? Math.ceil(value) : undefined;
}
