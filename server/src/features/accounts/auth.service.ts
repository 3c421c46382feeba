import { randomBytes } from 'node:crypto';
import type { AuthRecordRepository, UserRepository, UserRow, VerificationCodeRow } from '@radar/db';
import type { Mailer } from '@radar/mail';
import {
  type ChangePasswordRequest,
  describeUserAgent,
  LIMITS,
  type LoginRequest,
  RESEND_CODE_ANSWER,
  type RegisterRequest,
  type ResetPasswordRequest,
  type VerificationStatusResponse,
  type VerifyEmailRequest,
} from '@radar/shared';
import type { Logger } from 'pino';
import { type AppError, errors } from '../../errors';
import type { AfterAnswer } from '../../mail/after-answer';
import { passwordChangedMail, passwordResetMail, verificationCodeMail } from '../../mail/templates';
import { isCommonPassword } from '../../security/common-passwords';
import type { PasswordHasher } from '../../security/password-hasher';
import { emailFingerprint, type SecretCodes } from '../../security/secret-codes';
import { BrowserCodeState } from './browser-code-state';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Code validity, attempts, lock and resend cooldown (LIMITS), plus the per-address caps that keep code guessing from being sustained. */
const ACCOUNT_RULES = {
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
  /**
   * How long a registration waits for verification. Inside it, registering the address again cannot
   * set the password; after it, the unverified account counts as absent (replaced by the next
   * registration, deleted by the maintenance job).
   */
  pendingRegistrationMs: LIMITS.pendingRegistrationSeconds * SECOND,
} as const;

const PENDING_HOURS = ACCOUNT_RULES.pendingRegistrationMs / HOUR;
const COMMON_PASSWORD_MESSAGE = '密码过于简单，请使用更复杂的密码';

const resendLater = (waitMs: number) => {
  const seconds = Math.ceil(waitMs / SECOND);
  return errors.rateLimited(seconds, `请在 ${seconds} 秒后重新发送验证码`);
};

export interface AuthServiceDeps {
  users: UserRepository;
  authRecords: AuthRecordRepository;
  hasher: PasswordHasher;
  codes: SecretCodes;
  mailer: Mailer;
  /** The web app's address, read when a link is made (it follows the listening port when WEB_BASE_URL is unset). */
  webBaseUrl: () => string;
  logger: Logger;
  /** Mail sent after the answer, waited for at shutdown. */
  afterAnswer: AfterAnswer;
  /** The one clock every expiry rule uses; tests move it. */
  now?: () => Date;
  /** Forgets an account's login-guessing counts after a password reset (plugins/login-limiter.ts). */
  loginLimiter?: { clearAccount(email: string): Promise<void> };
  /** The auth guard's cached rows (plugins/user-cache.ts): dropped here when a login or reset changes one. */
  userCache?: { changed(userId: string): Promise<void>; revoked(userId: string): Promise<void> };
  /** Ends the other sessions after a password change (session.service.ts). */
  sessions?: { endOthersAfterPasswordChange(userId: string, keepSessionId: string): Promise<number> };
  /** The readers' time zone (TIME_ZONE): the time in the password-changed mail. */
  timeZone?: string;
}

const DAY = 24 * HOUR;
const sendTimes = (codes: VerificationCodeRow[]) => codes.map((code) => code.createdAt.getTime());

const secondsUntil = (time: Date, now: Date) => Math.max(0, Math.ceil((time.getTime() - now.getTime()) / SECOND));

export class AuthService {
  private readonly now: () => Date;
  private unknowableHash: Promise<string> | undefined;

