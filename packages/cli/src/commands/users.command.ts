import {
  type DatabaseHandle,
  isUserId,
  type OwnedRecordCounts,
  type UserAccountSummary,
  UserAdminRepository,
  type UserRow,
} from '@radar/db';
import { parseCommandLine, UsageError } from '../command-line';
import { formatTime, type Out, printJson, printTable } from './output';

/**
 * Accounts (the SQL is UserAdminRepository's):
 *   users list [--json]
 *   users show <email|id> [--json]
 *   users disable|enable <email|id> [--json]
 *   users delete <email|id> --yes [--json]
 * A disable or delete reaches a running server at once through the users change trigger.
 */

type Action = 'list' | 'show' | 'disable' | 'enable' | 'delete';

export type UsersPlan =
  | { action: 'list'; json: boolean }
  | { action: Exclude<Action, 'list'>; reference: string; json: boolean; yes: boolean };

const USAGE =
  'usage: pnpm radar users list | show <email|id> | disable <email|id> | enable <email|id> | delete <email|id> --yes [--json]';
const TAKES_A_USER = new Set<string>(['show', 'disable', 'enable', 'delete']);

export function parseUsersArgs(args: string[]): UsersPlan {
  const { positionals, values } = parseCommandLine(args, {
    usage: USAGE,
    options: { json: { type: 'boolean' }, yes: { type: 'boolean' } },
    positionals: { min: 1, max: 2 },
  });
  const [action = '', reference] = positionals;
  const json = values.json === true;
  if (values.yes && action !== 'delete') throw new UsageError('--yes is for users delete');
  if (action === 'list' && reference === undefined) return { action, json };
  if (TAKES_A_USER.has(action) && reference)
    return { action: action as Exclude<Action, 'list'>, reference, json, yes: values.yes === true };
  throw new UsageError(USAGE);
}

