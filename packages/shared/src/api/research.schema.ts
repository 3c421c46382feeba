import { z } from 'zod';
import { countCharacters } from '../characters';
import { boundedText, text } from './text.schema';
import { researchProfileShape, userResponseSchema } from './user.schema';

/**
 * Research-direction analysis, profile confirmation, profile vector and recommendation stats.
 */

export const RESEARCH_DESCRIPTION_EMPTY_MESSAGE = '研究方向不能为空';

/**
 * Letters (of any script) a description needs before it is analysed: fewer carry no research content (an
 * emoji-only paste, a stray "hi"), and an analysis of them would come back empty however often retried.
 */
export const RESEARCH_DESCRIPTION_MIN_LETTERS = 4;
export const RESEARCH_DESCRIPTION_NO_CONTENT_MESSAGE = `请粘贴说明研究内容的文字（至少 ${RESEARCH_DESCRIPTION_MIN_LETTERS} 个字），例如主页上的研究方向、研究兴趣或代表性论文题目`;

const RESEARCH_DESCRIPTION_MAX_CHARACTERS = 3000;
const RESEARCH_DESCRIPTION_TOO_LONG_MESSAGE = '研究方向描述不能超过 3000 个字符';

const letterCount = (value: string) => value.match(/\p{L}/gu)?.length ?? 0;

/** POST /api/auth/research-direction/process-async/ and .../process/. */
export const researchDescriptionRequestSchema = z.object({
  research_description: text('研究方向描述')
    .trim()
    .min(1, { message: RESEARCH_DESCRIPTION_EMPTY_MESSAGE })
    // 3,000 characters as a reader counts them (an emoji is one); the UTF-16 cap only bounds the work.
    .max(RESEARCH_DESCRIPTION_MAX_CHARACTERS * 4, { message: RESEARCH_DESCRIPTION_TOO_LONG_MESSAGE })
    .refine((value) => countCharacters(value) <= RESEARCH_DESCRIPTION_MAX_CHARACTERS, {
      message: RESEARCH_DESCRIPTION_TOO_LONG_MESSAGE,
    })
    .refine((value) => value === '' || letterCount(value) >= RESEARCH_DESCRIPTION_MIN_LETTERS, {
      message: RESEARCH_DESCRIPTION_NO_CONTENT_MESSAGE,
    }),
});

/** Where the reader's own works come from when they seed the profile. */
export const OWN_WORKS_SOURCES = ['orcid', 'openalex', 'library'] as const;
export type OwnWorksSource = (typeof OWN_WORKS_SOURCES)[number];

/** Limits of seeding the profile from one's own works (docs/decisions.md, issue 24). */
export const OWN_WORKS_LIMITS = {
  /** Largest library file read, in characters of its text (about 2 MB). */
  maxFileChars: 2_000_000,
  /** Most works one seeding reads (the newest first for ORCID and OpenAlex; file order for files). */
  maxWorks: 200,
  /** Seedings per reader per hour (ORCID, OpenAlex and files together). */
  perHour: 5,
} as const;

/** POST /api/auth/research-direction/from-author-id/: an ORCID iD or an OpenAlex author id. */
export const ownWorksAuthorIdRequestSchema = z.object({
  author_id: text('作者标识').trim().min(1, { message: '请输入 ORCID iD 或 OpenAlex 作者编号' }).max(100, {
    message: '作者标识过长',
  }),
});

/** POST /api/auth/research-direction/from-library/: a library export file's text (BibTeX, RIS, CSL-JSON). */
export const ownWorksLibraryRequestSchema = z.object({
  file_name: boundedText(255, '文件名'),
  content: text('文件内容')
    .min(1, { message: '文件是空的' })
    .max(OWN_WORKS_LIMITS.maxFileChars, { message: '文件不能超过 2 MB' }),
});

