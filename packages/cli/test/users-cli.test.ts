import {
  ArticleRepository,
  AsyncTaskRepository,
  AuthRecordRepository,
  FeedbackRepository,
  KeywordRepository,
  PaperRepository,
  RateLimitRepository,
  sql,
  UserRepository,
  type UserRow,
} from '@radar/db';
import { schema } from '@radar/db/testing';
import { createQueue, rateLimitNamespace, requestProfileRelearn } from '@radar/jobs';
import { withQueueRedis } from '@radar/jobs/testing';
import { QUEUE_NAMES } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Installation, openInstallation } from './installation';
import { runRadar, runRadarProcess } from './run-radar';

/**
 * `pnpm radar users ...` on real accounts made through the repositories, on the database of the test
 * run's mode (installation.ts). Commands run in this process, one as a real process.
 */

let installation: Installation;
let alice: UserRow;
let bob: UserRow;
const HOUR = 3_600_000;

const radar = (...args: string[]) => runRadar(['users', ...args], installation.env);

/** Everything stored for a user, per table, counted directly. */
async function storedFor(userId: string) {
  const { rows } = await installation.database.db.execute<Record<string, number>>(sql`
    SELECT
      (SELECT count(*)::int FROM radar.users WHERE id = ${userId}) AS users,
      (SELECT count(*)::int FROM radar.user_keywords WHERE user_id = ${userId}) AS keywords,
      (SELECT count(*)::int FROM radar.user_article_states WHERE user_id = ${userId}) AS article_states,
      (SELECT count(*)::int FROM radar.feedback WHERE user_id = ${userId} OR user_info->>'userId' = ${userId}) AS feedback,
      (SELECT count(*)::int FROM radar.async_tasks WHERE user_id = ${userId}) AS tasks,
      (SELECT count(*)::int FROM radar.email_verification_codes WHERE user_id = ${userId}) AS codes,
      (SELECT count(*)::int FROM radar.password_reset_tokens WHERE user_id = ${userId}) AS reset_tokens,
      (SELECT count(*)::int FROM radar.keyword_alert_deliveries WHERE user_id = ${userId}) AS deliveries`);
  return rows[0];
}

/** Queue rows and keys that still name the user: BullMQ's PostgreSQL tables and the counters, or Redis keys and jobs. */
async function mentionsOf(userId: string): Promise<number> {
  const queues = installation.queues;
  if (queues.backend === 'redis') {
    const learning = createQueue(queues, QUEUE_NAMES.profileLearning);
    try {
      const keys = await withQueueRedis(queues, (redis) => redis.keys(`${queues.prefix}:*${userId}*`));
      const jobs = await learning.getJobs(['completed', 'failed', 'delayed', 'wait', 'active']);
      return keys.length + jobs.filter((job) => job?.data.userId === userId).length;
    } finally {
      await learning.close();
    }
  }
  const mention = `%${userId}%`;
  const { rows } = await installation.database.db.execute<{ n: number }>(sql`
    SELECT (SELECT count(*)::int FROM bullmq.job WHERE data::text LIKE ${mention} OR coalesce(dedup_id, '') LIKE ${mention})
      + (SELECT count(*)::int FROM bullmq.dedup WHERE dedup_id LIKE ${mention})
      + (SELECT count(*)::int FROM bullmq.event WHERE data::text LIKE ${mention})
      + (SELECT count(*)::int FROM radar.rate_limit_counters WHERE key LIKE ${mention}) AS n`);
  return Number(rows[0]?.n);
}

/** A person with something in every table that holds a user's data. */
async function personWithData(user: UserRow, paperIds: number[]): Promise<void> {
  const db = installation.database.db;
  const keywords = new KeywordRepository(db);
  const articles = new ArticleRepository(db);
  const now = new Date();
  const first = await keywords.create(user.id, 'graphene', 10);
  await keywords.create(user.id, 'perovskite solar cells', 10);
  await articles.toggleFavorite(user.id, paperIds[0] ?? 0);
  await articles.toggleSaved(user.id, paperIds[1] ?? 0);
  await articles.recordReadProgress(user.id, paperIds[2] ?? 0, 40);
  await new FeedbackRepository(db).insert({
    userId: user.id,
    type: '功能建议',
    title: '希望支持导出',
    description: '导出收藏列表',
    userInfo: { email: user.email, userId: user.id },
  });
  await new AsyncTaskRepository(db).create({ userId: user.id, kind: 'research-direction', input: {} });
  const records = new AuthRecordRepository(db);
  await records.createVerificationCode({
    userId: user.id,
    codeHash: `code-of-${user.id}`,
    createdAt: now,
    expiresAt: new Date(now.getTime() + HOUR),
  });
  await records.createResetTokenWithinCap(
    { userId: user.id, tokenHash: `reset-of-${user.id}`, createdAt: now, expiresAt: new Date(now.getTime() + HOUR) },
    { since: new Date(now.getTime() - HOUR), max: 3 },
  );
  // Deliveries are written by the alert job's claim; a row as it leaves one.
  const keywordId = 'created' in first ? first.created.id : undefined;
  await db.insert(schema.keywordAlertDeliveries).values({ userId: user.id, paperId: paperIds[0] ?? 0, keywordId });
}

