import { createHash } from 'node:crypto';
import type { EmbeddableRow, GistRepository, GistTarget } from '@radar/db';
import type { Logger } from 'pino';
import {
  capEmbeddingText,
  documentEmbeddingText,
  isChineseText,
  MAX_EMBEDDING_TEXT_CHARS,
  profileEmbeddingText,
} from './embedding-text';
import { glossInline, glossResearchText, summaryRestatesOriginal } from './offline/chinese-gloss';
import { loadPrompt, renderPrompt } from './prompts';
import type { LanguageModel } from './providers';

/**
 * The text a paper, news item or profile is embedded from, in the language space of the profiles
 * (English), whatever language it is written in:
 * - English (and any text that is not Chinese, isChineseText): as written.
 * - Chinese, with a multilingual embedding endpoint (EMBEDDING_MULTILINGUAL): as written.
 * - Chinese papers and news with an LLM (LLM_MODEL): its English gist, made once per item and text,
 *   stored with the item (GistRepository), at most LLM_GIST_DAILY_LIMIT a day over all processes; a
 *   failed call or a spent limit falls back to the glosses. Only the embedding jobs ask the LLM
 *   (`makeGists`); a refit reads stored gists and glosses the rest.
 * - Otherwise the offline glosses (glossInline): every Chinese word replaced by its English, English
 *   terms kept. Replacing rather than appending measured the same in bench:bilingual for an English-fitted
 *   model, and keeps Chinese character pairs out of the built-in model's vocabulary.
 * - Profiles (users' research summaries, meant to be English) that are Chinese: as written with a
 *   multilingual endpoint, else glossed. No LLM: the profile vector is made inside the request that saves
 *   it. A summary drafted from a Chinese text the reader pasted (research_description) keeps that text
 *   beside it (its research content glossed, or as written with a multilingual endpoint), so an
 *   incomplete English draft cannot rank below the researcher's own words; a summary that no longer
 *   restates the pasted text (rewritten by hand for another direction) is embedded alone.
 * The glossing dictionaries (~1 s, ~175 MB) load on the first Chinese text a process sees.
 */

const GIST_PROMPT = { name: 'english-gist', version: 'v1' } as const;
const MAX_GIST_CHARS = 1_500;
const GIST_CONCURRENCY = 2;
const DAY_MS = 86_400_000;

export interface CrossLingualTextsOptions {
  /** The embedding endpoint is multilingual: Chinese is embedded as written. */
  multilingual: boolean;
  /** Where gists are stored; without it none is read or made (everything Chinese is glossed). */
  gists?: Pick<GistRepository, 'find' | 'countSince' | 'save'> | undefined;
  llm?: LanguageModel | undefined;
  /** Gists the LLM may make in any 24 hours (0: none). */
  gistDailyLimit?: number;
  logger?: Logger | undefined;
}

