import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { isChineseText } from './embedding-text';
import { loadPrompt, renderPrompt } from './prompts';
import type { LanguageModel } from './providers';

const RERANK_PROMPT = { name: 'recommendation-rerank', version: 'v1' } as const;
/** Papers the LLM reorders: the first of the list, where a reader looks. */
const RERANK_MAX_ITEMS = 50;
/** Characters of each abstract in the prompt (50 of them stay within an ordinary context window). */
const ABSTRACT_CHARS = 600;
const REASON_MAX_CHARS = 80;
/** The same list for the same reader is not sent again within this time (a refreshed page). */
const CACHE_TTL_MS = 10 * 60_000;
const CACHE_MAX_ENTRIES = 500;

const rerankAnswerSchema = z.object({
  ranking: z.array(z.object({ key: z.string(), reason: z.string().optional().default('') })).min(1),
});

/**
 * The LLM rerank of paper recommendations (LLM_RERANK): listwise, the LLM returns the papers' keys in
 * its order with a reason in Chinese each, never a score (scores of an LLM are not comparable across
 * calls). Keys the answer leaves out keep their relative order after the ones it ranked; unknown or
 * repeated keys are ignored; a reason that is not Chinese is dropped. An answer naming none of the papers
 * is a failure. Answers are kept 10 minutes per reader and list, so a refreshed page costs no call.
 * Errors propagate: the pipeline keeps its order and logs.
 */
export class LlmReranker {
  readonly maxItems = RERANK_MAX_ITEMS;
  private readonly cache = new Map<string, { at: number; value: { order: number[]; reasons: Map<number, string> } }>();

  constructor(
    private readonly options: {
      languageModel: LanguageModel;
      timeoutMs: number;
      logger?: Logger | undefined;
      now?: () => number;
    },
  ) {}

  async rerank(input: {
    readerId: string;
    profile: string;
    interests: string[];
    items: { id: number; title: string; abstract: string }[];
  }): Promise<{ order: number[]; reasons: Map<number, string> }> {
    const items = input.items.slice(0, this.maxItems);
    const now = this.options.now?.() ?? Date.now();
    const key = createHash('sha256')
      .update(
        `${input.readerId}|${input.profile}|${input.interests.join('|')}|${items.map((item) => item.id).join(',')}`,
      )
      .digest('hex');
    const cached = this.cache.get(key);
    if (cached && now - cached.at < CACHE_TTL_MS) return cached.value;

    const template = await loadPrompt(RERANK_PROMPT.name, RERANK_PROMPT.version);
    const keyOf = (index: number) => `P${index + 1}`;
    const papers = items
      .map(
        (item, index) =>
          `[${keyOf(index)}] ${item.title.replace(/\s+/g, ' ').trim()}\n${item.abstract.replace(/\s+/g, ' ').trim().slice(0, ABSTRACT_CHARS)}`,
      )
      .join('\n\n');
    const answer = await this.options.languageModel.generateJson({
      system: template.system,
      user: renderPrompt(template.user, {
        profile: input.profile.trim() || '(none)',
        interests: input.interests.length ? input.interests.join('; ') : '(none)',
        papers,
      }),
      schema: rerankAnswerSchema,
      schemaName: 'recommendation_rerank',
      maxTokens: 4_000,
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    const byKey = new Map(items.map((item, index) => [keyOf(index), item.id]));
    const order: number[] = [];
    const reasons = new Map<number, string>();
    for (const entry of answer.ranking) {
      const id = byKey.get(
        entry.key
          .trim()
          .replace(/^\[|\]$/g, '')
          .toUpperCase(),
      );
      if (id === undefined || order.includes(id)) continue;
      order.push(id);
      const reason = entry.reason.replace(/\s+/g, ' ').trim().slice(0, REASON_MAX_CHARS);
      if (reason && isChineseText(reason)) reasons.set(id, reason);
    }
    if (order.length === 0) throw new Error('the LLM rerank named none of the papers');
    for (const item of items) if (!order.includes(item.id)) order.push(item.id);
    const value = { order, reasons };
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
    this.cache.set(key, { at: now, value });
    this.options.logger?.debug({ items: items.length, ranked: answer.ranking.length }, 'LLM rerank');
    return value;
  }
}
