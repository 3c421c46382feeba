import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  jsonb,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, radar, updatedAt } from './columns';
import { ownerColumn, ownerKeyColumn } from './users';

/**
 * How a reader gets recommendations outside the site (migration 0023): the digest schedule (off, daily,
 * weekly on `weekday`, at `hour` in `time_zone`), whether it is mailed, the /papers and /news filters it
 * ranks with, the Atom feed's token (SHA-256, never the token) and the robot webhook.
 */
export const deliverySettings = radar.table(
  'delivery_settings',
  {
    userId: ownerKeyColumn(),
    frequency: text('frequency').notNull().default('off'),
    weekday: smallint('weekday').notNull().default(1),
    hour: smallint('hour').notNull().default(8),
    timeZone: text('time_zone').notNull().default('Asia/Shanghai'),
    emailEnabled: boolean('email_enabled').notNull().default(true),
    paperFilters: jsonb('paper_filters'),
    newsFilters: jsonb('news_filters'),
    feedTokenHash: text('feed_token_hash'),
    webhookPlatform: text('webhook_platform'),
    /** Sealed (StoredSecrets: AES-256-GCM under a key derived from the server secret); rows saved before that: clear. */
    webhookUrl: text('webhook_url'),
    /** The platform's signing secret (Feishu, DingTalk), sealed like the address; never returned by the API. */
    webhookSecret: text('webhook_secret'),
    /** When the schedule last changed: slots before it are not delivered (no digest right after saving). */
    scheduleSetAt: timestamp('schedule_set_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last slot taken by a delivery run. */
    lastSlotAt: timestamp('last_slot_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('delivery_settings_feed_token_hash_key').on(t.feedTokenHash),
    index('delivery_settings_due_idx').on(t.frequency).where(sql`${t.frequency} <> 'off'`),
    check('delivery_settings_frequency_check', sql`${t.frequency} IN ('off', 'daily', 'weekly')`),
    check('delivery_settings_weekday_check', sql`${t.weekday} BETWEEN 1 AND 7`),
    check('delivery_settings_hour_check', sql`${t.hour} BETWEEN 0 AND 23`),
    check('delivery_settings_webhook_platform_check', sql`${t.webhookPlatform} IN ('wecom', 'feishu', 'dingtalk')`),
  ],
);

/** Each paper or news item delivered to a reader on a channel (email, webhook): at most once, by the key. */
export const deliveredItems = radar.table(
  'delivered_items',
  {
    userId: ownerColumn(),
    channel: text('channel').notNull(),
    itemKind: text('item_kind').notNull(),
    itemId: bigint('item_id', { mode: 'number' }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'delivered_items_pk', columns: [t.userId, t.channel, t.itemKind, t.itemId] }),
    index('delivered_items_delivered_at_idx').on(t.deliveredAt),
    check('delivered_items_channel_check', sql`${t.channel} IN ('email', 'webhook')`),
    check('delivered_items_item_kind_check', sql`${t.itemKind} IN ('paper', 'news')`),
  ],
);
