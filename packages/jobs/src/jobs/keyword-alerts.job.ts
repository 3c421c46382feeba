import type { EmbeddingModels, TermWeighting } from '@radar/ai';
import type {
  AlertClaim,
  AlertRanking,
  AlertWindowRules,
  FollowedAuthorRepository,
  KeywordRepository,
  UserRepository,
  UserRow,
} from '@radar/db';
import { MAIL_LINK_PURPOSES, type Mailer, MailLinkTokens } from '@radar/mail';
import { findFollowedAuthorPapers, keywordAlertReasons, type MatchedAuthorPaper } from '@radar/recommend';
import { API_PATHS, type KeywordAlertsJob } from '@radar/shared';
import type { Logger } from 'pino';
import { forEachInFlight } from '../in-flight';
import { defineJob } from '../job-definition';
import { type AlertMailAuthorPaper, type AlertMailPaper, keywordAlertMail } from './keyword-alert-mail';

/**
 * Keyword alert mails. Every hour the job looks for users (verified, with a password) whose
 * alert-enabled keywords are due (daily: last alert about 24 h ago; weekly: about 7 days; never
 * alerted: now) and sends each one digest of the new papers matching any of those keywords.
 *
 * Delivery is at most once per paper and user. Users are taken in batches of 20, four batches at a
 * time: for a batch, one transaction (KeywordRepository.claimAlertDigests, four round trips) locks the
 * due keywords (SKIP LOCKED: a second worker skips them), records each user's listed papers in
 * keyword_alert_deliveries and moves last_alerted_at on; the mails are sent after it commits. A send that fails undoes that
 * user's claim (KeywordRepository.releaseAlertDigest), so the next run retries. A crash between the
 * commit and the sends loses the batch's digests rather than ever mailing a paper twice: holding the
 * transaction open during the SMTP exchanges would close that gap, but in embedded mode an open
 * transaction holds the whole database (one PGlite session) for as long as the mail server takes.
 *
 * Each paper's reason is built as a recommendation's is (@radar/recommend, keywordAlertReasons): its
 * keyword (matched, without its negative terms, by the database with matchesKeyword) plus the terms it
 * shares with the user's English research summary, weighed by the active built-in model's idf (by idf
 * over the summary and the digest's papers when the model has no vocabulary: a remote model, the
 * hashing bootstrap).
 */

const KEYWORD_ALERT_RULES: AlertWindowRules & { usersPerRun: number; maxAuthorPapers: number } = {
  // The hourly run starts a few seconds later or earlier each time; without slack a daily alert would
  // wait for the following hour every other day.
  dueSlackMinutes: 15,
  firstLookbackDays: 7,
  maxLookbackDays: 8,
  overlapMinutes: 60,
  maxPapers: 30,
  /** Papers by followed authors listed first, at most (besides maxPapers). */
  maxAuthorPapers: 20,
  /** Users handled per run; the rest are due at the next run (longest waiting first). */
  usersPerRun: 500,
};
/**
 * Users taken together: their followers, accounts and claim (keywords, candidates, deliveries) are read
 * and written in a few statements per batch rather than per user.
 */
const USERS_PER_BATCH = 20;
/**
 * Batches under way at once, each on its own connection: one batch's claim (its readers' candidate
 * searches, one after another in one message) overlaps another's learned orders and mails, and the
 * database works on up to this many searches at a time, as it did when each user was claimed alone.
 */
const BATCHES_IN_FLIGHT = 4;

/**
 * Papers by followed authors for a user's digest: stored within the longest look-back and never mailed
 * to them, newest first. The digest records them with its keyword papers, so each reaches the user once.
 */
async function followedAuthorPapersFor(
  followedAuthors: FollowedAuthorRepository | undefined,
  userId: string,
  rules: typeof KEYWORD_ALERT_RULES,
  now: Date,
): Promise<MatchedAuthorPaper[]> {
  if (!followedAuthors) return [];
  return findFollowedAuthorPapers(followedAuthors, userId, {
    createdSince: new Date(now.getTime() - rules.maxLookbackDays * 86_400_000),
    notAlerted: true,
    limit: rules.maxAuthorPapers,
  });
}

/** The mail's lines for the recorded author papers: the followed names and how each was recognised. */
function authorMailPapers(claim: AlertClaim, found: MatchedAuthorPaper[]): AlertMailAuthorPaper[] {
  const byId = new Map(found.map((paper) => [paper.paperId, paper]));
  return claim.authorPapers.map((paper) => ({ ...paper, authors: byId.get(paper.id)?.authors ?? [] }));
}

