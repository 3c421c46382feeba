import { CONTACT_FEEDBACK_TYPE } from '@radar/shared';
import { asc, eq, like, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../connection';
import { feedback, rateLimitCounters, users } from '../schema';
import { paperVisibleTo } from './reader-eligibility';
import type { UserRow } from './user.repository';

/** The schema BullMQ's PostgreSQL backend keeps the job queue in (packages/jobs, queue-connection.ts). */
const QUEUE_SCHEMA = 'bullmq';

/** One account as `radar users list` shows it. */
export interface UserAccountSummary {
  id: string;
  email: string;
  isEmailVerified: boolean;
  createdAt: Date;
  lastLoginAt: Date | null;
  disabledAt: Date | null;
  /** An English research summary is stored: what recommendations need. */
  hasProfile: boolean;
}

/** Everything stored for one user besides the account row (all of it goes when the account is deleted). */
export interface OwnedRecordCounts {
  keywords: number;
  /** Papers with any state of this user (favourite, saved, shared, read). */
  articleStates: number;
  favorites: number;
  saved: number;
  feedback: number;
  tasks: number;
  verificationCodes: number;
  resetTokens: number;
  alertDeliveries: number;
  /** Papers of their own-works imports that no public source has brought: only they could see them. */
  privatePapers: number;
}

/** What a person gets when they download their data: every row of theirs, as stored (JSON-ready). */
export interface OwnedRecordsExport {
  keywords: Record<string, unknown>[];
  articleStates: Record<string, unknown>[];
  newsStates: Record<string, unknown>[];
  feedback: Record<string, unknown>[];
  /**
   * Messages sent from the contact form (no account) that name the account's address as the reply
   * address, when that address is verified: the person's own words, though the form itself cannot
   * prove who typed them.
   */
  contactMessages: Record<string, unknown>[];
  /** Research interests besides the summary (and the summary's quota row), without vectors. */
  interests: Record<string, unknown>[];
  /** The digest schedule and channels without their secrets; null when never set. */
  delivery: Record<string, unknown> | null;
  /** The authors they follow, with what identifies each (ORCID, OpenAlex id, affiliation or the name). */
  followedAuthors: Record<string, unknown>[];
  /**
   * What was sent to them: each paper or news item of a digest (email) or robot push (webhook), and each
   * paper of a keyword alert mail with the keyword that matched, oldest first.
   */
  deliveries: Record<string, unknown>[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an operator's reference to a user is an id (else it is taken as an e-mail address). */
export const isUserId = (reference: string) => UUID.test(reference);

/**
 * Operator work on accounts (`pnpm radar users ...`): listing, disabling, and deleting a person with
 * everything that belongs to them. Every write to radar.users fires the change trigger, so a running
 * server drops its cached row at once (user-change-listener.ts).
 */
export class UserAdminRepository {
  constructor(private readonly db: Database) {}

  async list(): Promise<UserAccountSummary[]> {
    return this.db
      .select({
        id: users.id,
        email: users.email,
        isEmailVerified: users.isEmailVerified,
        createdAt: users.createdAt,
        lastLoginAt: users.lastLoginAt,
        disabledAt: users.disabledAt,
        hasProfile: sql<boolean>`${users.researchSummaryEn} <> ''`,
      })
      .from(users)
      .orderBy(asc(users.createdAt), asc(users.id));
  }

  /** By id when `reference` is a UUID, else by e-mail address (case-insensitive). */
  async find(reference: string): Promise<UserRow | undefined> {
    const condition = isUserId(reference)
      ? eq(users.id, reference.toLowerCase())
      : sql`lower(${users.email}) = lower(${reference})`;
    const [row] = await this.db.select().from(users).where(condition).limit(1);
    return row;
  }

  async countOwnedRecords(userId: string, db: Pick<Database, 'execute'> = this.db): Promise<OwnedRecordCounts> {
    const { rows } = await db.execute<Record<keyof OwnedRecordCounts, number>>(sql`
      SELECT
        (SELECT count(*)::int FROM radar.user_keywords WHERE user_id = ${userId}) AS "keywords",
        (SELECT count(*)::int FROM radar.user_article_states WHERE user_id = ${userId}) AS "articleStates",
        (SELECT count(*)::int FROM radar.user_article_states WHERE user_id = ${userId} AND is_favorited) AS "favorites",
        (SELECT count(*)::int FROM radar.user_article_states WHERE user_id = ${userId} AND is_saved) AS "saved",
        (SELECT count(*)::int FROM radar.feedback WHERE user_id = ${userId}) AS "feedback",
        (SELECT count(*)::int FROM radar.async_tasks WHERE user_id = ${userId}) AS "tasks",
        (SELECT count(*)::int FROM radar.email_verification_codes WHERE user_id = ${userId}) AS "verificationCodes",
        (SELECT count(*)::int FROM radar.password_reset_tokens WHERE user_id = ${userId}) AS "resetTokens",
        (SELECT count(*)::int FROM radar.keyword_alert_deliveries WHERE user_id = ${userId}) AS "alertDeliveries",
        (SELECT count(*)::int FROM radar.papers WHERE private_to = ${userId}) AS "privatePapers"`);
    const counts = rows[0];
    if (!counts) throw new Error('count of owned records returned no row');
    return counts;
  }

  /**
   * The person's own rows for a data download, each list filtered by their id only (never joined to
   * another user's rows): keywords with alert settings, paper states (favourites, saves, reading,
   * 'not interested', ratings, own works, and whether the paper is their private upload) with the
   * paper's title and link, news marks and ratings, the
   * feedback they sent, contact-form messages giving their verified address to reply to, their research interests, the authors they follow, their delivery settings and
   * what was delivered to them.
   * Secrets stay out: the
   * feed token's hash, the webhook address (its key is the credential) and signing secret are given as
   * whether they exist, with the robot's platform.
   */
  async exportOwnedRecords(userId: string): Promise<OwnedRecordsExport> {
    const rowsOf = async (query: ReturnType<typeof sql>) =>
      (await this.db.execute<Record<string, unknown>>(query)).rows;
    // A mark made before the paper became another reader's private upload: the mark, not their text.
    const visible = paperVisibleTo(sql`p`, userId);
    const [
      keywords,
      articleStates,
      newsStates,
      ownFeedback,
      contactMessages,
      interests,
      delivery,
      followedAuthors,
      deliveries,
    ] = await Promise.all([
      rowsOf(sql`
        SELECT name, alert_enabled, alert_frequency, negative_terms, last_alerted_at, created_at
        FROM radar.user_keywords WHERE user_id = ${userId} ORDER BY created_at, id`),
      rowsOf(sql`
        SELECT p.id AS paper_id, CASE WHEN ${visible} THEN p.title END AS title,
               CASE WHEN ${visible} THEN p.doi END AS doi, CASE WHEN ${visible} THEN p.url END AS url,
               s.is_favorited, s.is_saved, s.share_count,
               s.read_progress, s.last_read_at, s.dismissed_at, s.rating, s.rated_at, s.authored_at,
               coalesce(p.private_to = ${userId}::uuid, false) AS is_private_upload, s.created_at, s.updated_at
        FROM radar.user_article_states s JOIN radar.papers p ON p.id = s.paper_id
        WHERE s.user_id = ${userId} ORDER BY s.created_at, p.id`),
      rowsOf(sql`
        SELECT n.id AS news_item_id, n.title, n.url, s.dismissed_at, s.rating, s.rated_at, s.created_at
        FROM radar.user_news_states s JOIN radar.news_items n ON n.id = s.news_item_id
        WHERE s.user_id = ${userId} ORDER BY s.created_at, n.id`),
      rowsOf(sql`
        SELECT type, title, description, created_at
        FROM radar.feedback WHERE user_id = ${userId} ORDER BY created_at, id`),
      rowsOf(sql`
        SELECT f.title, f.description, f.user_info->>'name' AS name, f.user_info->>'email' AS reply_email,
               f.created_at
        FROM radar.feedback f JOIN radar.users u ON u.id = ${userId} AND u.is_email_verified
        WHERE f.user_id IS NULL AND f.type = ${CONTACT_FEEDBACK_TYPE} AND f.user_info->>'source' = 'contact'
          AND lower(f.user_info->>'email') = lower(u.email)
        ORDER BY f.created_at, f.id`),
      rowsOf(sql`
        SELECT kind, name, description, paper_ids, quota, created_at, updated_at
        FROM radar.reader_interests WHERE user_id = ${userId} ORDER BY id`),
      rowsOf(sql`
        SELECT frequency, weekday, hour, time_zone, email_enabled, paper_filters, news_filters,
               feed_token_hash IS NOT NULL AS has_feed, webhook_platform,
               webhook_url IS NOT NULL AS has_webhook, webhook_secret IS NOT NULL AS has_webhook_secret,
               last_slot_at AS last_digest_at, created_at, updated_at
        FROM radar.delivery_settings WHERE user_id = ${userId}`),
      rowsOf(sql`
        SELECT name, orcid, openalex_id, affiliation, paper_id AS followed_from_paper_id, created_at
        FROM radar.followed_authors WHERE user_id = ${userId} ORDER BY id`),
      rowsOf(sql`
        SELECT d.channel, d.item_kind, d.item_id, coalesce(p.title, n.title) AS title, NULL::text AS keyword,
               d.delivered_at
        FROM radar.delivered_items d
        LEFT JOIN radar.papers p ON d.item_kind = 'paper' AND p.id = d.item_id
        LEFT JOIN radar.news_items n ON d.item_kind = 'news' AND n.id = d.item_id
        WHERE d.user_id = ${userId}
        UNION ALL
        SELECT 'keyword_alert', 'paper', a.paper_id, p.title, k.name, a.sent_at
        FROM radar.keyword_alert_deliveries a
        JOIN radar.papers p ON p.id = a.paper_id
        LEFT JOIN radar.user_keywords k ON k.id = a.keyword_id AND k.user_id = a.user_id
        WHERE a.user_id = ${userId}
        ORDER BY delivered_at, item_id`),
    ]);
    return {
      keywords,
      articleStates,
      newsStates,
      feedback: ownFeedback,
      contactMessages,
      interests,
      delivery: delivery[0] ?? null,
      followedAuthors,
      deliveries,
    };
  }

  /** Disables the account (keeping the first time it was disabled); undefined when there is no such user. */
  async disable(userId: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ disabledAt: sql`coalesce(${users.disabledAt}, now())` })
      .where(eq(users.id, userId))
      .returning();
    return row;
  }

  async enable(userId: string): Promise<UserRow | undefined> {
    const [row] = await this.db.update(users).set({ disabledAt: null }).where(eq(users.id, userId)).returning();
    return row;
  }

  /**
   * Deletes the account and everything of it, in one transaction: keywords, article states, tasks,
   * verification codes, reset tokens and alert deliveries go by their ON DELETE CASCADE keys; feedback
   * keeps its author as SET NULL for other deletions, so a person's own feedback (whose `user_info`
   * holds their address) is deleted here first. Returns what was deleted, or undefined when the user
   * was not there.
   */
  async deleteWithOwnedRecords(userId: string): Promise<OwnedRecordCounts | undefined> {
    return this.db.transaction(async (tx) => {
      // Locks the row: nothing of this user can be added between the counts and the delete.
      const [locked] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      if (!locked) return undefined;
      const counts = await this.countOwnedRecords(userId, tx);
      await tx.delete(feedback).where(eq(feedback.userId, userId));
      await tx.delete(users).where(eq(users.id, userId));
      await this.forgetTraces(userId, tx);
      return counts;
    });
  }

  /**
   * What names the account outside its own rows, when it is kept in this database (no Redis): its
   * rate-limit counters (keys `<bucket>:<userId>`, `quota:<name>:<userId>`), and the job queue's history
   * in BullMQ's PostgreSQL schema: finished and pending jobs whose payload or deduplication id holds
   * the id (profile learning, profile embedding), their deduplication keys, and the queue events that
   * mention it. A job running at this moment is left to its worker (the account it works for is gone;
   * the finished job leaves with BullMQ's retention). With Redis, the same is done there right after
   * (forgetUserInQueues, forgetUserInRedis in @radar/jobs).
   */
  private async forgetTraces(userId: string, tx: Transaction) {
    const mention = `%${userId.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    await tx.delete(rateLimitCounters).where(like(rateLimitCounters.key, mention));
    const queueTables = await tx.execute<{ present: boolean }>(
      sql`SELECT to_regclass(${`${QUEUE_SCHEMA}.job`}) IS NOT NULL AS present`,
    );
    if (!queueTables.rows[0]?.present) return;
    const schema = sql.identifier(QUEUE_SCHEMA);
    await tx.execute(
      sql`DELETE FROM ${schema}.job WHERE state <> 'active' AND (data::text LIKE ${mention} OR coalesce(dedup_id, '') LIKE ${mention})`,
    );
    await tx.execute(sql`DELETE FROM ${schema}.dedup WHERE dedup_id LIKE ${mention}`);
    await tx.execute(
      sql`DELETE FROM ${schema}.dedup_next WHERE dedup_id LIKE ${mention} OR payload::text LIKE ${mention}`,
    );
    await tx.execute(sql`DELETE FROM ${schema}.event WHERE data::text LIKE ${mention}`);
  }
}