export interface UsersIo {
  out: Out;
  err: Out;
  setExitCode: (code: number) => void;
  /**
   * After a delete: the account's id out of Redis (queue history, rate-limit counters), when the
   * installation uses it; with PostgreSQL alone the delete's transaction did it.
   */
  forgetInRedis?: (userId: string) => Promise<void>;
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

function accountJson(user: UserAccountSummary) {
  return {
    id: user.id,
    email: user.email,
    verified: user.isEmailVerified,
    created_at: user.createdAt,
    last_login_at: user.lastLoginAt,
    disabled: user.disabledAt !== null,
    disabled_at: user.disabledAt,
    has_profile: user.hasProfile,
  };
}

const summaryOf = (user: UserRow): UserAccountSummary => ({ ...user, hasProfile: user.researchSummaryEn !== '' });

function profileJson(user: UserRow) {
  return {
    has_summary: user.researchSummaryEn !== '',
    has_vector: user.profileEmbeddedAt !== null,
    embedded_at: user.profileEmbeddedAt,
    username: user.username,
    research_name: user.researchName,
    research_email: user.researchEmail,
    research_institution: user.researchInstitution,
    research_position: user.researchPosition,
    research_fields: user.researchFields,
    research_fields_unmapped: user.researchFieldsUnmapped,
    research_description_chars: user.researchDescription.length,
  };
}

/** `3 keywords, 1 favourite, ...`: what a delete removes (or removed), leaving out what there is none of. */
function describeOwned(counts: OwnedRecordCounts): string {
  const parts: [number, string][] = [
    [counts.keywords, 'keyword'],
    [counts.articleStates, 'paper state'],
    [counts.feedback, 'feedback message'],
    [counts.tasks, 'task'],
    [counts.verificationCodes, 'verification code'],
    [counts.resetTokens, 'password reset token'],
    [counts.alertDeliveries, 'alert delivery record'],
    [counts.privatePapers, 'privately uploaded paper'],
  ];
  const present = parts
    .filter(([count]) => count > 0)
    .map(([count, what]) => `${count} ${what}${count === 1 ? '' : 's'}`);
  return present.length ? present.join(', ') : 'nothing else stored';
}

export async function runUsersCommand(database: DatabaseHandle, plan: UsersPlan, io: UsersIo): Promise<void> {
  const { out, err } = io;
  const admin = new UserAdminRepository(database.db);

  if (plan.action === 'list') {
    const accounts = await admin.list();
    if (plan.json) {
      printJson(out, { users: accounts.map(accountJson) });
      return;
    }
    if (accounts.length === 0) {
      out('no users yet');
      return;
    }
    printTable(
      [
        ['ID', 'EMAIL', 'VERIFIED', 'CREATED', 'LAST LOGIN', 'DISABLED', 'PROFILE'],
        ...accounts.map((user) => [
          user.id,
          user.email,
          yesNo(user.isEmailVerified),
          formatTime(user.createdAt),
          formatTime(user.lastLoginAt),
          user.disabledAt ? formatTime(user.disabledAt) : 'no',
          yesNo(user.hasProfile),
        ]),
      ],
      out,
      60,
    );
    out(`${accounts.length} user${accounts.length === 1 ? '' : 's'}`);
    return;
  }

  const user = await admin.find(plan.reference);
  if (!user) {
    err(`radar users ${plan.action}: no user with ${isUserId(plan.reference) ? 'id' : 'email'} ${plan.reference}`);
    io.setExitCode(1);
    return;
  }
  const who = `${user.email} (${user.id})`;

  switch (plan.action) {
    case 'show': {
      const counts = await admin.countOwnedRecords(user.id);
      const profile = profileJson(user);
      if (plan.json) {
        printJson(out, {
          ...accountJson(summaryOf(user)),
          profile,
          counts: { keywords: counts.keywords, favorites: counts.favorites, saved: counts.saved },
        });
        return;
      }
      out(`id:            ${user.id}`);
      out(`email:         ${user.email}`);
      out(`verified:      ${yesNo(user.isEmailVerified)}`);
      out(`created:       ${formatTime(user.createdAt)}`);
      out(`last login:    ${formatTime(user.lastLoginAt)}`);
      out(`disabled:      ${user.disabledAt ? `since ${formatTime(user.disabledAt)}` : 'no'}`);
      out(
        `profile:       summary ${profile.has_summary ? 'yes' : 'no'}, vector ${profile.has_vector ? 'yes' : 'no'}, description ${profile.research_description_chars} characters`,
      );
      out(`  name:        ${user.researchName || '-'}`);
      out(`  email:       ${user.researchEmail || '-'}`);
      out(`  institution: ${user.researchInstitution || '-'}`);
      out(`  position:    ${user.researchPosition || '-'}`);
      out(
        `  fields:      ${[...user.researchFields, ...user.researchFieldsUnmapped.map((field) => `${field} (unmapped)`)].join(', ') || '-'}`,
      );
      out(`keywords:      ${counts.keywords}`);
      out(`favorites:     ${counts.favorites}`);
      out(`saved:         ${counts.saved}`);
      return;
    }
    case 'disable':
    case 'enable': {
      const wasDisabled = user.disabledAt !== null;
      const changed = plan.action === 'disable' ? await admin.disable(user.id) : await admin.enable(user.id);
      if (!changed) {
        err(`radar users ${plan.action}: ${who} was deleted meanwhile`);
        io.setExitCode(1);
        return;
      }
      if (plan.json) {
        printJson(out, accountJson(summaryOf(changed)));
        return;
      }
      if (plan.action === 'disable')
        out(
          wasDisabled
            ? `${who} was already disabled (since ${formatTime(changed.disabledAt)})`
            : `disabled ${who}: login is refused and its sessions end now`,
        );
      else out(wasDisabled ? `enabled ${who}: it can log in again` : `${who} was not disabled`);
      return;
    }
    case 'delete': {
      if (!plan.yes) {
        const counts = await admin.countOwnedRecords(user.id);
        err(
          `radar users delete: not deleted without --yes: it would delete the account ${who} and all of its data (${describeOwned(counts)})`,
        );
        io.setExitCode(1);
        return;
      }
      const removed = await admin.deleteWithOwnedRecords(user.id);
      if (!removed) {
        err(`radar users delete: ${who} was deleted meanwhile`);
        io.setExitCode(1);
        return;
      }
      await io.forgetInRedis?.(user.id).catch((error: Error) => {
        err(`radar users delete: ${who} is deleted, but its id could not be removed from Redis: ${error.message}`);
        io.setExitCode(1);
      });
      if (plan.json) printJson(out, { deleted: { id: user.id, email: user.email }, removed });
      else out(`deleted ${who} and all of its data (${describeOwned(removed)})`);
      return;
    }
  }
}
