import { z } from 'zod';
import { hasInvalidCharacters, invalidCharactersMessage, text } from './text.schema';

/** Limits of the keyword feature (chosen here: docs/decisions.md). */
export const KEYWORD_LIMITS = {
  nameMaxLength: 100,
  /** Keywords one user may follow. */
  perUser: 50,
  negativeTermsPerKeyword: 20,
  negativeTermMaxLength: 100,
  /** Suggestions GET /user-rkeywords/ returns at most. */
  suggestions: 20,
} as const;

export const ALERT_FREQUENCIES = ['daily', 'weekly'] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];

/** The Keyword of the data model, with its alert settings. */
export const keywordSchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  alert_enabled: z.boolean(),
  alert_frequency: z.enum(ALERT_FREQUENCIES),
  /** A paper matching any of these is left out of this keyword's alerts. */
  negative_terms: z.array(z.string()),
  /** When alerts for this keyword were last checked (and mailed, if anything matched); null before the first. */
  last_alerted_at: z.string().nullable(),
});
export type Keyword = z.infer<typeof keywordSchema>;

const keywordName = (label: string) =>
  text(label)
    .trim()
    .min(1, { message: '关键词不能为空' })
    .max(KEYWORD_LIMITS.nameMaxLength, { message: `关键词不能超过 ${KEYWORD_LIMITS.nameMaxLength} 个字符` });

/**
 * POST /user-keywords/add/: `{ keyword }` (the spec does not show the payload; `{ name }` is accepted
 * too). Trimmed, 1-100 characters.
 */
export const keywordAddRequestSchema = z
  .object({ keyword: keywordName('关键词'), name: keywordName('关键词') })
  .partial()
  .refine((body) => body.keyword !== undefined || body.name !== undefined, {
    message: '请输入关键词',
    path: ['keyword'],
  });
export type KeywordAddRequest = z.infer<typeof keywordAddRequestSchema>;

/**
 * A JSON boolean. A string with NUL or lone surrogates gets the text rule's message, as in every field
 * (test/request-text.test.ts); so does such a string where a list of terms is expected.
 */
const flag = (label: string) =>
  z.boolean({
    error: (issue) =>
      typeof issue.input === 'string' && hasInvalidCharacters(issue.input)
        ? invalidCharactersMessage(label)
        : `${label}必须是 true 或 false`,
  });

/** PATCH /user-keywords/{id}/update/: the alert settings; fields left out keep their value. */
export const keywordUpdateSchema = z
  .object({
    alert_enabled: flag('提醒开关'),
    alert_frequency: text('提醒频率').refine((value) => (ALERT_FREQUENCIES as readonly string[]).includes(value), {
      message: '提醒频率只能是 daily（每天）或 weekly（每周）',
    }),
    negative_terms: z
      .array(
        text('排除词')
          .trim()
          .min(1, { message: '排除词不能为空' })
          .max(KEYWORD_LIMITS.negativeTermMaxLength, {
            message: `排除词不能超过 ${KEYWORD_LIMITS.negativeTermMaxLength} 个字符`,
          }),
        {
          error: (issue) =>
            typeof issue.input === 'string' && hasInvalidCharacters(issue.input)
              ? invalidCharactersMessage('排除词')
              : '排除词必须是文本列表',
        },
      )
      .max(KEYWORD_LIMITS.negativeTermsPerKeyword, {
        message: `排除词最多 ${KEYWORD_LIMITS.negativeTermsPerKeyword} 个`,
      }),
  })
  .partial();
export type KeywordUpdate = z.infer<typeof keywordUpdateSchema>;

export const keywordIdParamsSchema = z.object({ id: text('关键词编号').max(100, { message: '关键词编号过长' }) });

/** GET /user-keywords/: newest first. */
export const keywordListResponseSchema = z.object({ keywords: z.array(keywordSchema), count: z.number().int() });
export type KeywordListResponse = z.infer<typeof keywordListResponseSchema>;

/** POST /user-keywords/add/ (201) and PATCH /user-keywords/{id}/update/. */
export const keywordResponseSchema = z.object({ success: z.literal(true), keyword: keywordSchema });
export type KeywordResponse = z.infer<typeof keywordResponseSchema>;

/** POST /user-keywords/{id}/remove/. */
export const keywordRemoveResponseSchema = z.object({ success: z.literal(true), id: z.string() });
export type KeywordRemoveResponse = z.infer<typeof keywordRemoveResponseSchema>;

export const KEYWORD_SUGGESTION_SOURCES = ['similar_papers', 'research_summary'] as const;

/**
 * GET /user-rkeywords/: keywords suggested from the caller's profile and the corpus, best first; empty
 * without a profile. `score` is 0-1 (relative: the best suggestion of a list has 1); `source` says where
 * most of it came from (the papers nearest to the profile vector, or the English research summary).
 */
export const keywordSuggestionsResponseSchema = z.object({
  keywords: z.array(z.object({ name: z.string(), score: z.number(), source: z.enum(KEYWORD_SUGGESTION_SOURCES) })),
});
export type KeywordSuggestionsResponse = z.infer<typeof keywordSuggestionsResponseSchema>;

/** GET and POST of API_PATHS.keywordAlertUnsubscribe: the signed token of the mail's link. */
export const keywordAlertUnsubscribeQuerySchema = z.object({
  token: text('退订链接').max(500, { message: '退订链接无效' }).optional(),
});