/** What the analysis extracted: the six profile fields, plus how it was made. */
export const researchProfileResultSchema = z.object({
  name: z.string(),
  email: z.string(),
  institution: z.string(),
  position: z.string(),
  /** Field ids of the 21 fields; names the analysis gave that are not among them are kept as given. */
  research_fields: z.array(z.string()),
  research_summary_en: z.string(),
  /**
   * 'offline-gloss' when research_summary_en is a draft the offline rules glossed term by term from
   * Chinese text, for the user to check and edit before saving. Absent otherwise (a summary taken from
   * the page's English text, or written by the LLM). Beyond the spec: clients must not require it.
   */
  research_direction_origin: z.enum(['offline-gloss', 'own-works']).optional(),
  /** 'llm' (an OpenAI-compatible model) or 'offline' (the built-in rules). */
  source: z.enum(['llm', 'offline']),
  /** The LLM's model name, or 'offline-rules'. */
  model: z.string(),
  /** Remarks for the user (Chinese), e.g. that the text had no English research description. */
  notices: z.array(z.string()),
  /**
   * Beyond the spec, only on results made from the reader's own works ('own-works' origin): where the
   * works came from, how many were read, how many are stored as liked papers, and how many had an
   * abstract (read or filled in from Crossref/OpenAlex by DOI).
   */
  own_works: z
    .object({
      source: z.enum(OWN_WORKS_SOURCES),
      found: z.number().int(),
      stored: z.number().int(),
      with_abstract: z.number().int(),
    })
    .optional(),
});
export type ResearchProfileResult = z.infer<typeof researchProfileResultSchema>;

export const ASYNC_TASK_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;

export const taskSubmittedResponseSchema = z.object({
  task_id: z.string(),
  status: z.enum(ASYNC_TASK_STATUSES),
});
export type TaskSubmittedResponse = z.infer<typeof taskSubmittedResponseSchema>;

/** GET /api/auth/tasks/{id}/status/. */
export const taskStatusResponseSchema = z.object({
  task_id: z.string(),
  status: z.enum(ASYNC_TASK_STATUSES),
  /** 0-100. */
  progress: z.number().int(),
  error_message: z.string().nullable(),
  result_data: researchProfileResultSchema.nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type TaskStatusResponse = z.infer<typeof taskStatusResponseSchema>;

export const taskIdParamsSchema = z.object({ id: text('任务编号').max(100, { message: '任务编号过长' }) });

/** POST /api/auth/research-direction/process/ (synchronous). */
export const researchProcessResponseSchema = z.object({
  task_id: z.string(),
  status: z.literal('completed'),
  result_data: researchProfileResultSchema,
});
export type ResearchProcessResponse = z.infer<typeof researchProcessResponseSchema>;

/**
 * POST /api/auth/research-direction/confirm/: the six profile fields; any may be left out (kept as
 * stored). research_fields: a comma-separated string or a list of ids, English or Chinese labels.
 * research_email may use the '(at)' form, which is saved as '@'.
 */
export const researchConfirmRequestSchema = z
  .object(researchProfileShape(boundedText(254, '邮箱'), { max: 30, message: '研究领域过多' }))
  .partial();
export type ResearchConfirmRequest = z.infer<typeof researchConfirmRequestSchema>;

export const researchConfirmResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  user: userResponseSchema,
  /** Field names that are not among the 21 fields: saved as given and shown back. */
  unmapped_research_fields: z.array(z.string()),
  /** Whether the profile now has a vector of the active embedding model. */
  has_vector: z.boolean(),
});
export type ResearchConfirmResponse = z.infer<typeof researchConfirmResponseSchema>;

/** POST /api/auth/vector/update/. */
export const vectorUpdateResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  has_vector: z.boolean(),
  model_name: z.string(),
  model_version: z.string(),
  vector_dimension: z.number().int(),
  updated_at: z.string().nullable(),
});
export type VectorUpdateResponse = z.infer<typeof vectorUpdateResponseSchema>;

/** GET /api/auth/recommendations/stats/. */
export const recommendationStatsResponseSchema = z.object({
  current_user: z.object({
    has_vector: z.boolean(),
    /** Papers that have a vector of the active model, i.e. can be recommended. */
    available_recommendations: z.number().int(),
    has_research_summary: z.boolean(),
    vector_updated_at: z.string().nullable(),
  }),
  service_status: z.object({
    /** The active embedding model. */
    model_name: z.string(),
    model_version: z.string(),
    vector_dimension: z.number().int(),
    /** 'builtin' or 'openai-compatible'. */
    embedding_provider: z.string(),
    /** 'llm' when an OpenAI-compatible chat model is configured, else 'offline'. */
    llm_provider: z.enum(['llm', 'offline']),
    llm_model: z.string(),
    /** Stored vectors (users, papers, news) not yet on the active model: re-embedding in progress. */
    vectors_pending_reembed: z.number().int(),
  }),
});
export type RecommendationStatsResponse = z.infer<typeof recommendationStatsResponseSchema>;