  constructor(private readonly deps: AuthServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Registers an address, or repeats the registration of one that is waiting for verification. The
   * answer is the same either way (only a verified address is refused, as the register page needs);
   * a code is mailed unless one was sent moments ago or the per-address caps are reached.
   */
  async register(
    input: RegisterRequest,
    browser: BrowserCodeState = BrowserCodeState.empty(),
  ): Promise<{ message: string; email: string; resend_available_in: number }> {
    if (isCommonPassword(input.password)) {
      throw errors.validation(COMMON_PASSWORD_MESSAGE, { password: [COMMON_PASSWORD_MESSAGE] });
    }
    const now = this.now();
    let user: UserRow | undefined;
    let passwordHash: string | undefined;
    // A simultaneous request may create the row between the lookup and the insert: then look again.
    for (let attempt = 1; !user; attempt++) {
      const existing = await this.deps.users.findByEmail(input.email);
      if (existing?.isEmailVerified) throw errors.emailAlreadyRegistered();
      if (existing && this.isPendingRegistration(existing, now)) {
        // Verified while the password was being checked: the address is taken now.
        if (!(await this.repeatRegistration(existing, input.password))) throw errors.emailAlreadyRegistered();
        user = existing;
        continue;
      }
      // A placeholder (codes were only asked for) or a registration nobody verified in time: the
      // address is free again, and that row's password and codes go with it.
      if (existing) await this.deps.users.deleteUnverified(existing.id);
      passwordHash ??= await this.deps.hasher.hash(input.password);
      user = await this.deps.users.createIfAbsent({ email: input.email, passwordHash });
      if (!user && attempt >= 3) throw new Error('registration kept losing races for the address');
    }

    const codes = await this.deps.authRecords.recentVerificationCodesByEmail(input.email, ACCOUNT_RULES.codesPerDay);
    // Otherwise the code sent moments ago still works, or the caps say wait (resend answers with the seconds).
    if (this.msUntilNextCode(sendTimes(codes), now) === 0) await this.sendVerificationCode(user, now);
    browser.recordSend(now, DAY);
    return {
      message: '注册成功，验证码已发送到你的邮箱',
      email: input.email,
      resend_available_in: ACCOUNT_RULES.resendCooldownMs / SECOND,
    };
  }

  /**
   * Resend, verification-status and verify-email answer alike for an address with no account, a
   * registration waiting for verification and a verified account, so they cannot tell which it is:
   * their answers come from what the calling browser did for the address (`browser`, its cookie;
   * browser-code-state.ts), never from what its owner or anybody else did. A browser that registered
   * or asked for codes sees its countdown, attempts, lock and cooldown; any other sees the same fresh
   * state for every address. The real rules are kept per address in the database: a code is mailed
   * only to a registration waiting for verification, within the cooldown and caps, and the lookups and
   * the mail happen after the answer, so neither the body nor its timing differs.
   */
  async resendVerificationCode(
    email: string,
    browser: BrowserCodeState,
  ): Promise<{ message: string; resend_available_in: number }> {
    const now = this.now();
    const waitMs = this.msUntilNextCode(browser.sends, now);
    if (waitMs > 0) throw resendLater(waitMs);
    browser.recordSend(now, DAY);
    this.deps.afterAnswer.mail('code mail failed', email, () => this.mailCodeIfPending(email, now));
    return { message: RESEND_CODE_ANSWER, resend_available_in: ACCOUNT_RULES.resendCooldownMs / SECOND };
  }

  /** Mails a new code when the address is a registration waiting for verification and one is due. */
  private async mailCodeIfPending(email: string, now: Date): Promise<void> {
    const [user, codes] = await Promise.all([
      this.deps.users.findByEmail(email),
      this.deps.authRecords.recentVerificationCodesByEmail(email, ACCOUNT_RULES.codesPerDay),
    ]);
    if (!user || !this.isPendingRegistration(user, now) || this.msUntilNextCode(sendTimes(codes), now) > 0) return;
    const code = this.deps.codes.newVerificationCode();
    await this.deps.authRecords.createVerificationCode({
      userId: user.id,
      codeHash: this.deps.codes.hashVerificationCode(user.id, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + ACCOUNT_RULES.codeTtlMs),
    });
    // Kept if the mail fails: it counts against the cooldown like a delivered one.
    await this.deps.mailer.send(
      verificationCodeMail(user.email, code, ACCOUNT_RULES.codeTtlMs / MINUTE, PENDING_HOURS),
    );
  }

  /** The calling browser's code for the address (see resendVerificationCode); no lookup at all. */
  verificationStatus(browser: BrowserCodeState): VerificationStatusResponse {
    const now = this.now();
    const last = browser.lastSend();
    const hasCode = last !== undefined && last > now.getTime() - DAY;
    return {
      remaining_time: hasCode ? secondsUntil(new Date(last + ACCOUNT_RULES.codeTtlMs), now) : 0,
      remaining_attempts: browser.isLocked(now) ? 0 : Math.max(0, ACCOUNT_RULES.maxCodeAttempts - browser.failures),
      has_verification_code: hasCode,
      resend_available_in: Math.ceil(this.msUntilNextCode(browser.sends, now) / SECOND),
    };
  }

  /**
   * On success the account is verified; the route signs it in (a token for `user`). A wrong code is
   * counted twice: against the address's real code (5 attempts, then locked for an hour, whoever
   * guesses) and in the calling browser's state, which alone shapes the answer (see
   * resendVerificationCode). Only a code that matches the real one may learn the real code's state.
   */
  async verifyEmail(
    input: VerifyEmailRequest,
    browser: BrowserCodeState = BrowserCodeState.empty(),
  ): Promise<{ message: string; remaining_attempts: number; user: UserRow }> {
    const now = this.now();
    const [code] = await this.deps.authRecords.recentVerificationCodesByEmail(input.email, 1);
    const matches = code
      ? this.deps.codes.matchesVerificationCode(code.userId, input.verification_code, code.codeHash)
      : false;
    if (!code || !matches) {
      if (code && !code.consumedAt && code.expiresAt > now && !(code.lockedUntil && code.lockedUntil > now)) {
        const lockUntil = new Date(now.getTime() + ACCOUNT_RULES.codeLockMs);
        await this.deps.authRecords.recordFailedAttempt(code.id, ACCOUNT_RULES.maxCodeAttempts, lockUntil);
      }
      throw this.browserRefusal(browser, now);
    }
    // The caller holds the mailed code, so it is the mailbox owner: it may learn what became of it.
    if (code.consumedAt) throw errors.verificationCodeMissing('验证码已使用，请直接登录或重新发送验证码');
    if (code.lockedUntil && code.lockedUntil > now) throw this.lockedError(code, now);
    if (code.expiresAt <= now) throw errors.verificationCodeExpired(this.remainingAttempts(code, now));

    const consumed = await this.deps.authRecords.consumeVerificationCode(code, now, ACCOUNT_RULES.maxCodeAttempts);
    // Another request used the same code a moment earlier: one code, one success.
    if (!consumed) throw errors.verificationCodeMissing('验证码已使用，请直接登录或重新发送验证码');
    // consumeVerificationCode marked the account verified in the same transaction.
    const verified = await this.deps.users.findById(code.userId);
    if (!verified) throw errors.verificationCodeMissing();
    // The route would sign a disabled account in: refuse as login does.
    if (verified.disabledAt) throw errors.accountDisabled();
    return { message: '邮箱验证成功', remaining_attempts: this.remainingAttempts(code, now), user: verified };
  }

  /** The answer to a code that does not match, from the calling browser's own code and attempts. */
  private browserRefusal(browser: BrowserCodeState, now: Date): AppError {
    if (browser.isLocked(now)) return errors.verificationLocked(secondsUntil(new Date(browser.lockedUntil), now));
    const last = browser.lastSend();
    if (last !== undefined && last + ACCOUNT_RULES.codeTtlMs <= now.getTime()) {
      return errors.verificationCodeExpired(Math.max(0, ACCOUNT_RULES.maxCodeAttempts - browser.failures));
    }
    const lockUntil = new Date(now.getTime() + ACCOUNT_RULES.codeLockMs);
    const remaining = browser.recordFailure(ACCOUNT_RULES.maxCodeAttempts, lockUntil);
    if (remaining === 0) return errors.verificationLocked(ACCOUNT_RULES.codeLockMs / SECOND);
    return errors.verificationCodeInvalid(remaining);
  }

  /** The signed-in user (with the login recorded); the route signs the token. */
  async login(input: LoginRequest): Promise<UserRow> {
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
      throw errors.invalidCredentials();
    }
    // Only after the password matched: a guess must not learn that the account exists and is disabled.
    if (user.disabledAt) {
      this.deps.logger.info({ event: 'auth.login', email: fingerprint, outcome: 'account_disabled' }, 'login refused');
      throw errors.accountDisabled();
    }
    if (!user.isEmailVerified) {
      this.deps.logger.info(
        { event: 'auth.login', email: fingerprint, outcome: 'email_not_verified' },
        'login refused',
      );
      throw errors.emailNotVerified(user.email);
    }
    const changes: Parameters<UserRepository['update']>[1] = { lastLoginAt: this.now() };
    if (user.passwordHash && this.deps.hasher.needsRehash(user.passwordHash)) {
      changes.passwordHash = await this.deps.hasher.hash(input.password);
    }
    const updated = (await this.deps.users.update(user.id, changes)) ?? user;
    await this.deps.userCache?.changed(user.id);
    this.deps.logger.info(
      { event: 'auth.login', email: fingerprint, outcome: 'success', rehashed: Boolean(changes.passwordHash) },
      'login',
    );
    return updated;
  }

