import { createHash, randomBytes } from 'node:crypto';
import type { DeliveryRepository, DeliverySettingsRow, UserRepository, UserRow } from '@radar/db';
import {
  checkRobotWebhookUrl,
  MAIL_LINK_PURPOSES,
  type MailLinkTokens,
  maskRobotWebhookUrl,
  type RobotPlatform,
  RobotWebhookError,
  sendRobotDigest,
} from '@radar/mail';
import { collectDigestItems, type DigestItem, type RecommendationPipeline } from '@radar/recommend';
import {
  API_PATHS,
  apiPath,
  DEFAULT_TIME_ZONE,
  DELIVERY_LIMITS,
  type DeliveryFeedTokenResponse,
  type DeliveryNewsFilters,
  type DeliveryPaperFilters,
  type DeliverySettings,
  type DeliverySettingsUpdate,
  type DeliveryWebhookTestResponse,
  type DeliveryWebhookUpdate,
  WEBHOOK_PLATFORM_LABELS,
  type WebhookPlatform,
} from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from '../../errors';
import { atomFeedOf } from './atom-feed';
import { type BuiltFeed, FeedCache, type FeedDocument } from './feed-cache';

/** Feed tokens: 32 random bytes, base64url; only their SHA-256 is stored. */
const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashFeedToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A feed is rebuilt (the ranking pipeline run) at most once per reader in this time, however often it is
 * polled: feed readers poll every 15-60 minutes, and new items arrive with ingestion runs hours apart.
 */
const FEED_CACHE_TTL_MS = 5 * 60_000;
/** The built feeds kept, in characters: a feed of 50 entries is 20-60 k, so a few hundred readers' feeds. */
const FEED_CACHE_MAX_CHARS = 16 * 1024 * 1024;

/**
 * Delivery settings of the signed-in reader (schedule, mail, the robot webhook, the feed address), the
 * personal Atom feed, the digest's unsubscribe link and the webhook test. The scheduled deliveries
 * themselves run in the worker (packages/jobs delivery.job.ts).
 */
export class DeliveryService {
  private readonly feeds: FeedCache;

