import type { AuthRecordRepository, UserRepository, UserRow, VerificationCodeRow } from '@radar/db';
import {
  LIMITS,
  type LoginRequest,
  type RegisterRequest,
  type ResetPasswordRequest,
  type UserResponse,
  type VerificationStatusResponse,
  type VerifyEmailRequest,
} from '@radar/shared';
import type { Logger } from 'pino';
import { AppError, errors } from '../errors';
import type { Mailer } from '../mail/mailer';
import { passwordResetMail, verificationCodeMail } from '../mail/templates';
import { isCommonPassword } from '../security/common-passwords';
import type { PasswordHasher } from '../security/password-hasher';
import { emailFingerprint, type SecretCodes } from '../security/secret-codes';
import { presentUser } from './user.presenter';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Rules of spec section 9 plus the per-address caps that keep code guessing from being sustained. */
export const ACCOUNT_RULES = {
  codeTtlMs: LIMITS.verificationCodeTtlSeconds * SECOND,
  maxCodeAttempts: LIMITS.verificationMaxAttempts,
  codeLockMs: LIMITS.verificationLockSeconds * SECOND,
  resendCooldownMs: LIMITS.verificationResendCooldownSeconds * SECOND,
  // 5 attempts per code x a code a minute would allow 7,200 guesses a day; these caps allow 100.
  codesPerHour: 5,
  codesPerDay: 20,
  resetTokenTtlMs: 30 * MINUTE,
  /** Reset mails per account per hour; more requests are answered the same but send nothing. */
  resetMailsPerHour: 3,
} as const;

const COMMON_PASSWORD_MESSAGE = '密码过于简单，请使用更复杂的密码';

export interface AuthServiceDeps {
  users: UserRepository;
  authRecords: AuthRecordRepository;
  hasher: PasswordHasher;
  codes: SecretCodes;
  mailer: Mailer;
  signToken: (user: UserRow) => string;
  webBaseUrl: string;
  logger: Logger;
  /** The one clock every expiry rule uses; tests move it. */
  now?: () => Date;
}

const secondsUntil = (time: Date, now: Date) => Math.max(0, Math.ceil((time.getTime() - now.getTime()) / SECOND));

export class AuthService {
  private readonly now: () => Date;

