import type { EmailChangeRepository, UserRepository, UserRow } from '@radar/db';
import type { Mailer } from '@radar/mail';
import { type EmailChangeStartedResponse, LIMITS } from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from '../../errors';
import type { AfterAnswer } from '../../mail/after-answer';
import { emailChangeCodeMail, emailChangedMail, emailChangeTakenMail } from '../../mail/templates';
import { emailFingerprint, type SecretCodes } from '../../security/secret-codes';
import type { AccountSelfService } from './self-service.service';

export interface EmailChangeDeps {
  changes: EmailChangeRepository;
  users: Pick<UserRepository, 'findByEmail'>;
  /** The password check of account deletion: the same argon2 comparison and the same 400. */
  selfService: Pick<AccountSelfService, 'requirePassword'>;
  codes: SecretCodes;
  mailer: Mailer;
  /** The auth guard's cached rows: dropped at once so the new address shows on the next request. */
  userCache?: { changed(userId: string): Promise<void> };
  webBaseUrl: () => string;
  logger: Logger;
  /** Mail sent after the answer, waited for at shutdown. */
  afterAnswer: AfterAnswer;
  timeZone?: string;
  now?: () => Date;
}

/** The registration code's rules: 6 digits, 5 minutes, 5 wrong codes end it. */
const CODE_TTL_SECONDS = LIMITS.verificationCodeTtlSeconds;
const MAX_ATTEMPTS = LIMITS.verificationMaxAttempts;

/**
 * Moving a signed-in account to another address, proven by a code mailed to that address. Whether the
 * new address belongs to another account is never said to the requester: the answer is the same, and
 * the mail to that address says so instead of carrying a code.
 */
export class EmailChangeService {
  private readonly now: () => Date;

  constructor(private readonly deps: EmailChangeDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async start(user: UserRow, newEmail: string, password: string): Promise<EmailChangeStartedResponse> {
    await this.deps.selfService.requirePassword(user, password);
    if (newEmail === user.email.toLowerCase()) {
      throw errors.validation('新邮箱与当前邮箱相同', { new_email: ['新邮箱与当前邮箱相同'] });
    }
    const now = this.now();
    const taken = (await this.deps.users.findByEmail(newEmail)) !== undefined;
    // A taken address still gets a pending change, with a code nobody was sent: confirming then fails
    // exactly as a wrong code does, so nothing tells the two cases apart.
    const code = this.deps.codes.newVerificationCode();
    await this.deps.changes.replace({
      userId: user.id,
      newEmail,
      codeHash: this.deps.codes.hashVerificationCode(user.id, code),
      expiresAt: new Date(now.getTime() + CODE_TTL_SECONDS * 1000),
    });
    this.deps.logger.info(
      { event: 'account.email_change_requested', user: user.id, to: emailFingerprint(newEmail) },
      'email change requested',
    );
    const mail = taken
      ? emailChangeTakenMail(newEmail, `${this.deps.webBaseUrl()}/forgot-password`)
      : emailChangeCodeMail(newEmail, code, CODE_TTL_SECONDS / 60);
    this.deps.afterAnswer.mail('email change mail failed', newEmail, () => this.deps.mailer.send(mail));
    return { message: `验证码已发送至 ${newEmail}，请查收`, new_email: newEmail, expires_in: CODE_TTL_SECONDS };
  }

  /** Checks the code; on a match the account signs in with the new address from now on. */
  async confirm(user: UserRow, code: string): Promise<UserRow> {
    const change = await this.deps.changes.find(user.id);
    if (!change) throw errors.verificationCodeMissing('没有待确认的邮箱更改，请重新提交新邮箱');
    const now = this.now();
    if (change.expiresAt <= now) {
      await this.deps.changes.delete(user.id);
      throw errors.verificationCodeMissing('验证码已过期，请重新提交新邮箱');
    }
    if (!this.deps.codes.matchesVerificationCode(user.id, code, change.codeHash)) {
      const left = await this.deps.changes.recordFailedAttempt(user.id, change.codeHash, MAX_ATTEMPTS);
      if (left === 0) throw errors.verificationCodeMissing('验证码错误次数过多，请重新提交新邮箱');
      throw errors.verificationCodeInvalid(left);
    }
    const applied = await this.deps.changes.apply(user.id, change.codeHash);
    if (applied.outcome === 'taken') throw errors.newEmailTaken();
    if (applied.outcome !== 'changed') throw errors.verificationCodeMissing('没有待确认的邮箱更改，请重新提交新邮箱');
    await this.deps.userCache?.changed(user.id);
    this.deps.logger.info(
      { event: 'account.email_changed', user: user.id, to: emailFingerprint(applied.user.email) },
      'email changed',
    );
    const at = new Intl.DateTimeFormat('zh-CN', {
      timeZone: this.deps.timeZone ?? 'Asia/Shanghai',
      dateStyle: 'long',
      timeStyle: 'short',
      hourCycle: 'h23',
    }).format(now);
    const notice = emailChangedMail(applied.oldEmail, {
      newEmail: applied.user.email,
      at,
      forgotPasswordLink: `${this.deps.webBaseUrl()}/forgot-password`,
    });
    this.deps.afterAnswer.mail('email changed notice failed', applied.oldEmail, () => this.deps.mailer.send(notice));
    return applied.user;
  }
}
