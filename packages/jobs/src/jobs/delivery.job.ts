import {
  type ArticleRepository,
  type DeliveredItemKey,
  type DeliveryChannel,
  type DeliveryClaim,
  type DeliveryRepository,
  deliveryKey,
  type ReaderChannelItems,
  type UserRepository,
  type UserRow,
} from '@radar/db';
import { summarizePapers } from '@radar/ingest';
import { MAIL_LINK_PURPOSES, MailLinkTokens, type RobotPlatform, sendRobotDigest } from '@radar/mail';
import {
  collectDigestItems,
  type DigestFilters,
  type DigestItem,
  noPublishedPreprints,
  type PublishedPreprintNotice,
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
import { forEachInFlight } from '../in-flight';
import { defineJob } from '../job-definition';
import { type DigestContent, digestMail, digestRobotMessage } from './delivery-digest-mail';
import type { KeywordAlertMailSettings } from './keyword-alerts.job';

/**
 * Delivery of recommendations (queue `delivery`, hourly). A reader whose slot has come (their hour in
 * their time zone, every day or on their weekday) gets the top recommendations of the ranking pipeline,
 * with their saved /papers and /news filters, that were never delivered to them on that channel: by
 * mail (with a one-click unsubscribe link) and to their robot webhook.
 *
 * At most once per item, reader and channel: a run takes a batch of readers' slots with one conditional
 * update (a second run or worker finds them taken), and each channel records its items in delivered_items
 * (primary key: reader, channel, item) before sending. A send that fails releases its items, so they
 * can go in the next digest; the slot itself is not retried (the reader gets one message per period).
 */

/** Slots older than this are skipped (a worker down for a day does not send yesterday's digest at noon). */
const GRACE_HOURS = 3;
const READERS_PER_RUN = 500;
/**
 * Readers taken together: their slots, accounts and delivered items are read and written in a few
 * statements per batch rather than per reader. A crash mid-batch loses the batch's slots for this
 * period (never sends twice), as it lost one reader's before.
 */
const READERS_PER_BATCH = 50;
/** Readers whose ranking or mail is under way at once: the pipeline's statements overlap the mail's waits. */
const READERS_IN_FLIGHT = 4;

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
  users: Pick<UserRepository, 'findManyByIds'>;
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

type Outcome = Omit<DeliveryRunResult, 'outcome' | 'reason'>;
const addOutcome = (total: Outcome, part: Outcome) => {
  total.readers += part.readers;
  total.mailed += part.mailed;
  total.pushed += part.pushed;
  total.failed += part.failed;
};

/** One run over the readers whose slot has come. Safe to run twice, or in two workers at once. */
export async function deliverDueDigests(deps: DeliveryDeps): Promise<DeliveryRunResult> {
  const now = deps.now?.() ?? new Date();
  const result: DeliveryRunResult = { outcome: 'success', readers: 0, mailed: 0, pushed: 0, failed: 0 };
  const tokens = deps.mail ? new MailLinkTokens(deps.mail.linkSecret) : undefined;
  const due = await deps.deliveries.listDue(now, GRACE_HOURS, READERS_PER_RUN);
  for (let offset = 0; offset < due.length; offset += READERS_PER_BATCH) {
    addOutcome(result, await deliverBatch(deps, due.slice(offset, offset + READERS_PER_BATCH), tokens));
  }
  return result;
}

/** A reader of a batch: their claim, account and channels, then their ranking and their picks per channel. */
interface BatchReader {
  claim: DeliveryClaim;
  user: UserRow;
  channels: DeliveryChannel[];
  ranked?: { papers: DigestItem[]; news: DigestItem[] };
  publishedPreprints: PublishedPreprintNotice[];
  picks: Map<DeliveryChannel, { papers: DigestItem[]; news: DigestItem[] }>;
}

function channelsOf(deps: DeliveryDeps, claim: DeliveryClaim, user: UserRow): DeliveryChannel[] {
  const { settings } = claim;
  if (settings.webhookPlatform && !settings.webhookUrl) {
    // Sealed under another server secret (JWT_SECRET changed) or this worker has none: the reader has to
    // paste the address again. Never the stored value in the log.
    deps.logger?.warn({ userId: user.id }, 'robot webhook cannot be read with this server secret; not pushed');
  }
  return [
    ...(settings.emailEnabled && deps.mail ? (['email'] as const) : []),
    ...(settings.webhookUrl && settings.webhookPlatform ? (['webhook'] as const) : []),
  ];
}

async function deliverBatch(
  deps: DeliveryDeps,
  due: { userId: string; slot: Date }[],
  tokens: MailLinkTokens | undefined,
): Promise<Outcome> {
  const outcome: Outcome = { readers: 0, mailed: 0, pushed: 0, failed: 0 };
  const claims = await deps.deliveries.claimSlots(due);
  outcome.readers = claims.length;
  if (claims.length === 0) return outcome;
  const users = new Map(
    (await deps.users.findManyByIds(claims.map((claim) => claim.settings.userId))).map((user) => [user.id, user]),
  );
  const readers: BatchReader[] = claims.flatMap((claim) => {
    const user = users.get(claim.settings.userId);
    if (!user) return [];
    const channels = channelsOf(deps, claim, user);
    return channels.length ? [{ claim, user, channels, publishedPreprints: [], picks: new Map() }] : [];
  });

  await forEachInFlight(readers, READERS_IN_FLIGHT, async (reader) => {
    try {
      reader.ranked = await collectDigestItems(
        { pipeline: deps.pipelineFor(reader.claim.settings.timeZone), logger: deps.logger },
        reader.user,
        filtersOf(reader.claim),
      );
      reader.publishedPreprints = await (deps.publishedPreprints ?? noPublishedPreprints)(
        reader.user.id,
        reader.claim.previousSlot,
      );
    } catch (error) {
      reader.ranked = undefined;
      outcome.failed++;
      deps.logger?.warn({ userId: reader.user.id, err: (error as Error).message }, 'delivery failed for a reader');
    }
  });
  const ranked = readers.filter((reader) => reader.ranked);
  if (ranked.length === 0) return outcome;

  try {
    await pickUndelivered(deps, ranked);
  } catch (error) {
    outcome.failed += ranked.length;
    deps.logger?.warn({ readers: ranked.length, err: (error as Error).message }, 'delivery failed for a batch');
    return outcome;
  }
  const summaries = await summariesOf(
    deps,
    ranked.flatMap((reader) => [...reader.picks.values()].flatMap((pick) => pick.papers)),
  );
  await forEachInFlight(ranked, READERS_IN_FLIGHT, async (reader) => {
    addOutcome(outcome, await sendToReader(deps, reader, summaries, tokens));
  });
  return outcome;
}

/**
 * Each reader's picks per channel: the first items of their ranking not yet delivered on the channel,
 * recorded as delivered before anything is sent (two statements for the whole batch).
 */
async function pickUndelivered(deps: DeliveryDeps, readers: BatchReader[]): Promise<void> {
  const candidates = readers.flatMap((reader) =>
    reader.channels.map((channel) => ({
      userId: reader.user.id,
      channel,
      items: [...(reader.ranked?.papers ?? []), ...(reader.ranked?.news ?? [])].map(keyOf),
    })),
  );
  const delivered = await deps.deliveries.deliveredAmong(candidates);
  const picked: ReaderChannelItems[] = [];
  for (const reader of readers) {
    for (const channel of reader.channels) {
      const isNew = (item: DigestItem) => !delivered.has(deliveryKey(reader.user.id, channel, keyOf(item)));
      const papers = (reader.ranked?.papers ?? []).filter(isNew).slice(0, DELIVERY_LIMITS.digestPapers);
      const news = (reader.ranked?.news ?? []).filter(isNew).slice(0, DELIVERY_LIMITS.digestNews);
      if (papers.length + news.length + reader.publishedPreprints.length === 0) continue;
      reader.picks.set(channel, { papers, news });
      picked.push({ userId: reader.user.id, channel, items: [...papers, ...news].map(keyOf) });
    }
  }
  const recorded = await deps.deliveries.recordDelivered(picked);
  for (const reader of readers) {
    for (const [channel, pick] of reader.picks) {
      const isRecorded = (item: DigestItem) => recorded.has(deliveryKey(reader.user.id, channel, keyOf(item)));
      reader.picks.set(channel, { papers: pick.papers.filter(isRecorded), news: pick.news.filter(isRecorded) });
    }
  }
}

async function sendToReader(
  deps: DeliveryDeps,
  reader: BatchReader,
  summaries: Map<number, string>,
  tokens: MailLinkTokens | undefined,
): Promise<Outcome> {
  const { claim, user, publishedPreprints } = reader;
  const { settings } = claim;
  const frequency = settings.frequency === 'weekly' ? 'weekly' : 'daily';
  const outcome: Outcome = { readers: 0, mailed: 0, pushed: 0, failed: 0 };
  const withSummary = (item: DigestItem): DigestItem => ({ ...item, summary: summaries.get(item.id) ?? item.summary });
  const webBaseUrl = deps.mail?.webBaseUrl() ?? '';

  for (const [channel, pick] of reader.picks) {
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

export const deliveryJob = defineJob({
  queue: 'delivery',
  processor: ({ repositories, content, ingest, mail, publishedPreprints, pipelines, logger }) => {
    const { llm } = content;
    return createDeliveryProcessor({
      deliveries: repositories.deliveries,
      users: repositories.users,
      pipelineFor: pipelines,
      mail,
      summarizePapers: llm
        ? async (ids) => {
            await summarizePapers(repositories.ingest, llm, { ids }, { language: ingest.summaryLanguage, logger });
          }
        : undefined,
      publishedPreprints: publishedPreprints ?? publishedPreprintsOf(repositories.articles),
      logger,
    });
  },
  // One run at a time per process; runs in other processes skip the readers this one took.
  concurrency: 1,
  // Hourly, a few minutes past the hour: the readers whose chosen hour (in their zone) has come.
  schedules: [{ id: 'deliver-digests', pattern: '3 * * * *', data: {} }],
});