/** The digest's papers with the terms each shares with the research summary beyond its keyword. */
async function withSharedTerms(
  claim: AlertClaim,
  termWeighting: () => Promise<TermWeighting | undefined>,
  logger: Logger | undefined,
): Promise<AlertMailPaper[]> {
  const reasons = await keywordAlertReasons({ termWeighting, logger }, claim);
  return claim.papers.map((paper) => {
    const reason = reasons.get(paper.id);
    // A keyword reason lists its keyword first, then the shared terms.
    return { ...paper, sharedTerms: reason?.kind === 'keyword' ? reason.terms.slice(1) : [] };
  });
}

/** What the job needs to mail: the process's mailer, the web app's address, and the secret links are signed with. */
export interface KeywordAlertMailSettings {
  mailer: Mailer;
  /**
   * The web app's address without a trailing slash, read for each mail: the server's follows the port it
   * listens on when WEB_BASE_URL is unset, known only after the worker has started.
   */
  webBaseUrl: () => string;
  /** The server secret (JWT_SECRET, or the generated one in embedded mode) that keys the unsubscribe tokens. */
  linkSecret: string;
}

export interface KeywordAlertRunResult {
  outcome: 'success' | 'skipped';
  reason?: string;
  /** Users whose due keywords were taken. */
  users: number;
  /** Digests mailed, and the papers in them. */
  mailed: number;
  papers: number;
  /** Digests whose mail failed (released for the next run). */
  failed: number;
}

function unsubscribeUrl(settings: Pick<KeywordAlertMailSettings, 'webBaseUrl'>, token: string): string {
  return `${settings.webBaseUrl()}${API_PATHS.keywordAlertUnsubscribe}?token=${encodeURIComponent(token)}`;
}

/** One run over every due user (up to usersPerRun). Safe to run twice, or in two workers at once. */
async function sendKeywordAlerts(deps: {
  keywords: KeywordRepository;
  /** Followed authors: their new papers head the digest of a user whose keywords are due. */
  followedAuthors?: FollowedAuthorRepository | undefined;
  mail: KeywordAlertMailSettings;
  logger?: Logger;
  rules?: typeof KEYWORD_ALERT_RULES;
  /** The active embedding model, whose built-in vocabulary weighs the shared terms when it has one. */
  embeddings?: Pick<EmbeddingModels, 'termWeighting'>;
  /** The reader's learned order (RecommendationPipeline.alertRanking); without it, similarity then recency. */
  ranking?: AlertRankingOf | undefined;
  /** The readers' accounts, read per batch for their learned order. */
  users?: Pick<UserRepository, 'findManyByIds'> | undefined;
}): Promise<KeywordAlertRunResult> {
  const rules = deps.rules ?? KEYWORD_ALERT_RULES;
  const tokens = new MailLinkTokens(deps.mail.linkSecret);
  // Read once per run, and only when a digest needs it. A failure costs the model's weights, not the mail.
  let modelWeighting: Promise<TermWeighting | undefined> | undefined;
  const activeWeighting = () => {
    modelWeighting ??= (deps.embeddings?.termWeighting() ?? Promise.resolve(undefined)).catch((error: Error) => {
      deps.logger?.warn({ err: error.message }, 'term weights of the active model not loaded; idf of the digest used');
      return undefined;
    });
    return modelWeighting;
  };
  const result: KeywordAlertRunResult = { outcome: 'success', users: 0, mailed: 0, papers: 0, failed: 0 };
  const due = await deps.keywords.listUsersDueForAlerts(rules, rules.usersPerRun);
  const batches = Array.from({ length: Math.ceil(due.length / USERS_PER_BATCH) }, (_, index) =>
    due.slice(index * USERS_PER_BATCH, (index + 1) * USERS_PER_BATCH),
  );
  await forEachInFlight(batches, BATCHES_IN_FLIGHT, async (batch) => {
    // One statement each for the batch: most readers follow nobody and need no look-up of authors' papers.
    const followers = (await deps.followedAuthors?.followersAmong(batch)) ?? new Set<string>();
    const accounts = new Map(
      deps.ranking && deps.users ? (await deps.users.findManyByIds(batch)).map((user) => [user.id, user]) : [],
    );
    // What each reader's digest adds and how it is ordered, before the batch's claim: the claim's
    // transaction holds their keywords, and in embedded mode the whole database, only for its statements.
    const readers: { userId: string; byAuthors: MatchedAuthorPaper[]; ranking: AlertRanking | undefined }[] = [];
    for (const userId of batch) {
      const byAuthors = followers.has(userId)
        ? await followedAuthorPapersFor(deps.followedAuthors, userId, rules, new Date())
        : [];
      const account = accounts.get(userId);
      const ranking = await (account && deps.ranking?.(account))?.catch((error: Error) => {
        deps.logger?.warn({ userId, err: error.message }, 'learned order unavailable; alert in similarity order');
        return undefined;
      });
      readers.push({ userId, byAuthors, ranking });
    }
    const claims = await deps.keywords.claimAlertDigests(
      readers.map((reader) => ({
        userId: reader.userId,
        authorPaperIds: reader.byAuthors.map((paper) => paper.paperId),
        ranking: reader.ranking,
      })),
      rules,
    );
    // Readers another worker holds, or with nothing due any more, have no claim.
    result.users += claims.length;
    const byAuthorsOf = new Map(readers.map((reader) => [reader.userId, reader.byAuthors]));
    for (const claim of claims) {
      if (claim.papers.length === 0 && claim.authorPapers.length === 0) continue;
      const { userId } = claim;
      const mail = keywordAlertMail({
        to: claim.email,
        authorPapers: authorMailPapers(claim, byAuthorsOf.get(userId) ?? []),
        papers: await withSharedTerms(claim, activeWeighting, deps.logger),
        moreCount: claim.moreCount,
        webBaseUrl: deps.mail.webBaseUrl(),
        unsubscribeUrl: unsubscribeUrl(deps.mail, tokens.sign(MAIL_LINK_PURPOSES.keywordAlertUnsubscribe, userId)),
      });
      try {
        await deps.mail.mailer.send(mail);
        result.mailed++;
        result.papers += claim.papers.length + claim.authorPapers.length;
      } catch (error) {
        result.failed++;
        // The user id, never the address (SMTP refusals quote it) or the link (it carries the unsubscribe token).
        const { code, responseCode, message } = error as Error & { code?: string; responseCode?: number };
        deps.logger?.warn(
          { userId, code, responseCode, err: String(message).replace(/\S+@\S+/g, '[address]') },
          'keyword alert mail not sent; retried next run',
        );
        await deps.keywords
          .releaseAlertDigest(claim)
          .catch((releaseError: Error) =>
            deps.logger?.error({ userId, err: releaseError.message }, 'keyword alert claim not released'),
          );
      }
    }
  });
  return result;
}

