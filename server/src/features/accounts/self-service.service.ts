import type { OwnedRecordsExport, UserAdminRepository, UserRow } from '@radar/db';
import { calendarDayIn } from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from '../../errors';
import { presentUser } from '../../presenters/user.presenter';
import type { PasswordHasher } from '../../security/password-hasher';

export interface AccountSelfServiceDeps {
  /** The operator's account repository: the CLI's `radar users delete` path, reused so deletion has one definition. */
  admin: UserAdminRepository;
  hasher: PasswordHasher;
  /** The auth guard's cached rows: dropped before answering so the deleted account's tokens fail at once. */
  userCache?: { changed(userId: string): Promise<void> };
  /**
   * After the delete: the account's id out of what Redis keeps (queue history, rate-limit counters);
   * with PostgreSQL the delete's own transaction did it (UserAdminRepository.deleteWithOwnedRecords).
   */
  forgetTraces?: (userId: string) => Promise<void>;
  logger: Logger;
  now?: () => Date;
  /** The readers' IANA zone: the download's file is named by the day there, as the library export is. */
  timeZone?: string;
}

/** The data download: the account's profile and every row of theirs, nobody else's. */
export interface AccountDataExport extends OwnedRecordsExport {
  exported_at: string;
  profile: ReturnType<typeof presentUser> & {
    is_email_verified: boolean;
    created_at: string;
    last_login_at: string | null;
  };
}

/** What a signed-in person does to their own account: download everything, or delete everything. */
export class AccountSelfService {
  private readonly now: () => Date;

  constructor(private readonly deps: AccountSelfServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Deletes the account with everything of it, once the password typed again matches: a token left
   * on an unattended device must not be enough. A wrong password removes nothing (400).
   */
  async deleteAccount(user: UserRow, password: string): Promise<{ message: string }> {
    await this.requirePassword(user, password);
    const deleted = await this.deps.admin.deleteWithOwnedRecords(user.id);
    await this.deps.userCache?.changed(user.id);
    // The account is gone whatever happens here: a failure is logged, not answered as one.
    await this.deps.forgetTraces?.(user.id).catch((error: Error) => {
      this.deps.logger.warn({ user: user.id, err: error.message }, 'could not remove a deleted account from Redis');
    });
    this.deps.logger.info({ event: 'account.deleted', user: user.id, deleted }, 'account deleted by its owner');
    return { message: '账户已删除' };
  }

  /** The download's file name: the day of `exportedAt` in the readers' zone (research-radar-data-2026-11-29.json). */
  exportFileName(exportedAt: string): string {
    return `research-radar-data-${calendarDayIn(new Date(exportedAt), this.deps.timeZone ?? 'UTC')}.json`;
  }

  async exportData(user: UserRow): Promise<AccountDataExport> {
    const owned = await this.deps.admin.exportOwnedRecords(user.id);
    return {
      exported_at: this.now().toISOString(),
      profile: {
        ...presentUser(user),
        is_email_verified: user.isEmailVerified,
        created_at: user.createdAt.toISOString(),
        last_login_at: user.lastLoginAt?.toISOString() ?? null,
      },
      ...owned,
    };
  }

  /** The signed-in user's password, typed again; the same argon2 check as login. */
  async requirePassword(user: UserRow, password: string): Promise<void> {
    const matches = user.passwordHash
      ? await this.deps.hasher.verify(user.passwordHash, password)
      : await this.deps.hasher.verifyAgainstNothing(password);
    if (!matches) {
      this.deps.logger.info({ event: 'account.password_check', user: user.id, outcome: 'wrong' }, 'password refused');
      throw errors.wrongPassword();
    }
  }
}