  /**
   * Answers at once, the same for every address: the lookup, the per-account cap and the mail all
   * happen after the answer, so neither the body nor the time taken says whether an account exists.
   */
  async forgotPassword(email: string): Promise<{ message: string }> {
    this.deps.afterAnswer.mail('password reset mail failed', email, () => this.mailResetLink(email));
    return { message: '如果该邮箱已注册，我们已向其发送重置密码邮件，请查收' };
  }

  private async mailResetLink(email: string): Promise<void> {
    const user = await this.deps.users.findByEmail(email);
    // A placeholder (no account, only codes were asked for) gets nothing, like an unknown address.
    if (!user || (!user.isEmailVerified && !user.passwordHash)) return;
    const now = this.now();
    const token = this.deps.codes.newResetToken();
    const stored = await this.deps.authRecords.createResetTokenWithinCap(
      {
        userId: user.id,
        tokenHash: this.deps.codes.hashResetToken(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + ACCOUNT_RULES.resetTokenTtlMs),
      },
      { since: new Date(now.getTime() - HOUR), max: ACCOUNT_RULES.resetMailsPerHour },
    );
    if (!stored) return;
    const link = `${this.deps.webBaseUrl()}/reset-password?token=${encodeURIComponent(token)}`;
    await this.deps.mailer.send(passwordResetMail(user.email, link, ACCOUNT_RULES.resetTokenTtlMs / MINUTE));
  }

