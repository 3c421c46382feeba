import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { deliverySettings } from '../schema';
import { isSealed, type StoredSecrets } from '../stored-secrets';

export type DeliverySettingsRow = typeof deliverySettings.$inferSelect;
export type DeliveryChannel = 'email' | 'webhook';
export type DeliveredItemKind = 'paper' | 'news';

/** A paper or news item as the deliveries table keys it. */
export interface DeliveredItemKey {
  kind: DeliveredItemKind;
  id: number;
}

/** The schedule and mail settings a reader saves (the webhook and feed token have their own calls). */
export interface DeliveryScheduleChange {
  frequency: 'off' | 'daily' | 'weekly';
  weekday: number;
  hour: number;
  timeZone: string;
  emailEnabled: boolean;
  paperFilters?: unknown;
  newsFilters?: unknown;
}

/** A reader whose slot has come, as a run claimed it. */
export interface DeliveryClaim {
  settings: DeliverySettingsRow;
  /** The slot's instant (the reader's hour in their zone). */
  slot: Date;
  /** The slot delivered before this one (null: the first); "new since" for the preprint notices. */
  previousSlot: Date | null;
  email: string;
}

/** An item's key within one reader's channel. */
const deliveredItemKey = (item: DeliveredItemKey) => `${item.kind}:${item.id}`;

/** The key deliveredAmong and recordDelivered answer with: the reader, the channel and the item. */
export const deliveryKey = (userId: string, channel: DeliveryChannel, item: DeliveredItemKey) =>
  `${userId}|${channel}|${deliveredItemKey(item)}`;

/** Rows of radar.delivered_items as the keys deliveredAmong and recordDelivered answer with. */
const deliveryKeysOf = (rows: readonly DeliveredRow[]) =>
  new Set(
    rows.map((row) =>
      deliveryKey(row.user_id, row.channel, { kind: row.item_kind as DeliveredItemKind, id: Number(row.item_id) }),
    ),
  );

type DeliveredRow = { user_id: string; channel: DeliveryChannel; item_kind: string; item_id: string };

/** Items of one reader on one channel (deliveredAmong, recordDelivered: several readers in one statement). */
export interface ReaderChannelItems {
  userId: string;
  channel: DeliveryChannel;
  items: DeliveredItemKey[];
}

/** One row per reader, channel and item, as jsonb_to_recordset reads it. */
const itemRecords = (entries: readonly ReaderChannelItems[]) =>
  JSON.stringify(
    entries.flatMap((entry) =>
      entry.items.map((item) => ({ user_id: entry.userId, channel: entry.channel, kind: item.kind, id: item.id })),
    ),
  );

/** Only accounts that can sign in get deliveries: verified, with a password, not disabled (as alert mails). */
const deliverableUser = sql`u.is_email_verified AND u.password_hash IS NOT NULL AND u.disabled_at IS NULL`;

/**
 * The latest slot at or before `now` of a settings row `d`: its hour on today's (daily) or on its
 * weekday's (weekly) calendar day in its zone, a period earlier when that is still ahead.
 */
const latestSlot = (now: string) => sql`(
  WITH l AS (SELECT (${now}::timestamptz AT TIME ZONE d.time_zone) AS local_now),
  s AS (
    SELECT l.local_now,
           date_trunc('day', l.local_now)
             - make_interval(days => CASE WHEN d.frequency = 'weekly'
                                          THEN ((extract(isodow FROM l.local_now)::int - d.weekday + 7) % 7) ELSE 0 END)
             + make_interval(hours => d.hour) AS slot_local
    FROM l
  )
  SELECT (CASE WHEN s.slot_local > s.local_now
               THEN s.slot_local - CASE WHEN d.frequency = 'weekly' THEN interval '7 days' ELSE interval '1 day' END
               ELSE s.slot_local END) AT TIME ZONE d.time_zone
  FROM s)`;

/**
 * Delivery settings (radar.delivery_settings) and the record of delivered items
 * (radar.delivered_items): the digest mail, the Atom feed and the robot webhook.
 */
export class DeliveryRepository {
  /**
   * `secrets` seals the robot webhook's address and signing secret at rest (StoredSecrets). Without it
   * (a worker without JWT_SECRET) sealed webhooks read as absent and none can be saved.
   */
  constructor(
    private readonly db: Database,
    private readonly secrets?: StoredSecrets | undefined,
  ) {}

