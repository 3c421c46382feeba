import { FeedbackRepository, UserRepository } from '@radar/db';
import { CONTACT_FEEDBACK_TYPE } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Installation, openInstallation } from './installation';
import { runRadar } from './run-radar';

/**
 * `pnpm radar messages` and the unread count of `pnpm radar status`, on feedback and contact-form
 * messages stored through the repository, as the server stores them, in the test run's database mode.
 */

let installation: Installation;
let contactId: number;
let feedbackId: number;

const radar = (...args: string[]) => runRadar(args, installation.env);

beforeAll(async () => {
  installation = await openInstallation();
  const db = installation.database.db;
  const reader = await new UserRepository(db).create({ email: 'reader@example.org', isEmailVerified: true });
  const messages = new FeedbackRepository(db);
  feedbackId = (
    await messages.insert({
      userId: reader.id,
      type: '功能建议',
      title: '希望支持导出 EndNote',
      description: '导出收藏列表时\n希望有 EndNote 格式',
      userInfo: { email: reader.email, userId: reader.id },
      createdAt: new Date('2026-11-28T08:00:00Z'),
    })
  ).id;
  contactId = (
    await messages.insert({
      userId: null,
      type: CONTACT_FEEDBACK_TYPE,
      title: '无法收到验证码',
      description: '注册时一直收不到验证码邮件。',
      userInfo: { source: 'contact', name: '王老师', email: 'visitor@example.org', userAgent: 'Mozilla/5.0' },
      createdAt: new Date('2026-11-28T09:30:00Z'),
    })
  ).id;
}, 60_000);

afterAll(async () => {
  await installation?.close();
});

describe('radar messages', () => {
  it('status counts the unread messages and names the command that reads them', async () => {
    const text = await radar('status');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('messages:          2 unread (read them: pnpm radar messages)');
    const json = await radar('status', '--json');
    expect(JSON.parse(json.stdout).unread_messages).toBe(2);
  });

  it('lists the unread ones newest first: who wrote, where an answer goes, title and text', async () => {
    const run = await radar('messages');
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines).toContain(`#${contactId}  2026-11-28 09:30  联系表单  (unread, not mailed)`);
    expect(lines).toContain(
      '  from:  王老师 <visitor@example.org> (reply address typed in the contact form, not verified)',
    );
    expect(lines).toContain('  title: 无法收到验证码');
    expect(lines).toContain('  | 注册时一直收不到验证码邮件。');
    expect(lines).toContain(`#${feedbackId}  2026-11-28 08:00  功能建议  (unread, not mailed)`);
    expect(lines).toContain('  from:  reader@example.org (signed-in account)');
    expect(lines).toContain('  | 导出收藏列表时');
    expect(lines).toContain('  | 希望有 EndNote 格式');
    expect(run.stdout.indexOf(`#${contactId}`)).toBeLessThan(run.stdout.indexOf(`#${feedbackId}`));
    expect(lines).toContain('2 unread; mark read: pnpm radar messages read <id>... (or --all)');
  });

  it('--json gives every field, --limit the newest', async () => {
    const run = await radar('messages', '--json', '--limit', '1');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      unread: 2,
      messages: [
        {
          id: contactId,
          kind: 'contact',
          type: '联系表单',
          title: '无法收到验证码',
          description: '注册时一直收不到验证码邮件。',
          name: '王老师',
          reply_email: 'visitor@example.org',
          account_email: null,
          created_at: '2026-11-28T09:30:00.000Z',
          mailed_at: null,
          read_at: null,
        },
      ],
    });
  });

  it('marks messages read by id, once; an unknown id marks nothing and exits 1', async () => {
    const unknown = await radar('messages', 'read', String(contactId), '999999', 'x');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('radar messages read: no message #999999, #x; nothing marked');
    expect(JSON.parse((await radar('messages', '--json')).stdout).unread).toBe(2);

    const marked = await radar('messages', 'read', String(contactId));
    expect(marked.code, marked.stderr).toBe(0);
    expect(marked.stdout.trim()).toBe(`marked 1 message read: #${contactId}; 1 unread`);
    const again = await radar('messages', 'read', String(contactId));
    expect(again.stdout.trim()).toBe('nothing to mark: already read; 1 unread');

    const unread = await radar('messages');
    expect(unread.stdout).not.toContain(`#${contactId} `);
    expect(unread.stdout).toContain(`#${feedbackId} `);
    const all = await radar('messages', 'list', '--all');
    expect(all.stdout).toMatch(new RegExp(`#${contactId}  2026-11-28 09:30  联系表单  \\(read \\d{4}-\\d{2}-\\d{2} `));
    expect(all.stdout).toContain(`#${feedbackId} `);
  });

  it('read --all marks the rest; then status says none is unread', async () => {
    const run = await radar('messages', 'read', '--all', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ marked_read: [feedbackId], unread: 0 });
    expect((await radar('messages')).stdout.trim()).toBe(
      'no unread messages (`pnpm radar messages --all` shows the read ones too)',
    );
    expect((await radar('status')).stdout).toContain('messages:          0 unread\n');
  });

  it('refuses a wrong command line in one line, before opening anything', async () => {
    const cases: [string[], string][] = [
      [['messages', 'read'], 'usage: pnpm radar messages'],
      [['messages', 'read', '1', '--all'], 'messages read takes ids or --all, not both'],
      [['messages', 'list', 'extra'], 'usage: pnpm radar messages'],
      [['messages', '--limit', '0'], '--limit needs a whole number of 1 or more'],
      [['messages', 'read', '1', '--limit', '5'], '--limit is for messages list'],
      [['messages', '--unread'], 'unknown option --unread'],
    ];
    for (const [args, message] of cases) {
      const run = await radar(...args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr, args.join(' ')).toContain(message);
    }
  });
});
