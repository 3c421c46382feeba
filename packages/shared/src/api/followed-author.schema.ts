import { z } from 'zod';
import { FOLLOWED_AUTHOR_LIMITS } from '../followed-authors';
import { text } from './text.schema';

export const followedAuthorSchema = z.object({
  id: z.string(),
  /** The name as the paper they were followed from gives it. */
  name: z.string(),
  /** Institutions as that paper's source named them; null when it named none. */
  affiliation: z.string().nullable(),
  /** The ORCID iD (0000-0002-1825-0097) when the source gave one. */
  orcid: z.string().nullable(),
  /** The OpenAlex author id (A5023888391) when the source gave one. */
  openalex_id: z.string().nullable(),
  /**
   * Followed by name alone (no id, no affiliation): papers by another person of the same name may be
   * shown as theirs. The page says so.
   */
  is_name_only: z.boolean(),
  /** The paper they were followed from; null when it is gone. */
  paper_id: z.string().nullable(),
  created_at: z.string(),
});
export type FollowedAuthor = z.infer<typeof followedAuthorSchema>;

/** GET /api/auth/followed-authors/, and the answer of a follow or unfollow. */
export const followedAuthorListResponseSchema = z.object({
  success: z.literal(true),
  followed_authors: z.array(followedAuthorSchema),
  max_followed_authors: z.number().int(),
});
export type FollowedAuthorListResponse = z.infer<typeof followedAuthorListResponseSchema>;

/** POST /api/auth/followed-authors/: the answer also names the one followed (new or already followed). */
export const followAuthorResponseSchema = followedAuthorListResponseSchema.extend({
  followed: followedAuthorSchema,
});
export type FollowAuthorResponse = z.infer<typeof followAuthorResponseSchema>;

/**
 * POST /api/auth/followed-authors/: the paper and the author's place in its list (0 = first). The server
 * takes the name, ids and affiliation it stored for that author, so a client cannot claim an id.
 */
export const followAuthorRequestSchema = z.object({
  paper_id: text('论文编号', { message: '请提供论文编号' }).regex(/^[1-9]\d{0,14}$/, { message: '论文编号无效' }),
  author_index: z
    .number({ error: '作者序号必须是数字' })
    .int({ message: '作者序号必须是整数' })
    .min(0, { message: '作者序号不能小于 0' })
    .max(FOLLOWED_AUTHOR_LIMITS.authorIndexMax, { message: '作者序号超出范围' }),
});
export type FollowAuthorRequest = z.infer<typeof followAuthorRequestSchema>;

export const followedAuthorParamsSchema = z.object({ id: text('作者编号') });