  constructor(private readonly deps: AuthServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async register(input: RegisterRequest): Promise<{ message: string; email: string; resend_available_in: number }> {
    if (isCommonPassword(input.password)) {
      throw errors.validation(COMMON_PASSWORD_MESSAGE, { password: [COMMON_PASSWORD_MESSAGE] });
    }
    const passwordHash = await this.deps.hasher.hash(input.password);
    let user = await this.deps.users.findByEmail(input.email);
    if (!user) {
      user = await this.deps.users.createIfAbsent({ email: input.email, passwordHash });
      // Lost a race with a simultaneous registration of the same address: continue as a re-registration.
      user ??= await this.deps.users.findByEmail(input.email);
      if (!user) throw new Error('user vanished during registration');
    } else if (user.isEmailVerified) {
      throw new AppError(409, 'EMAIL_ALREADY_REGISTERED', undefined, { fields: { email: ['该邮箱已注册'] } });
    } else {
      // Unverified: whoever proves the address with the code owns the account, with the latest password.
      user = (await this.deps.users.update(user.id, { passwordHash })) ?? user;
    }

    const now = this.now();
    const waitMs = await this.msUntilNextCode(user.id, now);
    if (waitMs > 0 && (await this.hasUsableCode(user.id, now))) {
      // A code sent moments ago is still valid: do not send another, say when one can be requested.
      return {
        message: '验证码已发送，请查收邮件',
        email: user.email,
        resend_available_in: Math.ceil(waitMs / SECOND),
      };
    }
    await this.sendVerificationCode(user, now, waitMs);
    return {
      message: '注册成功，验证码已发送到你的邮箱',
      email: user.email,
      resend_available_in: ACCOUNT_RULES.resendCooldownMs / SECOND,
    };
  }

  async resendVerificationCode(email: string): Promise<{ message: string; resend_available_in: number }> {
    const user = await this.deps.users.findByEmail(email);
    if (!user) throw errors.badRequest('该邮箱尚未注册，请先注册');
    if (user.isEmailVerified) throw new AppError(400, 'EMAIL_ALREADY_VERIFIED');
    await this.sendVerificationCode(user, this.now());
    return { message: '验证码已发送，请查收邮件', resend_available_in: ACCOUNT_RULES.resendCooldownMs / SECOND };
  }

  async verificationStatus(email: string): Promise<VerificationStatusResponse> {
    const now = this.now();
    const user = await this.deps.users.findByEmail(email);
    if (!user) {
      return {
        remaining_time: 0,
        remaining_attempts: 0,
        has_verification_code: false,
        resend_available_in: 0,
        is_verified: false,
      };
    }
    const code = await this.deps.authRecords.latestVerificationCode(user.id);
    const hasCode = Boolean(code && !code.consumedAt);
    return {
      remaining_time: hasCode && code ? secondsUntil(code.expiresAt, now) : 0,
      remaining_attempts: hasCode && code ? this.remainingAttempts(code, now) : 0,
      has_verification_code: hasCode,
      resend_available_in: user.isEmailVerified ? 0 : Math.ceil((await this.msUntilNextCode(user.id, now)) / SECOND),
      is_verified: user.isEmailVerified,
    };
  }

  async verifyEmail(input: VerifyEmailRequest): Promise<{
    message: string;
    remaining_attempts: number;
    token: string;
    user: UserResponse;
  }> {
    const now = this.now();
    const user = await this.deps.users.findByEmail(input.email);
    if (user?.isEmailVerified) throw new AppError(400, 'EMAIL_ALREADY_VERIFIED');
    const code = user ? await this.deps.authRecords.latestVerificationCode(user.id) : undefined;
    if (!user || !code || code.consumedAt) throw new AppError(400, 'VERIFICATION_CODE_MISSING');
    if (code.lockedUntil && code.lockedUntil > now) throw this.lockedError(code, now);
    if (code.expiresAt <= now) {
      throw new AppError(400, 'VERIFICATION_CODE_EXPIRED', undefined, {
        remaining_attempts: this.remainingAttempts(code, now),
      });
    }

    if (!this.deps.codes.matchesVerificationCode(user.id, input.verification_code, code.codeHash)) {
      const lockUntil = new Date(now.getTime() + ACCOUNT_RULES.codeLockMs);
      const updated = await this.deps.authRecords.recordFailedAttempt(
        code.id,
        ACCOUNT_RULES.maxCodeAttempts,
        lockUntil,
      );
      if (!updated) throw new AppError(400, 'VERIFICATION_CODE_MISSING');
      const remaining = this.remainingAttempts(updated, now);
      if (remaining === 0) throw this.lockedError(updated, now);
      throw new AppError(400, 'VERIFICATION_CODE_INVALID', `验证码错误，还可尝试 ${remaining} 次`, {
        remaining_attempts: remaining,
      });
    }

    const consumed = await this.deps.authRecords.consumeVerificationCode(code, now, ACCOUNT_RULES.maxCodeAttempts);
    // Another request used the same code a moment earlier: one code, one success.
    if (!consumed) throw new AppError(400, 'VERIFICATION_CODE_MISSING', '验证码已使用，请直接登录或重新发送验证码');
    // consumeVerificationCode marked the account verified in the same transaction.
    const verified: UserRow = { ...user, isEmailVerified: true };
    return {
      message: '邮箱验证成功',
      remaining_attempts: this.remainingAttempts(code, now),
      token: this.deps.signToken(verified),
      user: presentUser(verified),
    };
  }

  async login(input: LoginRequest): Promise<{ token: string; user: UserResponse }> {
    const user = await this.deps.users.findByEmail(input.email);
    const fingerprint = emailFingerprint(input.email);
    const passwordMatches = user?.passwordHash
      ? await this.deps.hasher.verify(user.passwordHash, input.password)
      : await this.deps.hasher.verifyAgainstNothing(input.password);
    if (!user || !passwordMatches) {
      this.deps.logger.info(
        { event: 'auth.login', email: fingerprint, outcome: 'invalid_credentials' },
        'login refused',
      );
      throw new AppError(400, 'INVALID_CREDENTIALS');
    }
    if (!user.isEmailVerified) {
      this.deps.logger.info(
        { event: 'auth.login', email: fingerprint, outcome: 'email_not_verified' },
        'login refused',
      );
      throw new AppError(403, 'EMAIL_NOT_VERIFIED', undefined, { email: user.email });
    }
    const changes: Parameters<UserRepository['update']>[1] = { lastLoginAt: this.now() };
    if (user.passwordHash && this.deps.hasher.needsRehash(user.passwordHash)) {
      changes.passwordHash = await this.deps.hasher.hash(input.password);
    }
    const updated = (await this.deps.users.update(user.id, changes)) ?? user;
    this.deps.logger.info(
      { event: 'auth.login', email: fingerprint, outcome: 'success', rehashed: Boolean(changes.passwordHash) },
      'login',
    );
    return { token: this.deps.signToken(updated), user: presentUser(updated) };
  }

  /**
   * Answers the same whether or not the address has an account, and takes the same time: the mail is
   * sent after the answer, and unknown addresses cost nothing observable.
   */
  async forgotPassword(email: string): Promise<{ message: string }> {
    const answer = { message: '如果该邮箱已注册，我们已向其发送重置密码邮件，请查收' };
    const user = await this.deps.users.findByEmail(email);
    if (!user) return answer;
    const now = this.now();
    const recent = await this.deps.authRecords.resetTokensCreatedSince(user.id, new Date(now.getTime() - HOUR));
    if (recent >= ACCOUNT_RULES.resetMailsPerHour) return answer;

    const token = this.deps.codes.newResetToken();
    await this.deps.authRecords.createResetToken({
      userId: user.id,
      tokenHash: this.deps.codes.hashResetToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + ACCOUNT_RULES.resetTokenTtlMs),
    });
    const link = `${this.deps.webBaseUrl}/reset-password?token=${encodeURIComponent(token)}`;
    const mail = passwordResetMail(user.email, link, ACCOUNT_RULES.resetTokenTtlMs / MINUTE);
    void this.deps.mailer.send(mail).catch((error: Error) => {
      this.deps.logger.error({ email: emailFingerprint(email), err: error.message }, 'password reset mail failed');
    });
    return answer;
  }

