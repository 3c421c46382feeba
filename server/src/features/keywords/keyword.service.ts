import { followedKeywordEnglish } from '@radar/ai';
import type { KeywordRepository, KeywordRow, UserRow } from '@radar/db';
import { MAIL_LINK_PURPOSES, type MailLinkTokens } from '@radar/mail';
import {
  type AlertFrequency,
  KEYWORD_LIMITS,
  type KeywordAddRequest,
  type KeywordListResponse,
  type KeywordRemoveResponse,
  type KeywordResponse,
  type KeywordSuggestionsResponse,
  type KeywordUpdate,
} from '@radar/shared';
import type { Logger } from 'pino';
import { errors, parseRowId } from '../../errors';
import { presentKeyword } from './keyword.presenter';
import { collectCandidates, rankSuggestions, SUGGESTION_RULES } from './keyword-suggestions';

const NOT_FOUND_MESSAGE = '关键词不存在';

export interface KeywordServiceDeps {
  keywords: KeywordRepository;
  /** Verifies the unsubscribe links of alert mails (made by the keyword-alert job with the same secret). */
  linkTokens: MailLinkTokens;
  logger: Logger;
}

/** Keywords glossed per statement when the ones added before glossing are caught up. */
const GLOSS_BATCH = 200;

/** Case-insensitive duplicates removed, first spelling kept. */
function distinctTerms(terms: string[]): string[] {
  const seen = new Set<string>();
  return terms.filter((term) => {
    const key = term.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export class KeywordService {
  constructor(private readonly deps: KeywordServiceDeps) {}

  async list(user: UserRow): Promise<KeywordListResponse> {
    const rows = await this.deps.keywords.listByUser(user.id);
    return { keywords: rows.map(presentKeyword), count: rows.length };
  }

  /** 409 for a name the user already follows (any letter case); 400 past KEYWORD_LIMITS.perUser. */
  async add(user: UserRow, body: KeywordAddRequest): Promise<KeywordResponse> {
    const name = body.keyword ?? body.name;
    if (!name) throw errors.validation('请输入关键词', { keyword: ['请输入关键词'] });
    const result = await this.deps.keywords.create(user.id, name, KEYWORD_LIMITS.perUser, followedKeywordEnglish(name));
    if ('created' in result) return { success: true, keyword: presentKeyword(result.created) };
    if (result.refused === 'limit') {
      throw errors.badRequest(`最多只能关注 ${KEYWORD_LIMITS.perUser} 个关键词，请先删除不需要的关键词`);
    }
    throw errors.conflict(`你已关注关键词“${result.existing?.name ?? name}”`);
  }

  /**
   * Glosses the Chinese keywords and negative terms added before they were glossed (idempotent: each is
   * glossed once, then stored). Run once at start; reads nothing and loads no dictionary when there are none.
   */
  async glossFollowedKeywords(): Promise<number> {
    let glossed = 0;
    for (;;) {
      const rows = await this.deps.keywords.listUnglossed(GLOSS_BATCH);
      for (const row of rows) {
        await this.deps.keywords.setEnglish(row.id, {
          englishAlternatives: row.englishAlternatives ?? followedKeywordEnglish(row.name) ?? [],
          negativeEnglish: row.negativeEnglish ?? negativeTermsEnglish(row.negativeTerms) ?? [],
        });
      }
      glossed += rows.length;
      if (rows.length < GLOSS_BATCH) return glossed;
    }
  }

  async remove(user: UserRow, id: string): Promise<KeywordRemoveResponse> {
    const keywordId = this.parseId(id);
    if (!(await this.deps.keywords.removeOwned(keywordId, user.id))) throw errors.notFound(NOT_FOUND_MESSAGE);
    return { success: true, id: String(keywordId) };
  }

  /** Alert settings; fields left out keep their value. */
  async update(user: UserRow, id: string, update: KeywordUpdate): Promise<KeywordResponse> {
    const keywordId = this.parseId(id);
    const changes: Partial<Pick<KeywordRow, 'alertEnabled' | 'alertFrequency' | 'negativeTerms' | 'negativeEnglish'>> =
      {};
    if (update.alert_enabled !== undefined) changes.alertEnabled = update.alert_enabled;
    // Checked against ALERT_FREQUENCIES by the request schema.
    if (update.alert_frequency !== undefined) changes.alertFrequency = update.alert_frequency as AlertFrequency;
    if (update.negative_terms !== undefined) {
      changes.negativeTerms = distinctTerms(update.negative_terms);
      changes.negativeEnglish = negativeTermsEnglish(changes.negativeTerms);
    }
    const row =
      Object.keys(changes).length === 0
        ? await this.deps.keywords.findOwned(keywordId, user.id)
        : await this.deps.keywords.updateOwned(keywordId, user.id, changes);
    if (!row) throw errors.notFound(NOT_FOUND_MESSAGE);
    return { success: true, keyword: presentKeyword(row) };
  }

  /** Keywords suggested from the profile and the corpus (keyword-suggestions.ts); empty without a profile. */
  async suggest(user: UserRow): Promise<KeywordSuggestionsResponse> {
    const summary = user.researchSummaryEn.trim();
    const neighbours = await this.deps.keywords.profileNeighbours(user.id, SUGGESTION_RULES.neighbours);
    if (!summary && neighbours.length === 0) return { keywords: [] };
    const candidates = collectCandidates(neighbours, summary);
    if (candidates.length === 0) return { keywords: [] };
    const [frequencies, corpusSize, followedKeys, followed] = await Promise.all([
      this.deps.keywords.termFrequencies(
        candidates.map((candidate) => candidate.name),
        SUGGESTION_RULES.frequencyCap,
      ),
      this.deps.keywords.countPapers(),
      this.deps.keywords.followedQueryKeys(user.id),
      this.deps.keywords.listByUser(user.id),
    ]);
    return {
      keywords: rankSuggestions({
        candidates,
        frequencies,
        corpusSize,
        // A keyword followed in Chinese also covers its English (肠道菌群: "gut microbiota" is not suggested).
        followed: {
          queryKeys: followedKeys,
          names: followed.flatMap((row) => [
            row.name.toLowerCase(),
            ...(row.englishAlternatives ?? []).flat().map((english) => english.toLowerCase()),
          ]),
        },
        limit: KEYWORD_LIMITS.suggestions,
      }),
    };
  }

  /**
   * The unsubscribe link of an alert mail: switches off alerts on all of the token's user's keywords.
   * Returns false for a token that is missing, malformed, forged or made for another purpose. A valid
   * token of a deleted account succeeds with nothing to change.
   */
  async unsubscribeFromAlerts(token: string | undefined): Promise<boolean> {
    const userId = token ? this.deps.linkTokens.verify(MAIL_LINK_PURPOSES.keywordAlertUnsubscribe, token) : undefined;
    if (!userId) return false;
    const disabled = await this.deps.keywords.disableAllAlerts(userId);
    this.deps.logger.info({ userId, disabled }, 'keyword alerts unsubscribed by mail link');
    return true;
  }

  /** True when the token is one of ours for alert unsubscribes (the confirmation page checks before showing its button). */
  isUnsubscribeTokenValid(token: string | undefined): boolean {
    return Boolean(token && this.deps.linkTokens.verify(MAIL_LINK_PURPOSES.keywordAlertUnsubscribe, token));
  }

  private parseId(id: string): number {
    return parseRowId(id, NOT_FOUND_MESSAGE);
  }
}

/**
 * The English each negative term also excludes, in order (a negative term typed in Chinese keeps out
 * what says it in English, as the keyword itself finds it); null when no term has Chinese.
 */
function negativeTermsEnglish(terms: readonly string[]): string[][][] | null {
  const english = terms.map((term) => followedKeywordEnglish(term));
  return english.some((alternatives) => alternatives !== null)
    ? english.map((alternatives) => alternatives ?? [])
    : null;
}
