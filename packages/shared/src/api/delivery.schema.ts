import { z } from 'zod';
import { DATE_FILTER_LABELS, type DateFilterLabel, isTimeZone } from '../date-filters';
import { JCR_TIERS } from '../limits';
import { text } from './text.schema';

/**
 * Delivery of recommendations outside the site (not in the spec): the digest mail, the personal Atom
 * feed and a robot webhook (WeCom, Feishu, DingTalk), on one schedule per reader.
 */

export const DIGEST_FREQUENCIES = ['off', 'daily', 'weekly'] as const;

export const WEBHOOK_PLATFORMS = ['wecom', 'feishu', 'dingtalk'] as const;
export type WebhookPlatform = (typeof WEBHOOK_PLATFORMS)[number];

export const WEBHOOK_PLATFORM_LABELS: Record<WebhookPlatform, string> = {
  wecom: '企业微信群机器人',
  feishu: '飞书自定义机器人',
  dingtalk: '钉钉自定义机器人',
};

/** Limits of delivery (docs/decisions.md, "Issue 24: delivery"). */
export const DELIVERY_LIMITS = {
  /** Papers and news items in one digest (mail, webhook) at most. */
  digestPapers: 10,
  digestNews: 5,
  /** Entries of the Atom feed. */
  feedEntries: 30,
  webhookUrlMaxLength: 1000,
  webhookSecretMaxLength: 200,
} as const;

/**
 * The /papers and /news settings a digest ranks with (the web app keeps them in the browser and sends
 * them along when the reader saves the schedule). Absent: the spec's defaults.
 */
export const deliveryPaperFiltersSchema = z.object({
  threshold: z.number({ message: '相似度阈值必须是 0 到 1 之间的数字' }).min(0).max(1),
  excluded_jcr: z.array(z.union(JCR_TIERS.map((tier) => z.literal(tier)))).max(4),
  date_filter: z.array(z.enum(DATE_FILTER_LABELS as [DateFilterLabel, ...DateFilterLabel[]])).max(6),
});
export type DeliveryPaperFilters = z.infer<typeof deliveryPaperFiltersSchema>;

export const deliveryNewsFiltersSchema = deliveryPaperFiltersSchema.omit({ excluded_jcr: true });
export type DeliveryNewsFilters = z.infer<typeof deliveryNewsFiltersSchema>;

const timeZone = text('时区')
  .trim()
  .max(64, { message: '时区无效' })
  .refine((zone) => isTimeZone(zone), { message: '时区无效，请选择列表中的时区（如 Asia/Shanghai）' })
  .transform((zone) => new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone);

/** PUT /api/auth/delivery/: the schedule, the mail switch and the filters. */
export const deliverySettingsUpdateSchema = z.object({
  frequency: z.enum(DIGEST_FREQUENCIES, { message: '推送频率只能是 off、daily 或 weekly' }),
  /** ISO weekday of a weekly digest: 1 Monday ... 7 Sunday. */
  weekday: z
    .number({ message: '星期必须是 1（周一）到 7（周日）' })
    .int({ message: '星期必须是 1（周一）到 7（周日）' })
    .min(1, { message: '星期必须是 1（周一）到 7（周日）' })
    .max(7, { message: '星期必须是 1（周一）到 7（周日）' }),
  hour: z
    .number({ message: '推送时间必须是 0 到 23 点' })
    .int({ message: '推送时间必须是 0 到 23 点' })
    .min(0, { message: '推送时间必须是 0 到 23 点' })
    .max(23, { message: '推送时间必须是 0 到 23 点' }),
  time_zone: timeZone,
  email_enabled: z.boolean({ message: 'email_enabled 必须是 true 或 false' }),
  paper_filters: deliveryPaperFiltersSchema.nullable().optional(),
  news_filters: deliveryNewsFiltersSchema.nullable().optional(),
});
export type DeliverySettingsUpdate = z.infer<typeof deliverySettingsUpdateSchema>;

/** PUT /api/auth/delivery/webhook/: the address the reader pasted, and the signing secret where the platform signs. */
export const deliveryWebhookUpdateSchema = z.object({
  platform: z.enum(WEBHOOK_PLATFORMS, { message: '请选择平台：企业微信、飞书或钉钉' }),
  url: text('Webhook 地址')
    .trim()
    .min(1, { message: '请填写 Webhook 地址' })
    .max(DELIVERY_LIMITS.webhookUrlMaxLength, { message: 'Webhook 地址太长' }),
  secret: text('签名密钥').trim().max(DELIVERY_LIMITS.webhookSecretMaxLength, { message: '签名密钥太长' }).optional(),
});
export type DeliveryWebhookUpdate = z.infer<typeof deliveryWebhookUpdateSchema>;

export const deliverySettingsSchema = z.object({
  frequency: z.enum(DIGEST_FREQUENCIES),
  weekday: z.number().int(),
  hour: z.number().int(),
  time_zone: z.string(),
  email_enabled: z.boolean(),
  paper_filters: deliveryPaperFiltersSchema.nullable(),
  news_filters: deliveryNewsFiltersSchema.nullable(),
  /** Whether a feed address exists; the address itself is shown only when it is made (it is stored hashed). */
  feed_enabled: z.boolean(),
  /** The saved webhook: its platform and the address with its key masked; the secret is never returned. */
  webhook: z.object({ platform: z.enum(WEBHOOK_PLATFORMS), url_hint: z.string(), has_secret: z.boolean() }).nullable(),
  /** The next slot the digest goes out at (ISO), null when off. */
  next_delivery_at: z.string().nullable(),
  /** The last slot delivered (ISO), null before the first. */
  last_delivered_at: z.string().nullable(),
});
export type DeliverySettings = z.infer<typeof deliverySettingsSchema>;

export const deliveryFeedTokenResponseSchema = z.object({ feed_url: z.string() });
export type DeliveryFeedTokenResponse = z.infer<typeof deliveryFeedTokenResponseSchema>;

export const deliveryWebhookTestResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export type DeliveryWebhookTestResponse = z.infer<typeof deliveryWebhookTestResponseSchema>;

export const deliveryUnsubscribeQuerySchema = z.object({
  token: text('退订链接').max(500, { message: '退订链接无效' }).optional(),
});

export const deliveryFeedParamsSchema = z.object({
  token: text('订阅地址').max(200, { message: '订阅地址无效' }),
});
