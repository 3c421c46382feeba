import { EMAIL_PATTERN, RESEARCH_FIELDS, type ResearchProfileResult, toResearchFieldId } from '@radar/shared';
import { z } from 'zod';
import { extractResearchProfileOffline, SUMMARY_MAX_WORDS, SUMMARY_MIN_WORDS } from './offline/research-extractor';
import { loadPrompt, renderPrompt } from './prompts';
import type { LanguageModel } from './providers';

/**
 * Research-direction analysis: pasted homepage text -> the six profile fields. With an LLM
 * configured it asks the model (prompts/research-profile.v1.md) for JSON matching a schema; without
 * one, the offline rules do it. Both produce the same, normalised result.
 */

const RESEARCH_PROFILE_PROMPT = { name: 'research-profile', version: 'v1' } as const;
const OFFLINE_MODEL_NAME = 'offline-rules';

export const englishWordCount = (text: string) => text.split(/\s+/).filter((word) => /[A-Za-z]/.test(word)).length;

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/g;

/**
 * The answer the LLM must give. The summary's length is checked here so a too short or too long
 * summary counts as a malformed answer (retried once with the reason). Very short pasted texts
 * cannot support 80 words without invention, so for them the floor is lower.
 */
function llmResearchProfileSchema(minWords: number) {
  return z.object({
    name: z.string().max(200),
    email: z.string().max(320),
    institution: z.string().max(400),
    position: z.string().max(200),
    research_fields: z.array(z.string().max(100)).max(5),
    research_summary_en: z
      .string()
      .refine((text) => (text.match(CJK) ?? []).length === 0, { message: 'must be written in English only' })
      .refine(
        (text) => {
          const words = englishWordCount(text);
          return words >= minWords && words <= SUMMARY_MAX_WORDS;
        },
        { message: `must have between ${minWords} and ${SUMMARY_MAX_WORDS} words` },
      ),
  });
}

/** The spellings of '@' on homepages ('(at)', '[at]', full-width '＠') that the profile rules turn into '@'. */
export function replaceAtForms(value: string): string {
  return value.replace(/\s*[([{（【]\s*at\s*[)\]}）】]\s*/gi, '@').replace(/＠/g, '@');
}

function normaliseEmail(value: string): string {
  const email = replaceAtForms(value.trim())
    .replace(/\s*[([{（【]\s*dot\s*[)\]}）】]\s*/gi, '.')
    .replace(/^mailto:/i, '')
    .trim();
  return EMAIL_PATTERN.test(email) && email.length <= 254 ? email : '';
}

const clip = (value: string, max: number) => value.replace(/\s+/g, ' ').trim().slice(0, max);

/** The contact fields of a profile, however they were extracted: one line each, within the form's lengths. */
const contactFields = (found: { name: string; email: string; institution: string; position: string }) => ({
  name: clip(found.name, 100),
  email: normaliseEmail(found.email),
  institution: clip(found.institution, 200),
  position: clip(found.position, 100),
});

/** Field names to ids where known (kept as given otherwise), without duplicates. */
function normaliseFields(names: string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    const value = toResearchFieldId(name) ?? name.trim();
    if (value && !out.includes(value)) out.push(value);
  }
  return out;
}

export interface ExtractOptions {
  signal?: AbortSignal;
  /** 0-100 as the work advances. */
  onProgress?: (progress: number) => Promise<void> | void;
}

export interface ResearchProfileExtractor {
  readonly source: ResearchProfileResult['source'];
  readonly model: string;
  extract(text: string, options?: ExtractOptions): Promise<ResearchProfileResult>;
}

export class LlmResearchProfileExtractor implements ResearchProfileExtractor {
  readonly source = 'llm' as const;
  readonly model: string;

  constructor(private readonly languageModel: LanguageModel) {
    this.model = languageModel.model;
  }

  async extract(text: string, options: ExtractOptions = {}): Promise<ResearchProfileResult> {
    const prompt = await loadPrompt(RESEARCH_PROFILE_PROMPT.name, RESEARCH_PROFILE_PROMPT.version);
    const fieldList = RESEARCH_FIELDS.map((field) => field.label).join('; ');
    await options.onProgress?.(20);
    const minWords = text.length < 300 ? 20 : SUMMARY_MIN_WORDS;
    const answer = await this.languageModel.generateJson({
      system: renderPrompt(prompt.system, { research_fields: fieldList }),
      user: renderPrompt(prompt.user, { research_description: text }),
      schema: llmResearchProfileSchema(minWords),
      schemaName: 'research_profile',
      ...(options.signal ? { signal: options.signal } : {}),
    });
    await options.onProgress?.(90);
    return {
      ...contactFields(answer),
      research_fields: normaliseFields(answer.research_fields),
      research_summary_en: answer.research_summary_en.trim(),
      source: 'llm',
      model: this.model,
      notices: [],
    };
  }
}

export class OfflineResearchProfileExtractor implements ResearchProfileExtractor {
  readonly source = 'offline' as const;
  readonly model = OFFLINE_MODEL_NAME;

  async extract(text: string, options: ExtractOptions = {}): Promise<ResearchProfileResult> {
    await options.onProgress?.(20);
    const extracted = extractResearchProfileOffline(text);
    await options.onProgress?.(90);
    return {
      ...contactFields(extracted),
      research_fields: extracted.researchFields,
      research_summary_en: extracted.researchSummaryEn,
      ...(extracted.researchSummaryOrigin ? { research_direction_origin: extracted.researchSummaryOrigin } : {}),
      source: 'offline',
      model: OFFLINE_MODEL_NAME,
      notices: extracted.notices,
    };
  }
}