beforeAll(async () => {
  installation = await openInstallation();
  const db = installation.database.db;
  const users = new UserRepository(db);
  alice = await users.create({
    email: 'alice@example.org',
    isEmailVerified: true,
    researchName: 'Alice Chen',
    researchInstitution: 'Institute of Physics',
    researchPosition: 'postdoc',
    researchFields: ['physics', 'materials'],
    researchSummaryEn: 'I study two-dimensional materials.',
    researchDescription: '二维材料',
    lastLoginAt: new Date('2026-11-20T08:30:00Z'),
  });
  bob = await users.create({ email: 'Bob@Example.org' });
  const papers = await new PaperRepository(db).insertMany(
    ['Graphene transistors', 'Perovskite stability', 'Moiré superlattices'].map((title) => ({
      title,
      abstract: `${title}: an abstract.`,
      source: 'test',
    })),
  );
  const paperIds = papers.map((paper) => paper.id);
  await personWithData(alice, paperIds);
  await personWithData(bob, paperIds);
}, 60_000);

afterAll(async () => {
  await installation?.close();
});

describe('pnpm radar users', () => {
  it('list: every account with verified, created, last login, disabled and profile; --json parses', async () => {
    const text = await radar('list');
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ID\s+EMAIL\s+VERIFIED\s+CREATED\s+LAST LOGIN\s+DISABLED\s+PROFILE$/m);
    expect(text.stdout).toMatch(
      new RegExp(
        `^${alice.id}\\s+alice@example\\.org\\s+yes\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+2026-11-20 08:30\\s+no\\s+yes$`,
        'm',
      ),
    );
    expect(text.stdout).toMatch(
      new RegExp(`^${bob.id}\\s+Bob@Example\\.org\\s+no\\s+\\S+ \\S+\\s+-\\s+no\\s+no$`, 'm'),
    );
    expect(text.stdout).toMatch(/^2 users$/m);

    const json = await radar('list', '--json');
    expect(json.code).toBe(0);
    const { users } = JSON.parse(json.stdout) as { users: Record<string, unknown>[] };
    expect(users.map((user) => user.email)).toEqual(['alice@example.org', 'Bob@Example.org']);
    expect(users[0]).toMatchObject({
      id: alice.id,
      verified: true,
      last_login_at: '2026-11-20T08:30:00.000Z',
      disabled: false,
      disabled_at: null,
      has_profile: true,
    });
    expect(users[1]).toMatchObject({ verified: false, last_login_at: null, has_profile: false });
  });

  it('show: by address (any case) or id, the account, the profile and the counts; --json parses', async () => {
    const byEmail = await radar('show', 'ALICE@example.org');
    expect(byEmail.code).toBe(0);
    expect(byEmail.stdout).toContain(`id:            ${alice.id}`);
    expect(byEmail.stdout).toContain('last login:    2026-11-20 08:30');
    expect(byEmail.stdout).toContain('disabled:      no');
    expect(byEmail.stdout).toContain('profile:       summary yes, vector no, description 4 characters');
    expect(byEmail.stdout).toContain('  institution: Institute of Physics');
    expect(byEmail.stdout).toContain('  fields:      physics, materials');
    expect(byEmail.stdout).toMatch(/^keywords:\s+2\nfavorites:\s+1\nsaved:\s+1$/m);
    expect((await radar('show', alice.id)).stdout).toBe(byEmail.stdout);

    const json = JSON.parse((await radar('show', bob.id, '--json')).stdout);
    expect(json).toMatchObject({
      id: bob.id,
      email: 'Bob@Example.org',
      verified: false,
      profile: { has_summary: false, research_fields: [], research_institution: '' },
      counts: { keywords: 2, favorites: 1, saved: 1 },
    });
  });

  it('show: an unknown address or id is one line on stderr and exit code 1, with nothing on stdout', async () => {
    const unknown = await radar('show', 'x@y', '--json');
    expect(unknown).toEqual({ stdout: '', stderr: 'radar users show: no user with email x@y\n', code: 1 });
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await radar('disable', id)).stderr).toBe(`radar users disable: no user with id ${id}\n`);
  });

  it('disable and enable: set and clear disabled_at, say so, and are idempotent', async () => {
    const users = new UserRepository(installation.database.db);
    const disabled = await radar('disable', 'bob@example.org');
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toBe(`disabled Bob@Example.org (${bob.id}): login is refused and its sessions end now\n`);
    const since = (await users.findById(bob.id))?.disabledAt;
    expect(since).toBeInstanceOf(Date);

    const again = JSON.parse((await radar('disable', bob.id, '--json')).stdout);
    expect(again).toMatchObject({ id: bob.id, disabled: true, disabled_at: since?.toISOString() });
    expect((await radar('list')).stdout).toMatch(
      new RegExp(`^${bob.id}\\s+\\S+\\s+no\\s+\\S+ \\S+\\s+-\\s+\\d{4}-`, 'm'),
    );

    const enabled = await radar('enable', 'bob@example.org');
    expect(enabled.stdout).toBe(`enabled Bob@Example.org (${bob.id}): it can log in again\n`);
    expect((await users.findById(bob.id))?.disabledAt).toBeNull();
    expect((await radar('enable', bob.id)).stdout).toBe(`Bob@Example.org (${bob.id}) was not disabled\n`);
  });

  it('delete without --yes: refuses in one line saying what would go, and deletes nothing', async () => {
    const before = await storedFor(alice.id);
    const refused = await radar('delete', 'alice@example.org');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `radar users delete: not deleted without --yes: it would delete the account alice@example.org (${alice.id}) and all of its data (2 keywords, 3 paper states, 1 feedback message, 1 task, 1 verification code, 1 password reset token, 1 alert delivery record)\n`,
    );
    expect(await storedFor(alice.id)).toEqual(before);
  });

  it('delete --yes: removes the person and everything of theirs, and nothing of anyone else', async () => {
    const bobBefore = await storedFor(bob.id);
    expect(Object.values(bobBefore ?? {}).every((count) => count > 0)).toBe(true);
    // Outside the account's rows: a queued learning job (its payload and deduplication id) and a
    // rate-limit counter, where this installation keeps them (PostgreSQL, or Redis).
    const learning = createQueue(installation.queues, QUEUE_NAMES.profileLearning);
    await requestProfileRelearn(learning, alice.id);
    await learning.close();
    const counter = `quota:library-export:${alice.id}`;
    const queues = installation.queues;
    if (queues.backend === 'redis') {
      await withQueueRedis(queues, (redis) =>
        redis.set(`${rateLimitNamespace(queues.prefix)}${counter}`, '1', 'PX', 60_000),
      );
    } else {
      await new RateLimitRepository(installation.database.db).hit(counter, 60_000);
    }
    expect(await mentionsOf(alice.id)).toBeGreaterThan(0);

    const deleted = await radar('delete', alice.id, '--yes', '--json');
    expect(deleted.stderr).toBe('');
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({
      deleted: { id: alice.id, email: 'alice@example.org' },
      removed: {
        keywords: 2,
        articleStates: 3,
        favorites: 1,
        saved: 1,
        feedback: 1,
        tasks: 1,
        verificationCodes: 1,
        resetTokens: 1,
        alertDeliveries: 1,
        privatePapers: 0,
      },
    });
    expect(await storedFor(alice.id)).toEqual({
      users: 0,
      keywords: 0,
      article_states: 0,
      feedback: 0,
      tasks: 0,
      codes: 0,
      reset_tokens: 0,
      deliveries: 0,
    });
    expect(await storedFor(bob.id)).toEqual(bobBefore);
    expect(await mentionsOf(alice.id)).toBe(0);
    const { rows } = await installation.database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM radar.papers`,
    );
    expect(rows[0]?.n).toBe(3);
    expect((await radar('show', 'alice@example.org')).code).toBe(1);
  });

  it('wrong command lines are one line and exit code 1', async () => {
    expect(await radar('rename', 'bob@example.org')).toMatchObject({ code: 1, stdout: '' });
    expect((await radar('show')).stderr).toMatch(
      /^radar users failed: usage: pnpm radar users list \| show <email\|id>/,
    );
    expect((await radar('disable', bob.id, '--yes')).stderr).toBe('radar users failed: --yes is for users delete\n');
  });

  it('list --json as a real process: exit code 0, one JSON document on stdout, nothing on stderr', async () => {
    const run = await runRadarProcess(['users', 'list', '--json'], installation.env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const { users } = JSON.parse(run.stdout) as { users: { email: string; disabled: boolean }[] };
    expect(users).toEqual([expect.objectContaining({ email: 'Bob@Example.org', disabled: false })]);
  }, 60_000);
});
