import {
  type ArticleRepository,
  type DeliveredItemKey,
  type DeliveryChannel,
  type DeliveryClaim,
  type DeliveryRepository,
  deliveredItemKey,
  type UserRepository,
  type UserRow,
} from '@radar/db';
import { MAIL_LINK_PURPOSES, MailLinkTokens, type RobotPlatform, sendRobotDigest } from '@radar/mail';
import {
  collectDigestItems,
  type DigestFilters,
  type DigestItem,
  noPublishedPreprints,
  type PublishedPreprintsProvider,
  type RecommendationPipeline,
} from '@radar/recommend';
import {
  API_PATHS,
  DELIVERY_LIMITS,
  type DeliveryJob,
  type DeliveryNewsFilters,
  type DeliveryPaperFilters,
} from '@radar/shared';
import type { Logger } from 'pino';
import { type DigestContent, digestMail, digestRobotMessage } from './delivery-digest-mail';
import type { KeywordAlertMailSettings } from './keyword-alerts.job';

/**
 * Delivery of recommendations (queue `delivery`, hourly). A reader whose slot has come (their hour in
 * their time zone, every day or on their weekday) gets the top recommendations of the ranking pipeline,
 * with their saved /papers and /news filters, that were never delivered to them on that channel: by
 * mail (with a one-click unsubscribe link) and to their robot webhook.
 *
 * At most once per item, reader and channel: a run takes the reader's slot with one conditional update
 * (a second run or worker finds it taken), and each channel records its items in delivered_items
 * (primary key: reader, channel, item) before sending. A send that fails releases its items, so they
 * can go in the next digest; the slot itself is not retried (the reader gets one message per period).
 */

/** Slots older than this are skipped (a worker down for a day does not send yesterday's digest at noon). */
const GRACE_HOURS = 3;
const READERS_PER_RUN = 500;

export interface DeliveryRunResult {
  outcome: 'success' | 'skipped';
  reason?: string;
  /** Readers whose slot this run took. */
  readers: number;
  mailed: number;
  pushed: number;
  /** Mails or pushes that failed (their items released for the next digest). */
  failed: number;
}

export interface DeliveryDeps {
  deliveries: DeliveryRepository;
  users: Pick<UserRepository, 'findById'>;
  /** The ranking pipeline of /papers and /news, for a reader's time zone (their windows count its days). */
  pipelineFor: (timeZone: string) => RecommendationPipeline;
  /** Mailer, web address and link secret; without them no mail goes out (webhooks still do). */
  mail: KeywordAlertMailSettings | undefined;
  /** Asks the LLM for the summaries these papers lack (LLM_SUMMARY_LANGUAGE, Chinese by default); absent without an LLM. */
  summarizePapers?: ((ids: number[]) => Promise<void>) | undefined;
  /**
   * The reader's favourited or saved preprints whose journal version arrived since their previous slot.
   * Lists none until the article repository's method is wired here (issue 24, "preprint published").
   */
  publishedPreprints?: PublishedPreprintsProvider | undefined;
  logger?: Logger | undefined;
  now?: () => Date;
}

/** The settings' stored filters, read defensively (jsonb written by this app, but never trusted blindly). */
function filtersOf(claim: DeliveryClaim): DigestFilters {
  return {
    papers: (claim.settings.paperFilters as DeliveryPaperFilters | null) ?? null,
    news: (claim.settings.newsFilters as DeliveryNewsFilters | null) ?? null,
  };
}

const keyOf = (item: DigestItem): DeliveredItemKey => ({ kind: item.kind, id: item.id });

/** The first `limit` items not yet delivered on the channel. */
function undelivered(items: DigestItem[], delivered: Set<string>, limit: number): DigestItem[] {
  return items.filter((item) => !delivered.has(deliveredItemKey(keyOf(item)))).slice(0, limit);
}

/** One run over the readers whose slot has come. Safe to run twice, or in two workers at once. */
export async function deliverDueDigests(deps: DeliveryDeps): Promise<DeliveryRunResult> {
  const now = deps.now?.() ?? new Date();
  const result: DeliveryRunResult = { outcome: 'success', readers: 0, mailed: 0, pushed: 0, failed: 0 };
  const tokens = deps.mail ? new MailLinkTokens(deps.mail.linkSecret) : undefined;
  for (const due of await deps.deliveries.listDue(now, GRACE_HOURS, READERS_PER_RUN)) {
    const claim = await deps.deliveries.claimSlot(due.userId, due.slot);
    if (!claim) continue;
    result.readers++;
    const user = await deps.users.findById(due.userId);
    if (!user) continue;
    const outcome = await deliverToReader(deps, claim, user, tokens).catch((error: Error) => {
      deps.logger?.warn({ userId: user.id, err: error.message }, 'delivery failed for a reader');
      return { mailed: 0, pushed: 0, failed: 1 };
    });
    result.mailed += outcome.mailed;
    result.pushed += outcome.pushed;
    result.failed += outcome.failed;
  }
  return result;
}

