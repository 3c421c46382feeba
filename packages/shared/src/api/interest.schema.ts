import { z } from 'zod';
import { text } from './text.schema';

/** Limits of a reader's research interests (chosen here: docs/decisions.md "Issue 23: several interests"). */
export const INTEREST_LIMITS = {
  /** Interests a reader keeps, the research summary (the first) included. */
  perReader: 5,
  nameMaxLength: 30,
  descriptionMinLength: 4,
  descriptionMaxLength: 1_000,
  /** Favourites one interest is made from. */
  papersMax: 50,
  quotaMin: 1,
  quotaMax: 10,
  /** Every interest's quota until the reader moves its slider: equal shares. */
  defaultQuota: 5,
} as const;

/** The research summary as an interest: its id in the API, its name on the screen. */
export const SUMMARY_INTEREST = { id: 'summary', name: '研究概述' } as const;

export const INTEREST_KINDS = ['summary', 'typed', 'favourites'] as const;

export const interestSchema = z.object({
  /** 'summary' for the research summary, else the stored interest's id. */
  id: z.string(),
  /** summary: the AI-made research summary; typed: a description the reader wrote; favourites: made from favourites. */
  kind: z.enum(INTEREST_KINDS),
  name: z.string(),
  /** What a typed interest is embedded from (English or Chinese); the summary's English text; '' for favourites. */
  description: z.string(),
  /** The favourites a 'favourites' interest is the mean of. */
  paper_ids: z.array(z.string()),
  quota: z.number().int(),
  /** quota / sum of the quotas of the interests in use: its share of the recommendations. */
  share: z.number(),
  /** Whether it has a vector of the active model (false: it waits for one and is not used yet). */
  has_vector: z.boolean(),
});
export type Interest = z.infer<typeof interestSchema>;

/** GET /api/auth/interests/ and the answer of every change. */
export const interestListResponseSchema = z.object({
  success: z.literal(true),
  interests: z.array(interestSchema),
  max_interests: z.number().int(),
});
export type InterestListResponse = z.infer<typeof interestListResponseSchema>;

const interestName = text('兴趣名称')
  .trim()
  .min(1, { message: '请填写兴趣名称' })
  .max(INTEREST_LIMITS.nameMaxLength, { message: `兴趣名称不能超过 ${INTEREST_LIMITS.nameMaxLength} 个字符` });

const interestDescription = text('兴趣描述')
  .trim()
  .min(INTEREST_LIMITS.descriptionMinLength, {
    message: `兴趣描述至少 ${INTEREST_LIMITS.descriptionMinLength} 个字符`,
  })
  .max(INTEREST_LIMITS.descriptionMaxLength, {
    message: `兴趣描述不能超过 ${INTEREST_LIMITS.descriptionMaxLength} 个字符`,
  });

const interestPaperIds = z
  .array(text('论文编号').regex(/^[1-9]\d{0,14}$/, { message: '论文编号无效' }), { error: '请选择收藏的论文' })
  .min(1, { message: '请至少选择一篇收藏的论文' })
  .max(INTEREST_LIMITS.papersMax, { message: `一个兴趣最多由 ${INTEREST_LIMITS.papersMax} 篇收藏论文组成` });

const interestQuota = z
  .number({ error: '配额必须是数字' })
  .int({ message: '配额必须是整数' })
  .min(INTEREST_LIMITS.quotaMin, { message: `配额不能小于 ${INTEREST_LIMITS.quotaMin}` })
  .max(INTEREST_LIMITS.quotaMax, { message: `配额不能大于 ${INTEREST_LIMITS.quotaMax}` });

/**
 * POST /api/auth/interests/: a typed interest (`description`) or one made from favourites
 * (`paper_ids`), never both.
 */
export const interestCreateSchema = z
  .object({
    name: interestName,
    description: interestDescription.optional(),
    paper_ids: interestPaperIds.optional(),
    quota: interestQuota.optional(),
  })
  .refine((body) => (body.description === undefined) !== (body.paper_ids === undefined), {
    message: '请填写兴趣描述，或从收藏中选择论文（二选一）',
    path: ['description'],
  });
export type InterestCreateRequest = z.infer<typeof interestCreateSchema>;

/** PATCH /api/auth/interests/{id}/: fields left out keep their value; the summary takes only `quota`. */
export const interestUpdateSchema = z
  .object({
    name: interestName,
    description: interestDescription,
    paper_ids: interestPaperIds,
    quota: interestQuota,
  })
  .partial()
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: '没有需要修改的内容',
    path: ['name'],
  });
export type InterestUpdateRequest = z.infer<typeof interestUpdateSchema>;

export const interestParamsSchema = z.object({ id: text('兴趣编号') });

/** The interest a recommended paper or news item was drawn for (only when the reader has several). */
export const servedInterestSchema = z.object({ id: z.string(), name: z.string() });
export type ServedInterest = z.infer<typeof servedInterestSchema>;