/** A reader's alert ordering (undefined: no profile). */
export type AlertRankingOf = (user: UserRow) => Promise<AlertRanking | undefined>;

export function createKeywordAlertsProcessor(deps: {
  keywords: KeywordRepository;
  /** The reader's learned order, as /papers orders (RecommendationPipeline.alertRanking). */
  ranking?: AlertRankingOf;
  /** The readers' accounts the learned order needs (read per batch); no learned order without them. */
  users?: Pick<UserRepository, 'findManyByIds'>;
  /** Without it digests list keyword matches only. */
  followedAuthors?: FollowedAuthorRepository;
  mail: KeywordAlertMailSettings | undefined;
  logger?: Logger;
  /** The active embedding model (AiServices.embeddings); without it shared terms are weighed by idf over each digest. */
  embeddings?: Pick<EmbeddingModels, 'termWeighting'>;
}) {
  const { keywords } = deps;
  // The payload (empty) was parsed by the worker (createWorker).
  return async (_job: { data: KeywordAlertsJob }): Promise<KeywordAlertRunResult> => {
    if (!deps.mail) {
      return { outcome: 'skipped', reason: 'no mail settings', users: 0, mailed: 0, papers: 0, failed: 0 };
    }
    const result = await sendKeywordAlerts({
      keywords,
      followedAuthors: deps.followedAuthors,
      mail: deps.mail,
      logger: deps.logger,
      embeddings: deps.embeddings,
      ranking: deps.ranking,
      users: deps.users,
    });
    if (result.mailed || result.failed) deps.logger?.info(result, 'keyword alerts sent');
    return result;
  };
}

export const keywordAlertsJob = defineJob({
  queue: 'keyword-alerts',
  processor: ({ repositories, mail, ai, pipelines, logger }) => {
    // The alert's order uses no publication window, so no zone matters.
    const pipeline = pipelines('UTC');
    return createKeywordAlertsProcessor({
      keywords: repositories.keywords,
      followedAuthors: repositories.followedAuthors,
      mail,
      logger,
      embeddings: ai.embeddings,
      users: repositories.users,
      ranking: (user) => pipeline.alertRanking(user),
    });
  },
  // One run at a time per process; runs in other processes skip the users this one holds.
  concurrency: 1,
  // Hourly: digests of users whose daily or weekly keyword alerts are due.
  schedules: [{ id: 'send-keyword-alerts', pattern: '7 * * * *', data: {} }],
});
