import { type DatabaseHandle, type FeedbackMessage, FeedbackRepository } from '@radar/db';
import { CONTACT_FEEDBACK_TYPE } from '@radar/shared';
import { parseCommandLine, UsageError } from '../command-line';
import { formatTime, type Out, printJson } from './output';

/**
 * What readers wrote to the operators: feedback (/feedback, signed in) and contact-form messages
 * (/contact, no account). Both are always stored; they are mailed only when FEEDBACK_TO (or, for
 * contact messages, SUPPORT_EMAIL) is set, so this is where an installation without mail reads them.
 *   messages [list] [--all] [--limit N] [--json]   unread ones, newest first (--all: read ones too)
 *   messages read <id>... | --all [--json]         marks them read (--all: every unread one)
 */

export type MessagesPlan =
  | { action: 'list'; includeRead: boolean; limit: number; json: boolean }
  | { action: 'read'; ids: string[] | 'all'; json: boolean };

const USAGE = 'usage: pnpm radar messages [list] [--all] [--limit N] [--json] | messages read <id>... | --all [--json]';
const DEFAULT_LIMIT = 50;

export function parseMessagesArgs(args: string[]): MessagesPlan {
  const { positionals, values } = parseCommandLine(args, {
    usage: USAGE,
    options: { all: { type: 'boolean' }, limit: { type: 'string' }, json: { type: 'boolean' } },
    positionals: { min: 0, max: 1000 },
  });
  const [action = 'list', ...rest] = positionals;
  const json = values.json === true;
  const all = values.all === true;
  if (action === 'list' && rest.length === 0) {
    const limit = values.limit === undefined ? DEFAULT_LIMIT : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit needs a whole number of 1 or more');
    return { action, includeRead: all, limit, json };
  }
  if (action === 'read') {
    if (values.limit !== undefined) throw new UsageError('--limit is for messages list');
    if (all && rest.length) throw new UsageError('messages read takes ids or --all, not both');
    if (all) return { action, ids: 'all', json };
    if (rest.length) return { action, ids: rest, json };
  }
  throw new UsageError(USAGE);
}

const isContact = (message: FeedbackMessage) => message.type === CONTACT_FEEDBACK_TYPE;
const infoText = (message: FeedbackMessage, key: string): string | null => {
  const value = (message.userInfo as Record<string, unknown> | null)?.[key];
  return typeof value === 'string' && value.trim() ? value.trim() : null;
};

/** Who wrote it and where an answer goes. A contact form's address is typed by the visitor: unverified. */
function sender(message: FeedbackMessage): string {
  if (isContact(message)) {
    const name = infoText(message, 'name');
    const email = infoText(message, 'email') ?? '?';
    return `${name ? `${name} <${email}>` : email} (reply address typed in the contact form, not verified)`;
  }
  if (message.accountEmail) return `${message.accountEmail} (signed-in account)`;
  return message.userId ? 'an account deleted since' : 'not signed in';
}

function messageJson(message: FeedbackMessage) {
  return {
    id: message.id,
    kind: isContact(message) ? 'contact' : 'feedback',
    type: message.type,
    title: message.title,
    description: message.description,
    name: isContact(message) ? infoText(message, 'name') : null,
    reply_email: isContact(message) ? infoText(message, 'email') : message.accountEmail,
    account_email: message.accountEmail,
    created_at: message.createdAt.toISOString(),
    mailed_at: message.mailedAt?.toISOString() ?? null,
    read_at: message.readAt?.toISOString() ?? null,
  };
}

function printMessage(message: FeedbackMessage, out: Out): void {
  const state = [
    message.readAt ? `read ${formatTime(message.readAt)}` : 'unread',
    message.mailedAt ? `mailed ${formatTime(message.mailedAt)}` : 'not mailed',
  ].join(', ');
  out(`#${message.id}  ${formatTime(message.createdAt)}  ${message.type}  (${state})`);
  out(`  from:  ${sender(message)}`);
  out(`  title: ${message.title}`);
  for (const line of message.description.split(/\r?\n/)) out(`  | ${line}`);
  out('');
}

export async function runMessagesCommand(
  database: DatabaseHandle,
  plan: MessagesPlan,
  io: { out: Out; err: Out; setExitCode: (code: number) => void },
): Promise<void> {
  const { out, err } = io;
  const messages = new FeedbackRepository(database.db);

  if (plan.action === 'list') {
    const [listed, unread] = await Promise.all([
      messages.list({ unreadOnly: !plan.includeRead, limit: plan.limit }),
      messages.countUnread(),
    ]);
    if (plan.json) {
      printJson(out, { unread, messages: listed.map(messageJson) });
      return;
    }
    if (listed.length === 0) {
      out(
        plan.includeRead
          ? 'no messages yet'
          : 'no unread messages (`pnpm radar messages --all` shows the read ones too)',
      );
      return;
    }
    out('times UTC, newest first');
    out('');
    for (const message of listed) printMessage(message, out);
    const more = listed.length === plan.limit ? ` (the newest ${plan.limit} shown: --limit for more)` : '';
    out(`${unread} unread${more}; mark read: pnpm radar messages read <id>... (or --all)`);
    return;
  }

  let ids: number[] | 'all' = 'all';
  if (plan.ids !== 'all') {
    const numbers = plan.ids.map((id) => (/^\d{1,15}$/.test(id) ? Number(id) : Number.NaN));
    const known = new Set(await messages.existing(numbers.filter((id) => Number.isSafeInteger(id))));
    const unknown = plan.ids.filter((_, index) => !known.has(numbers[index] ?? Number.NaN));
    if (unknown.length) {
      err(`radar messages read: no message ${unknown.map((id) => `#${id}`).join(', ')}; nothing marked`);
      io.setExitCode(1);
      return;
    }
    ids = numbers;
  }
  const marked = await messages.markRead(ids, new Date());
  const unread = await messages.countUnread();
  if (plan.json) {
    printJson(out, { marked_read: marked, unread });
    return;
  }
  out(
    marked.length
      ? `marked ${marked.length} message${marked.length === 1 ? '' : 's'} read: ${marked.map((id) => `#${id}`).join(', ')}; ${unread} unread`
      : `nothing to mark: ${plan.ids === 'all' ? 'no unread messages' : 'already read'}; ${unread} unread`,
  );
}