  /**
   * The reader's settings with the webhook's address and secret in clear. When they cannot be opened
   * (sealed under another server secret, or no secret here) both read as null while the platform stays,
   * so a caller can tell "unreadable" from "none". Values stored in clear before sealing began are read
   * as they are and sealed here, once (a conditional update: a save in between wins).
   */
  async findSettings(userId: string): Promise<DeliverySettingsRow | undefined> {
    const [row] = await this.db.select().from(deliverySettings).where(eq(deliverySettings.userId, userId)).limit(1);
    return row && this.opened(row);
  }

  /** findSettings for several readers in one statement (a delivery batch); readers without settings are left out. */
  private async findSettingsOf(userIds: readonly string[]): Promise<DeliverySettingsRow[]> {
    if (userIds.length === 0) return [];
    const rows = await this.db
      .select()
      .from(deliverySettings)
      .where(inArray(deliverySettings.userId, [...userIds]));
    return Promise.all(rows.map((row) => this.opened(row)));
  }

  /** The row with its webhook opened (and sealed at rest when it was stored in clear), as findSettings says. */
  private async opened(row: DeliverySettingsRow): Promise<DeliverySettingsRow> {
    if (!row.webhookUrl) return row;
    const { userId } = row;
    const url = this.openStored(row.webhookUrl, 'webhook_url', userId);
    const secret = row.webhookSecret === null ? null : this.openStored(row.webhookSecret, 'webhook_secret', userId);
    if (url === undefined || secret === undefined) return { ...row, webhookUrl: null, webhookSecret: null };
    const inClear = !isSealed(row.webhookUrl) || (row.webhookSecret !== null && !isSealed(row.webhookSecret));
    if (inClear && this.secrets) {
      await this.db.execute(
        sql`UPDATE radar.delivery_settings
            SET webhook_url = ${this.seal(url, 'webhook_url', userId)},
                webhook_secret = ${secret === null ? null : this.seal(secret, 'webhook_secret', userId)}
            WHERE user_id = ${userId} AND webhook_url = ${row.webhookUrl}
              AND webhook_secret IS NOT DISTINCT FROM ${row.webhookSecret}`,
      );
    }
    return { ...row, webhookUrl: url, webhookSecret: secret };
  }

  /**
   * Saves the schedule, the mail switch and the filters (filters left undefined stay as they are). A
   * changed schedule moves schedule_set_at to now, so no slot before the change is delivered late.
   */
  async saveSchedule(userId: string, change: DeliveryScheduleChange): Promise<DeliverySettingsRow> {
    const paper = change.paperFilters === undefined ? null : JSON.stringify(change.paperFilters);
    const news = change.newsFilters === undefined ? null : JSON.stringify(change.newsFilters);
    const result = await this.db.execute<{ user_id: string }>(
      sql`INSERT INTO radar.delivery_settings AS d
            (user_id, frequency, weekday, hour, time_zone, email_enabled, paper_filters, news_filters)
          VALUES (${userId}, ${change.frequency}, ${change.weekday}, ${change.hour}, ${change.timeZone},
                  ${change.emailEnabled}, ${paper}::jsonb, ${news}::jsonb)
          ON CONFLICT (user_id) DO UPDATE SET
            frequency = excluded.frequency, weekday = excluded.weekday, hour = excluded.hour,
            time_zone = excluded.time_zone, email_enabled = excluded.email_enabled,
            paper_filters = CASE WHEN ${change.paperFilters === undefined} THEN d.paper_filters ELSE excluded.paper_filters END,
            news_filters = CASE WHEN ${change.newsFilters === undefined} THEN d.news_filters ELSE excluded.news_filters END,
            schedule_set_at = CASE WHEN (d.frequency, d.weekday, d.hour, d.time_zone)
                                        IS DISTINCT FROM (excluded.frequency, excluded.weekday, excluded.hour, excluded.time_zone)
                                   THEN now() ELSE d.schedule_set_at END,
            updated_at = now()
          RETURNING user_id`,
    );
    const row = result.rows[0] && (await this.findSettings(userId));
    if (!row) throw new Error('delivery settings not saved');
    return row;
  }

  /** Saves the robot webhook, its address and signing secret sealed (StoredSecrets). */
  async saveWebhook(userId: string, webhook: { platform: string; url: string; secret: string | null }): Promise<void> {
    const url = this.seal(webhook.url, 'webhook_url', userId);
    const secret = webhook.secret === null ? null : this.seal(webhook.secret, 'webhook_secret', userId);
    await this.db.execute(
      sql`INSERT INTO radar.delivery_settings (user_id, webhook_platform, webhook_url, webhook_secret)
          VALUES (${userId}, ${webhook.platform}, ${url}, ${secret})
          ON CONFLICT (user_id) DO UPDATE SET webhook_platform = excluded.webhook_platform,
            webhook_url = excluded.webhook_url, webhook_secret = excluded.webhook_secret, updated_at = now()`,
    );
  }