  async resetPassword(input: ResetPasswordRequest, userAgent = ''): Promise<{ message: string }> {
    if (isCommonPassword(input.password)) {
      throw errors.validation(COMMON_PASSWORD_MESSAGE, { password: [COMMON_PASSWORD_MESSAGE] });
    }
    const passwordHash = await this.deps.hasher.hash(input.password);
    const userId = await this.deps.authRecords.redeemResetToken(
      this.deps.codes.hashResetToken(input.token),
      this.now(),
      passwordHash,
    );
    if (!userId) throw errors.resetTokenInvalid();
    // Before answering: this process refuses the old tokens from the next request on, and the other
    // processes have acknowledged the trigger's notification (plugins/user-cache.ts).
    await this.deps.userCache?.revoked(userId);
    this.deps.logger.info({ event: 'auth.password_reset', user: userId }, 'password reset; every session ended');
    // Guesses at the old password must not keep the owner out; the reset itself has succeeded either way.
    const user = await this.deps.users.findById(userId);
    if (user) this.mailPasswordNotice(user, 'reset', describeUserAgent(userAgent));
    if (user && this.deps.loginLimiter) {
      await this.deps.loginLimiter.clearAccount(user.email).catch((error: Error) => {
        this.deps.logger.warn({ user: userId, err: error.message }, 'login limits not cleared after a password reset');
      });
    }
    return { message: '密码重置成功，请使用新密码登录' };
  }

  /**
   * A password change by the signed-in owner (/my): the current password must match (a stolen token
   * alone cannot lock the owner out), the new one must meet the rules and differ from it. Every other
   * session ends; the one that asked stays signed in. The owner gets a mail saying so.
   */
  async changePassword(
    user: UserRow,
    currentSessionId: string,
    input: ChangePasswordRequest,
    userAgent: string,
  ): Promise<{ message: string; ended: number }> {
    const matches = user.passwordHash
      ? await this.deps.hasher.verify(user.passwordHash, input.current_password)
      : await this.deps.hasher.verifyAgainstNothing(input.current_password);
    if (!matches) {
      this.deps.logger.info({ event: 'auth.password_change', user: user.id, outcome: 'wrong_current' }, 'refused');
      throw errors.currentPasswordInvalid();
    }
    if (input.password === input.current_password) {
      const message = '新密码不能与当前密码相同';
      throw errors.validation(message, { password: [message] });
    }
    if (isCommonPassword(input.password)) {
      throw errors.validation(COMMON_PASSWORD_MESSAGE, { password: [COMMON_PASSWORD_MESSAGE] });
    }
    const passwordHash = await this.deps.hasher.hash(input.password);
    const updated = await this.deps.users.update(user.id, { passwordHash });
    if (!updated) throw errors.notFound();
    const ended = (await this.deps.sessions?.endOthersAfterPasswordChange(user.id, currentSessionId)) ?? 0;
    await this.deps.userCache?.changed(user.id);
    this.deps.logger.info(
      { event: 'auth.password_change', user: user.id, ended },
      'password changed; other sessions ended',
    );
    this.mailPasswordNotice(updated, 'changed', describeUserAgent(userAgent));
    return { message: ended ? `密码已修改，其他 ${ended} 台设备已退出登录` : '密码已修改', ended };
  }

  /** The owner hears of every password change and reset, after the answer (a failed mail is logged). */
  private mailPasswordNotice(user: UserRow, kind: 'changed' | 'reset', device: string): void {
    const at = new Intl.DateTimeFormat('zh-CN', {
      timeZone: this.deps.timeZone ?? 'Asia/Shanghai',
      dateStyle: 'long',
      timeStyle: 'short',
      hourCycle: 'h23',
    }).format(this.now());
    const forgotPasswordLink = `${this.deps.webBaseUrl()}/forgot-password`;
    this.deps.afterAnswer.mail('password notice mail failed', user.email, () =>
      this.deps.mailer.send(passwordChangedMail(user.email, { kind, at, device, forgotPasswordLink })),
    );
  }