async function deliverToReader(
  deps: DeliveryDeps,
  claim: DeliveryClaim,
  user: UserRow,
  tokens: MailLinkTokens | undefined,
): Promise<{ mailed: number; pushed: number; failed: number }> {
  const { settings } = claim;
  const frequency = settings.frequency === 'weekly' ? 'weekly' : 'daily';
  if (settings.webhookPlatform && !settings.webhookUrl) {
    // Sealed under another server secret (JWT_SECRET changed) or this worker has none: the reader has to
    // paste the address again. Never the stored value in the log.
    deps.logger?.warn({ userId: user.id }, 'robot webhook cannot be read with this server secret; not pushed');
  }
  const channels: DeliveryChannel[] = [
    ...(settings.emailEnabled && deps.mail ? (['email'] as const) : []),
    ...(settings.webhookUrl && settings.webhookPlatform ? (['webhook'] as const) : []),
  ];
  const outcome = { mailed: 0, pushed: 0, failed: 0 };
  if (channels.length === 0) return outcome;
  const ranked = await collectDigestItems(
    { pipeline: deps.pipelineFor(settings.timeZone), logger: deps.logger },
    user,
    filtersOf(claim),
  );
  const publishedPreprints = await (deps.publishedPreprints ?? noPublishedPreprints)(user.id, claim.previousSlot);

  // Each channel's picks, recorded before anything is sent.
  const picks = new Map<DeliveryChannel, { papers: DigestItem[]; news: DigestItem[] }>();
  for (const channel of channels) {
    const delivered = await deps.deliveries.deliveredAmong(
      user.id,
      channel,
      [...ranked.papers, ...ranked.news].map(keyOf),
    );
    const papers = undelivered(ranked.papers, delivered, DELIVERY_LIMITS.digestPapers);
    const news = undelivered(ranked.news, delivered, DELIVERY_LIMITS.digestNews);
    if (papers.length + news.length + publishedPreprints.length === 0) continue;
    const recorded = await deps.deliveries.recordDelivered(user.id, channel, [...papers, ...news].map(keyOf));
    const isRecorded = (item: DigestItem) => recorded.has(deliveredItemKey(keyOf(item)));
    picks.set(channel, { papers: papers.filter(isRecorded), news: news.filter(isRecorded) });
  }
  if (picks.size === 0) return outcome;

  const summaries = await summariesOf(
    deps,
    [...picks.values()].flatMap((pick) => pick.papers),
  );
  const withSummary = (item: DigestItem): DigestItem => ({ ...item, summary: summaries.get(item.id) ?? item.summary });
  const webBaseUrl = deps.mail?.webBaseUrl() ?? '';

  for (const [channel, pick] of picks) {
    const content: DigestContent = {
      frequency,
      papers: pick.papers.map(withSummary),
      news: pick.news,
      publishedPreprints,
      webBaseUrl,
    };
    if (content.papers.length + content.news.length + publishedPreprints.length === 0) continue;
    try {
      if (channel === 'email' && deps.mail && tokens) {
        const token = tokens.sign(MAIL_LINK_PURPOSES.digestUnsubscribe, user.id);
        const unsubscribeUrl = `${webBaseUrl}${API_PATHS.deliveryUnsubscribe}?token=${encodeURIComponent(token)}`;
        await deps.mail.mailer.send(digestMail({ ...content, to: claim.email, unsubscribeUrl }));
        outcome.mailed++;
      } else if (channel === 'webhook' && settings.webhookUrl && settings.webhookPlatform) {
        await sendRobotDigest(
          {
            platform: settings.webhookPlatform as RobotPlatform,
            url: settings.webhookUrl,
            secret: settings.webhookSecret,
          },
          digestRobotMessage(content),
        );
        outcome.pushed++;
      }
    } catch (error) {
      outcome.failed++;
      // The reader's id, never the address or the webhook URL (both carry credentials or personal data).
      const { message, code } = error as Error & { code?: string };
      deps.logger?.warn(
        { userId: user.id, channel, code, err: String(message).replace(/\S+@\S+/g, '[address]') },
        'delivery not sent; its items go in the next digest',
      );
      await deps.deliveries
        .releaseDelivered(user.id, channel, [...pick.papers, ...pick.news].map(keyOf))
        .catch((releaseError: Error) =>
          deps.logger?.error({ userId: user.id, err: releaseError.message }, 'delivered items not released'),
        );
    }
  }
  return outcome;
}

/** LLM summaries of the picked papers that lack one (asked for once, for all channels); none without an LLM. */
async function summariesOf(deps: DeliveryDeps, papers: DigestItem[]): Promise<Map<number, string>> {
  const missing = [...new Set(papers.filter((paper) => !paper.summary).map((paper) => paper.id))];
  if (missing.length === 0 || !deps.summarizePapers) return new Map();
  try {
    await deps.summarizePapers(missing);
  } catch (error) {
    deps.logger?.warn({ err: (error as Error).message }, 'digest summaries not made; sent without them');
    return new Map();
  }
  return deps.deliveries.paperSummaries(missing);
}

export function createDeliveryProcessor(deps: DeliveryDeps) {
  // The payload (empty) was parsed by the worker (createWorker).
  return async (_job: { data: DeliveryJob }): Promise<DeliveryRunResult> => {
    const result = await deliverDueDigests(deps);
    if (result.mailed || result.pushed || result.failed) deps.logger?.info(result, 'digests delivered');
    return result;
  };
}

/** A reader's first digest names the preprints whose journal version arrived in the week before it. */
const FIRST_DIGEST_LOOKBACK_MS = 7 * 86_400_000;

/**
 * The digest's "你收藏的预印本已正式发表" notices from the reader's library: the favourited or saved
 * preprints whose journal version arrived since their previous digest, linked to the journal version.
 */
export function publishedPreprintsOf(
  articles: Pick<ArticleRepository, 'listPublishedPreprints'>,
): PublishedPreprintsProvider {
  return async (userId, since) => {
    const papers = await articles.listPublishedPreprints(
      userId,
      since ?? new Date(Date.now() - FIRST_DIGEST_LOOKBACK_MS),
    );
    return papers.map((paper) => ({
      paperId: paper.id,
      title: paper.title,
      journalName: paper.journalName,
      url: paper.doi ? `https://doi.org/${paper.doi}` : paper.url,
    }));
  };
}
