import { documentEmbeddingText, type EmbeddingModels, idfOf, sharedProfileTerms, type TermWeighting } from '@radar/ai';
import { type AlertClaim, type AlertWindowRules, type DatabaseHandle, KeywordRepository } from '@radar/db';
import { MAIL_LINK_PURPOSES, type Mailer, MailLinkTokens } from '@radar/mail';
import { KEYWORD_ALERT_UNSUBSCRIBE_PATH, keywordAlertsJobSchema } from '@radar/shared';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { type AlertMailPaper, keywordAlertMail } from './keyword-alert-mail';

/**
 * Keyword alert mails. Every hour the job looks for users (verified, with a password) whose
 * alert-enabled keywords are due (daily: last alert about 24 h ago; weekly: about 7 days; never
 * alerted: now) and sends each one digest of the new papers matching any of those keywords.
 *
 * Delivery is at most once per paper and user. For each user, one transaction locks the due keywords
 * (SKIP LOCKED: a second worker skips that user), records the listed papers in
 * keyword_alert_deliveries and moves last_alerted_at on; the mail is sent after it commits. A send
 * that fails undoes the claim (KeywordRepository.releaseAlertDigest), so the next run retries. A crash
 * between the commit and the send loses that digest rather than ever mailing a paper twice: holding
 * the transaction open during the SMTP exchange would close that gap, but in embedded mode an open
 * transaction holds the whole database (one PGlite session) for as long as the mail server takes.
 *
 * Each paper's reason is its keyword plus the terms it shares with the user's English research
 * summary, weighed by the active built-in model's idf (by idf over the digest's papers when the
 * model has no vocabulary: a remote model, the hashing bootstrap).
 */

export const KEYWORD_ALERT_RULES: AlertWindowRules & { usersPerRun: number } = {
  // The hourly run starts a few seconds later or earlier each time; without slack a daily alert would
  // wait for the following hour every other day.
  dueSlackMinutes: 15,
  firstLookbackDays: 7,
  maxLookbackDays: 8,
  overlapMinutes: 60,
  maxPapers: 30,
  /** Users handled per run; the rest are due at the next run (longest waiting first). */
  usersPerRun: 500,
};

/** Profile terms named per paper (the mail line stays short). */
const SHARED_TERMS_PER_PAPER = 3;

/** The digest's papers with the terms each shares with the research summary (none without a summary). */
function withSharedTerms(claim: AlertClaim, weighting: TermWeighting | undefined): AlertMailPaper[] {
  const summary = claim.researchSummaryEn;
  const texts = claim.papers.map((paper) => documentEmbeddingText(paper.title, paper.abstract));
  const weights = weighting ?? idfOf(texts);
  return claim.papers.map((paper, index) => ({
    ...paper,
    sharedTerms: summary.trim()
      ? sharedProfileTerms(summary, texts[index] as string, weights, SHARED_TERMS_PER_PAPER, {
          excluding: paper.keyword,
        })
      : [],
  }));
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

export function unsubscribeUrl(settings: Pick<KeywordAlertMailSettings, 'webBaseUrl'>, token: string): string {
  return `${settings.webBaseUrl()}${KEYWORD_ALERT_UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
}

/** One run over every due user (up to usersPerRun). Safe to run twice, or in two workers at once. */
export async function sendKeywordAlerts(deps: {
  keywords: KeywordRepository;
  mail: KeywordAlertMailSettings;
  logger?: Logger;
  rules?: typeof KEYWORD_ALERT_RULES;
  /** The active embedding model, whose built-in vocabulary weighs the shared terms when it has one. */
  embeddings?: Pick<EmbeddingModels, 'termWeighting'>;
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
  for (const userId of await deps.keywords.listUsersDueForAlerts(rules, rules.usersPerRun)) {
    const claim = await deps.keywords.claimAlertDigest(userId, rules);
    if (!claim) continue; // another worker has this user, or nothing is due any more
    result.users++;
    if (claim.papers.length === 0) continue;
    const weighting = claim.researchSummaryEn.trim() ? await activeWeighting() : undefined;
    const mail = keywordAlertMail({
      to: claim.email,
      papers: withSharedTerms(claim, weighting),
      moreCount: claim.moreCount,
      webBaseUrl: deps.mail.webBaseUrl(),
      unsubscribeUrl: unsubscribeUrl(deps.mail, tokens.sign(MAIL_LINK_PURPOSES.keywordAlertUnsubscribe, userId)),
    });
    try {
      await deps.mail.mailer.send(mail);
      result.mailed++;
      result.papers += claim.papers.length;
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
  return result;
}

export function createKeywordAlertsProcessor(deps: {
  database: DatabaseHandle;
  mail: KeywordAlertMailSettings | undefined;
  logger?: Logger;
  /** The active embedding model (AiServices.embeddings); without it shared terms are weighed by idf over each digest. */
  embeddings?: Pick<EmbeddingModels, 'termWeighting'>;
}) {
  const keywords = new KeywordRepository(deps.database.db);
  return async (job: { data: unknown }): Promise<KeywordAlertRunResult> => {
    const parsed = keywordAlertsJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid keyword-alerts payload: ${parsed.error.message}`);
    if (!deps.mail) {
      return { outcome: 'skipped', reason: 'no mail settings', users: 0, mailed: 0, papers: 0, failed: 0 };
    }
    const result = await sendKeywordAlerts({
      keywords,
      mail: deps.mail,
      logger: deps.logger,
      embeddings: deps.embeddings,
    });
    if (result.mailed || result.failed) deps.logger?.info(result, 'keyword alerts sent');
    return result;
  };
}