  constructor(
    private readonly deps: {
      deliveries: DeliveryRepository;
      users: Pick<UserRepository, 'findById'>;
      /** The ranking pipeline of /papers and /news, for a reader's time zone. */
      pipelineFor: (timeZone: string) => RecommendationPipeline;
      linkTokens: MailLinkTokens;
      webBaseUrl: () => string;
      /** WEBHOOK_TEST_ORIGIN: a local stand-in for the platforms, tests only. */
      webhookTestOrigin: string | undefined;
      logger: Logger;
      now?: (() => Date) | undefined;
    },
  ) {
    this.feeds = new FeedCache({
      ttlMs: FEED_CACHE_TTL_MS,
      maxChars: FEED_CACHE_MAX_CHARS,
      now: () => this.now().getTime(),
    });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async settings(user: UserRow): Promise<DeliverySettings> {
    const row = await this.deps.deliveries.findSettings(user.id);
    return this.present(user.id, row);
  }

  async saveSettings(user: UserRow, update: DeliverySettingsUpdate): Promise<DeliverySettings> {
    const row = await this.deps.deliveries.saveSchedule(user.id, {
      frequency: update.frequency,
      weekday: update.weekday,
      hour: update.hour,
      timeZone: update.time_zone,
      emailEnabled: update.email_enabled,
      paperFilters: update.paper_filters,
      newsFilters: update.news_filters,
    });
    // The feed shows the new filters and zone from the next poll on (in this process; others within the cache's time).
    this.feeds.dropReader(user.id);
    return this.present(user.id, row);
  }

  async saveWebhook(user: UserRow, update: DeliveryWebhookUpdate): Promise<DeliverySettings> {
    const checked = checkRobotWebhookUrl(update.platform, update.url, this.deps.webhookTestOrigin);
    if (!checked.ok) throw errors.validation(checked.message, { url: [checked.message] });
    await this.deps.deliveries.saveWebhook(user.id, {
      platform: update.platform,
      url: checked.url,
      secret: update.secret || null,
    });
    return this.settings(user);
  }

  async removeWebhook(user: UserRow): Promise<DeliverySettings> {
    await this.deps.deliveries.removeWebhook(user.id);
    return this.settings(user);
  }

  /** 发送测试消息: one message to the saved webhook, the platform's refusal said in Chinese (400). */
  async testWebhook(user: UserRow): Promise<DeliveryWebhookTestResponse> {
    const row = await this.deps.deliveries.findSettings(user.id);
    if (!row?.webhookUrl || !row.webhookPlatform) throw errors.badRequest('请先保存机器人 Webhook 地址');
    const platform = row.webhookPlatform as RobotPlatform;
    try {
      await sendRobotDigest(
        { platform, url: row.webhookUrl, secret: row.webhookSecret },
        {
          title: '科研雷达测试消息',
          intro: '机器人已连接。到了你设置的推送时间，这里会收到为你推荐的论文和资讯。',
          items: [],
          footer: { text: '在科研雷达中查看推荐', url: `${this.deps.webBaseUrl()}/papers` },
        },
        { now: this.now() },
      );
    } catch (error) {
      if (error instanceof RobotWebhookError) throw errors.badRequest(`测试消息发送失败：${error.message}`);
      throw error;
    }
    return { success: true, message: `测试消息已发送到${WEBHOOK_PLATFORM_LABELS[platform as WebhookPlatform]}` };
  }

  /** A new secret feed address; the previous one stops working. Shown once: only its hash is stored. */
  async regenerateFeed(user: UserRow): Promise<DeliveryFeedTokenResponse> {
    const token = randomBytes(32).toString('base64url');
    await this.deps.deliveries.setFeedTokenHash(user.id, hashFeedToken(token));
    return { feed_url: this.feedUrl(token) };
  }

  async revokeFeed(user: UserRow): Promise<DeliverySettings> {
    await this.deps.deliveries.setFeedTokenHash(user.id, null);
    return this.settings(user);
  }

  /**
   * The reader a feed token belongs to (one indexed lookup of its hash), undefined for a token that is
   * not (or no longer) a feed's. Looked up on every poll, so a regenerated or revoked address stops
   * working at once even while its feed is cached.
   */
  async feedReader(token: string): Promise<string | undefined> {
    if (!FEED_TOKEN.test(token)) return undefined;
    return this.deps.deliveries.findUserIdByFeedTokenHash(hashFeedToken(token));
  }

  /**
   * The Atom document of a feed token and its validators (ETag, Last-Modified), undefined for a token
   * that is not a feed's. Built at most once per reader per FEED_CACHE_TTL_MS (feed-cache.ts).
   * `readerId`: the token's reader when the caller has already looked it up (feedReader).
   */
  async feed(token: string, readerId?: string): Promise<FeedDocument | undefined> {
    const userId = readerId ?? (await this.feedReader(token));
    if (!userId) return undefined;
    return this.feeds.get(hashFeedToken(token), userId, () => this.buildFeed(token, userId));
  }

  private async buildFeed(token: string, userId: string): Promise<BuiltFeed | undefined> {
    const [user, row] = await Promise.all([
      this.deps.users.findById(userId),
      this.deps.deliveries.findSettings(userId),
    ]);
    if (!user) return undefined;
    // Its windows count the reader's calendar days in their own zone, as their digest mail's do.
    const pipeline = this.deps.pipelineFor(row?.timeZone ?? DEFAULT_TIME_ZONE);
    const { papers, news } = await collectDigestItems({ pipeline, logger: this.deps.logger }, user, {
      papers: (row?.paperFilters as DeliveryPaperFilters | null) ?? null,
      news: (row?.newsFilters as DeliveryNewsFilters | null) ?? null,
    });
    const entries: DigestItem[] = [
      ...papers.slice(0, DELIVERY_LIMITS.feedEntries - Math.min(news.length, 10)),
      ...news.slice(0, 10),
    ];
    const feedId = `urn:radar:feed:${createHash('sha256').update(`feed\n${userId}`).digest('hex').slice(0, 32)}`;
    const selfUrl = this.feedUrl(token);
    const webBaseUrl = this.deps.webBaseUrl();
    return {
      xml: atomFeedOf({ feedId, selfUrl, webBaseUrl, entries, now: this.now() }),
      content: JSON.stringify({ feedId, selfUrl, webBaseUrl, entries }),
    };
  }

  isUnsubscribeTokenValid(token: string): boolean {
    return this.deps.linkTokens.verify(MAIL_LINK_PURPOSES.digestUnsubscribe, token) !== undefined;
  }

  /** The digest mail's unsubscribe link: mail off (the schedule and webhook stay). False for a bad token. */
  async unsubscribe(token: string | undefined): Promise<boolean> {
    const userId = token ? this.deps.linkTokens.verify(MAIL_LINK_PURPOSES.digestUnsubscribe, token) : undefined;
    if (!userId) return false;
    await this.deps.deliveries.disableEmail(userId);
    return true;
  }

  private feedUrl(token: string): string {
    return `${this.deps.webBaseUrl()}${apiPath(API_PATHS.deliveryFeed, { token })}`;
  }

  private async present(userId: string, row: DeliverySettingsRow | undefined): Promise<DeliverySettings> {
    const next = row ? await this.deps.deliveries.nextSlot(userId, this.now()) : null;
    return {
      frequency: (row?.frequency ?? 'off') as DeliverySettings['frequency'],
      weekday: row?.weekday ?? 1,
      hour: row?.hour ?? 8,
      time_zone: row?.timeZone ?? DEFAULT_TIME_ZONE,
      email_enabled: row?.emailEnabled ?? true,
      paper_filters: (row?.paperFilters as DeliveryPaperFilters | null) ?? null,
      news_filters: (row?.newsFilters as DeliveryNewsFilters | null) ?? null,
      feed_enabled: Boolean(row?.feedTokenHash),
      webhook:
        row?.webhookUrl && row.webhookPlatform
          ? {
              platform: row.webhookPlatform as WebhookPlatform,
              url_hint: maskRobotWebhookUrl(row.webhookUrl),
              has_secret: Boolean(row.webhookSecret),
            }
          : null,
      next_delivery_at: next ? next.toISOString() : null,
      last_delivered_at: row?.lastSlotAt ? row.lastSlotAt.toISOString() : null,
    };
  }
}