/** Key of the text a gist was made from: a gist is reused only for the same text. */
function gistSourceKey(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

function cleanGist(text: string): string {
  const cleaned = text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/[*_#>`]+/g, '')
    .replace(/^\s*(gist|summary|english gist)\s*:\s*/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > MAX_GIST_CHARS ? cleaned.slice(0, MAX_GIST_CHARS) : cleaned;
}

export class CrossLingualTexts {
  private readonly gists: CrossLingualTextsOptions['gists'];

  constructor(private readonly options: CrossLingualTextsOptions) {
    this.gists = options.gists;
  }

  get multilingual(): boolean {
    return this.options.multilingual;
  }

  /**
   * What a profile is embedded from: the research summary (or a typed interest's description), and the
   * Chinese text the summary was drafted from when there is one (`original`: the pasted
   * research_description). Empty when the summary is empty: no summary, no profile vector.
   */
  profile(summary: string, original = ''): string {
    const text = profileEmbeddingText(summary);
    if (!text) return '';
    const own = this.options.multilingual || !isChineseText(text) ? text : glossInline(text);
    if (!isChineseText(original) || !summaryRestatesOriginal(text, original)) return own;
    const kept = this.options.multilingual ? original.trim() : glossResearchText(original);
    return kept ? capEmbeddingText(`${own}\n${kept}`) : own;
  }

  /**
   * What a paper or news item not stored yet is embedded from, when that needs no stored row: the text
   * as written (not Chinese, or a multilingual endpoint), else undefined (a Chinese item's gist is made
   * and stored per row, by `documents`). `glossed`: a Chinese item's offline glosses instead, as for
   * the texts a fit reads.
   */
  unstoredDocument(title: string, body: string, options: { glossed?: boolean } = {}): string | undefined {
    const text = documentEmbeddingText(title, body);
    if (this.options.multilingual || !isChineseText(text)) return text;
    return options.glossed ? glossInline(text) : undefined;
  }

  /** What each paper or news item is embedded from, in order (see the class comment). */
  async documents(
    target: GistTarget,
    rows: readonly EmbeddableRow[],
    options: { makeGists?: boolean; signal?: AbortSignal } = {},
  ): Promise<string[]> {
    const texts = rows.map((row) => documentEmbeddingText(row.title, row.body));
    if (this.options.multilingual) return texts;
    const chinese = rows.map((_, i) => i).filter((i) => isChineseText(texts[i] as string));
    if (chinese.length === 0) return texts;
    const out = [...texts];
    const stored = new Map(
      (
        await (this.gists?.find(
          target,
          chinese.map((i) => (rows[i] as EmbeddableRow).id),
        ) ?? Promise.resolve([]))
      ).map((gist) => [gist.id, gist]),
    );
    const missing: number[] = [];
    for (const i of chinese) {
      const gist = stored.get((rows[i] as EmbeddableRow).id);
      if (gist && gist.sourceKey === gistSourceKey(texts[i] as string)) out[i] = gist.gist;
      else missing.push(i);
    }
    const made = options.makeGists ? await this.makeGists(target, rows, texts, missing, options.signal) : new Map();
    for (const i of missing) out[i] = made.get(i) ?? glossInline(texts[i] as string);
    return out;
  }

  /** Asks the LLM for the gists of rows `indices`, within the daily limit; failures are logged and left out. */
  private async makeGists(
    target: GistTarget,
    rows: readonly EmbeddableRow[],
    texts: readonly string[],
    indices: readonly number[],
    signal: AbortSignal | undefined,
  ): Promise<Map<number, string>> {
    const made = new Map<number, string>();
    const { llm } = this.options;
    const gists = this.gists;
    const limit = this.options.gistDailyLimit ?? 0;
    if (!llm || !gists || limit <= 0 || indices.length === 0) return made;
    let allowance = limit - (await gists.countSince(new Date(Date.now() - DAY_MS)));
    if (allowance <= 0) {
      this.options.logger?.info({ limit }, 'daily limit of English gists reached; glossing Chinese items offline');
      return made;
    }
    const prompt = await loadPrompt(GIST_PROMPT.name, GIST_PROMPT.version);
    const queue = [...indices];
    let failed = 0;
    let lastError: string | undefined;
    const worker = async () => {
      for (;;) {
        if (allowance <= 0 || signal?.aborted) return;
        const i = queue.shift();
        if (i === undefined) return;
        allowance -= 1;
        const row = rows[i] as EmbeddableRow;
        try {
          const gist = cleanGist(
            await llm.generateText({
              system: prompt.system,
              user: renderPrompt(prompt.user, {
                title: row.title.trim(),
                text: row.body.trim().slice(0, MAX_EMBEDDING_TEXT_CHARS),
              }),
              maxTokens: 400,
              ...(signal ? { signal } : {}),
            }),
          );
          // An answer that is still Chinese (or empty) would not reach English profiles: glossed instead.
          if (!gist || isChineseText(gist)) throw new Error('the model answered no English gist');
          await gists.save(target, row.id, gist, gistSourceKey(texts[i] as string));
          made.set(i, gist);
        } catch (error) {
          failed += 1;
          lastError = (error as Error).message;
        }
      }
    };
    await Promise.all(Array.from({ length: GIST_CONCURRENCY }, worker));
    if (failed > 0) {
      this.options.logger?.warn(
        { target, failed, err: lastError },
        'English gists failed; those items are glossed offline',
      );
    }
    return made;
  }
}