  async resetPassword(input: ResetPasswordRequest): Promise<{ message: string }> {
    if (isCommonPassword(input.password)) {
      throw errors.validation(COMMON_PASSWORD_MESSAGE, { password: [COMMON_PASSWORD_MESSAGE] });
    }
    const passwordHash = await this.deps.hasher.hash(input.password);
    const userId = await this.deps.authRecords.redeemResetToken(
      this.deps.codes.hashResetToken(input.token),
      this.now(),
      passwordHash,
    );
    if (!userId) throw new AppError(400, 'RESET_TOKEN_INVALID');
    this.deps.logger.info({ event: 'auth.password_reset', user: userId }, 'password reset; older sessions ended');
    return { message: '密码重置成功，请使用新密码登录' };
  }

  /**
   * Sends a new code unless the cooldown or the hourly/daily caps say wait (429 with the seconds).
   * `waitMs` is passed when the caller has just computed it.
   */
  private async sendVerificationCode(user: UserRow, now: Date, knownWaitMs?: number): Promise<void> {
    const waitMs = knownWaitMs ?? (await this.msUntilNextCode(user.id, now));
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / SECOND);
      throw errors.rateLimited(seconds, `请在 ${seconds} 秒后重新发送验证码`);
    }
    const code = this.deps.codes.newVerificationCode();
    const row = await this.deps.authRecords.createVerificationCode({
      userId: user.id,
      codeHash: this.deps.codes.hashVerificationCode(user.id, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + ACCOUNT_RULES.codeTtlMs),
    });
    try {
      await this.deps.mailer.send(verificationCodeMail(user.email, code, ACCOUNT_RULES.codeTtlMs / MINUTE));
    } catch (error) {
      // Not delivered, so it must not count against the cooldown and caps.
      await this.deps.authRecords.deleteVerificationCode(row.id);
      this.deps.logger.error(
        { email: emailFingerprint(user.email), err: (error as Error).message },
        'code mail failed',
      );
      throw new AppError(503, 'MAIL_DELIVERY_FAILED');
    }
  }

  /** Milliseconds before another code may be sent: the resend cooldown, then the hourly and daily caps. */
  private async msUntilNextCode(userId: string, now: Date): Promise<number> {
    const dayAgo = new Date(now.getTime() - 24 * HOUR);
    const sent = await this.deps.authRecords.verificationCodesSentSince(userId, dayAgo);
    const last = sent.at(-1);
    const waits = [last ? last.getTime() + ACCOUNT_RULES.resendCooldownMs - now.getTime() : 0];
    const lastHour = sent.filter((time) => time.getTime() > now.getTime() - HOUR);
    if (lastHour.length >= ACCOUNT_RULES.codesPerHour) {
      const oldest = lastHour[lastHour.length - ACCOUNT_RULES.codesPerHour];
      if (oldest) waits.push(oldest.getTime() + HOUR - now.getTime());
    }
    if (sent.length >= ACCOUNT_RULES.codesPerDay) {
      const oldest = sent[sent.length - ACCOUNT_RULES.codesPerDay];
      if (oldest) waits.push(oldest.getTime() + 24 * HOUR - now.getTime());
    }
    return Math.max(0, ...waits);
  }

  private async hasUsableCode(userId: string, now: Date): Promise<boolean> {
    const code = await this.deps.authRecords.latestVerificationCode(userId);
    return Boolean(code && !code.consumedAt && code.expiresAt > now && this.remainingAttempts(code, now) > 0);
  }

  private remainingAttempts(code: VerificationCodeRow, now: Date): number {
    if (code.lockedUntil && code.lockedUntil > now) return 0;
    return Math.max(0, ACCOUNT_RULES.maxCodeAttempts - code.failedAttempts);
  }

  private lockedError(code: VerificationCodeRow, now: Date): AppError {
    return new AppError(429, 'VERIFICATION_LOCKED', undefined, {
      error: '尝试次数超限',
      remaining_attempts: 0,
      remaining_seconds: code.lockedUntil ? secondsUntil(code.lockedUntil, now) : ACCOUNT_RULES.codeLockMs / SECOND,
    });
  }
}