  async removeWebhook(userId: string): Promise<void> {
    await this.db.execute(
      sql`UPDATE radar.delivery_settings
          SET webhook_platform = NULL, webhook_url = NULL, webhook_secret = NULL, updated_at = now()
          WHERE user_id = ${userId}`,
    );
  }

  /** Replaces the feed token's hash (null: no feed); the previous address stops working at once. */
  async setFeedTokenHash(userId: string, hash: string | null): Promise<void> {
    await this.db.execute(
      sql`INSERT INTO radar.delivery_settings (user_id, feed_token_hash) VALUES (${userId}, ${hash})
          ON CONFLICT (user_id) DO UPDATE SET feed_token_hash = excluded.feed_token_hash, updated_at = now()`,
    );
  }

  /** The reader a feed token's hash belongs to, when their account can sign in. */
  async findUserIdByFeedTokenHash(hash: string): Promise<string | undefined> {
    const result = await this.db.execute<{ user_id: string }>(
      sql`SELECT d.user_id FROM radar.delivery_settings d JOIN radar.users u ON u.id = d.user_id
          WHERE d.feed_token_hash = ${hash} AND ${deliverableUser}`,
    );
    return result.rows[0]?.user_id;
  }

  /** The unsubscribe link: no more digest mails (the schedule and the webhook stay). Whether it was on. */
  async disableEmail(userId: string): Promise<boolean> {
    const result = await this.db.execute<{ user_id: string }>(
      sql`UPDATE radar.delivery_settings SET email_enabled = false, updated_at = now()
          WHERE user_id = ${userId} AND email_enabled RETURNING user_id`,
    );
    return result.rows.length > 0;
  }

  /** The slot a row would deliver at next after `now` (for the settings screen), null when off. */
  async nextSlot(userId: string, now: Date): Promise<Date | null> {
    const result = await this.db.execute<{ next: string | null }>(
      sql`SELECT CASE WHEN d.frequency = 'off' THEN NULL
                      ELSE to_char((${latestSlot(now.toISOString())}
                             + CASE WHEN d.frequency = 'weekly' THEN interval '7 days' ELSE interval '1 day' END)
                             AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END AS next
          FROM radar.delivery_settings d WHERE d.user_id = ${userId}`,
    );
    const next = result.rows[0]?.next;
    return next ? new Date(next) : null;
  }

  /**
   * Readers whose latest slot has come and was not taken yet: a channel on (mail or a webhook), the slot
   * within `graceHours` of `now` (a worker that was down does not send yesterday's digest at noon) and
   * after the schedule was set. Longest waiting first.
   */
  async listDue(now: Date, graceHours: number, limit: number): Promise<{ userId: string; slot: Date }[]> {
    const result = await this.db.execute<{ user_id: string; slot: string }>(
      sql`SELECT x.user_id, to_char(x.slot AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS slot
          FROM (
            SELECT d.user_id, d.last_slot_at, d.schedule_set_at, ${latestSlot(now.toISOString())} AS slot
            FROM radar.delivery_settings d JOIN radar.users u ON u.id = d.user_id
            WHERE d.frequency <> 'off' AND (d.email_enabled OR d.webhook_url IS NOT NULL) AND ${deliverableUser}
          ) x
          WHERE x.slot > ${now.toISOString()}::timestamptz - make_interval(hours => ${graceHours})
            AND x.slot >= x.schedule_set_at
            AND (x.last_slot_at IS NULL OR x.last_slot_at < x.slot)
          ORDER BY x.last_slot_at ASC NULLS FIRST, x.user_id
          LIMIT ${Math.max(1, Math.trunc(limit))}`,
    );
    return result.rows.map((row) => ({ userId: row.user_id, slot: new Date(row.slot) }));
  }