  /**
   * A registration waiting for verification: it has a password and is inside the pending window.
   * Anything else unverified is a placeholder or stale, and counts as no account.
   */
  private isPendingRegistration(user: UserRow, now: Date): boolean {
    return (
      !user.isEmailVerified &&
      user.passwordHash !== null &&
      now.getTime() - user.createdAt.getTime() < ACCOUNT_RULES.pendingRegistrationMs
    );
  }

  /**
   * Someone registers an address that is already waiting for verification. Whoever proves the mailbox
   * with a code activates the account, so no registrant may choose its password here: the same password
   * keeps the registration as it is; a different one leaves a password nobody knows, and the mailbox
   * owner sets one with forgot-password after verifying (the code mail says so). Costs one argon2
   * operation, like a first registration. The write happens only while the account is still pending
   * (the owner may verify during the hashing); false when it was verified meanwhile.
   */
  private async repeatRegistration(user: UserRow, password: string): Promise<boolean> {
    const samePassword = user.passwordHash
      ? await this.deps.hasher.verify(user.passwordHash, password)
      : await this.deps.hasher.verifyAgainstNothing(password);
    if (samePassword) return true;
    return this.deps.users.setPasswordWhilePending(user.id, await this.unknowablePasswordHash());
  }

  /** The hash of 256 random bits, made once per process: no password matches it. */
  private unknowablePasswordHash(): Promise<string> {
    this.unknowableHash ??= this.deps.hasher.hash(randomBytes(32).toString('base64url')).catch((error: unknown) => {
      this.unknowableHash = undefined;
      throw error;
    });
    return this.unknowableHash;
  }

  /** Sends a code to a registration; 503 when the mail cannot be delivered (the code is then dropped). */
  private async sendVerificationCode(user: UserRow, now: Date): Promise<void> {
    const code = this.deps.codes.newVerificationCode();
    const row = await this.deps.authRecords.createVerificationCode({
      userId: user.id,
      codeHash: this.deps.codes.hashVerificationCode(user.id, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + ACCOUNT_RULES.codeTtlMs),
    });
    try {
      await this.deps.mailer.send(
        verificationCodeMail(user.email, code, ACCOUNT_RULES.codeTtlMs / MINUTE, PENDING_HOURS),
      );
    } catch (error) {
      // Not delivered, so it must not count against the cooldown and caps.
      await this.deps.authRecords.deleteVerificationCode(row.id);
      this.deps.logger.error(
        { email: emailFingerprint(user.email), err: (error as Error).message },
        'code mail failed',
      );
      throw errors.mailDeliveryFailed();
    }
  }

  /**
   * Milliseconds before another code may be sent: the resend cooldown, then the hourly and daily caps.
   * `sentAt` are the times codes went out (at least the last `codesPerDay` of them when there are).
   */
  private msUntilNextCode(sentAt: number[], now: Date): number {
    const sent = sentAt.filter((time) => time >= now.getTime() - 24 * HOUR).sort((a, b) => a - b);
    const last = sent.at(-1);
    const waits = [last ? last + ACCOUNT_RULES.resendCooldownMs - now.getTime() : 0];
    const lastHour = sent.filter((time) => time > now.getTime() - HOUR);
    if (lastHour.length >= ACCOUNT_RULES.codesPerHour) {
      const oldest = lastHour[lastHour.length - ACCOUNT_RULES.codesPerHour];
      if (oldest !== undefined) waits.push(oldest + HOUR - now.getTime());
    }
    if (sent.length >= ACCOUNT_RULES.codesPerDay) {
      const oldest = sent[sent.length - ACCOUNT_RULES.codesPerDay];
      if (oldest !== undefined) waits.push(oldest + 24 * HOUR - now.getTime());
    }
    return Math.max(0, ...waits);
  }

  private remainingAttempts(code: VerificationCodeRow, now: Date): number {
    if (code.lockedUntil && code.lockedUntil > now) return 0;
    return Math.max(0, ACCOUNT_RULES.maxCodeAttempts - code.failedAttempts);
  }

  private lockedError(code: VerificationCodeRow, now: Date): AppError {
    return errors.verificationLocked(
      code.lockedUntil ? secondsUntil(code.lockedUntil, now) : ACCOUNT_RULES.codeLockMs / SECOND,
    );
  }
}