  /**
   * Takes the readers' slots: one conditional update for all of them, so of two runs (or workers) only
   * one gets each reader. Readers another run took first are left out of the answer.
   */
  async claimSlots(due: readonly { userId: string; slot: Date }[]): Promise<DeliveryClaim[]> {
    if (due.length === 0) return [];
    const slots = JSON.stringify(due.map((entry) => ({ user_id: entry.userId, slot: entry.slot.toISOString() })));
    // The subquery locks the rows (in a stable order, so two runs over the same readers cannot deadlock)
    // and reads the previous slot, which RETURNING alone would give as the new value.
    const result = await this.db.execute<{ user_id: string; slot: string; previous: string | null; email: string }>(
      sql`UPDATE radar.delivery_settings d SET last_slot_at = p.slot
          FROM (SELECT s.user_id, s.last_slot_at AS previous, x.slot
                FROM radar.delivery_settings s
                JOIN jsonb_to_recordset(${slots}::jsonb) AS x(user_id uuid, slot timestamptz) ON x.user_id = s.user_id
                ORDER BY s.user_id
                FOR UPDATE OF s) p,
               radar.users u
          WHERE d.user_id = p.user_id AND u.id = d.user_id
            AND (d.last_slot_at IS NULL OR d.last_slot_at < p.slot)
          RETURNING d.user_id::text AS user_id,
                    to_char(p.slot AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS slot,
                    to_char(p.previous AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS previous, u.email`,
    );
    const settings = new Map(
      (await this.findSettingsOf(result.rows.map((row) => row.user_id))).map((row) => [row.userId, row]),
    );
    return result.rows.flatMap((claimed) => {
      const row = settings.get(claimed.user_id);
      if (!row) return [];
      return [
        {
          settings: row,
          slot: new Date(claimed.slot),
          previousSlot: claimed.previous ? new Date(claimed.previous) : null,
          email: claimed.email,
        },
      ];
    });
  }

  /**
   * Which of these items were already delivered, for several readers and channels in one statement:
   * the keys (deliveryKey) of those delivered.
   */
  async deliveredAmong(entries: readonly ReaderChannelItems[]): Promise<Set<string>> {
    if (entries.every((entry) => entry.items.length === 0)) return new Set();
    const result = await this.db.execute<DeliveredRow>(
      sql`SELECT i.user_id::text AS user_id, i.channel, i.item_kind, i.item_id::text AS item_id
          FROM radar.delivered_items i
          JOIN jsonb_to_recordset(${itemRecords(entries)}::jsonb) AS x(user_id uuid, channel text, kind text, id bigint)
            ON x.user_id = i.user_id AND x.channel = i.channel AND x.kind = i.item_kind AND x.id = i.item_id`,
    );
    return deliveryKeysOf(result.rows);
  }

  /**
   * Records items as delivered, for several readers and channels in one multi-row insert; returns the
   * keys (deliveryKey) this call recorded (an item another run recorded meanwhile is left out: the
   * primary key keeps each item to one delivery per reader and channel).
   */
  async recordDelivered(entries: readonly ReaderChannelItems[]): Promise<Set<string>> {
    if (entries.every((entry) => entry.items.length === 0)) return new Set();
    const result = await this.db.execute<DeliveredRow>(
      sql`INSERT INTO radar.delivered_items (user_id, channel, item_kind, item_id)
          SELECT x.user_id, x.channel, x.kind, x.id
          FROM jsonb_to_recordset(${itemRecords(entries)}::jsonb) AS x(user_id uuid, channel text, kind text, id bigint)
          ON CONFLICT DO NOTHING
          RETURNING user_id::text AS user_id, channel, item_kind, item_id::text AS item_id`,
    );
    return deliveryKeysOf(result.rows);
  }

  /** Undoes recordDelivered for a send that failed, so the items can go in the next digest. */
  async releaseDelivered(userId: string, channel: DeliveryChannel, items: DeliveredItemKey[]): Promise<void> {
    if (items.length === 0) return;
    const keys = JSON.stringify(items.map((item) => ({ kind: item.kind, id: item.id })));
    await this.db.execute(
      sql`DELETE FROM radar.delivered_items i USING jsonb_to_recordset(${keys}::jsonb) AS x(kind text, id bigint)
          WHERE i.user_id = ${userId} AND i.channel = ${channel} AND i.item_kind = x.kind AND i.item_id = x.id`,
    );
  }

  /** A column's value sealed for this reader's row (the column and reader are its associated data). */
  private seal(plain: string, column: string, userId: string): string {
    if (!this.secrets) throw new Error('a webhook cannot be stored without the server secret');
    return this.secrets.seal(plain, `delivery_settings.${column}:${userId}`);
  }

  /** A stored value in clear; undefined when sealed and not openable here. */
  private openStored(stored: string, column: string, userId: string): string | undefined {
    if (!this.secrets) return isSealed(stored) ? undefined : stored;
    return this.secrets.open(stored, `delivery_settings.${column}:${userId}`);
  }

  /** The papers' stored LLM summaries (after the digest asked for missing ones). */
  async paperSummaries(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const result = await this.db.execute<{ id: string; llm_summary: string }>(
      sql`SELECT id::text AS id, llm_summary FROM radar.papers
          WHERE id = ANY(string_to_array(${ids.join(',')}, ',')::bigint[]) AND llm_summary IS NOT NULL AND llm_summary <> ''`,
    );
    return new Map(result.rows.map((row) => [Number(row.id), row.llm_summary]));
  }
}
