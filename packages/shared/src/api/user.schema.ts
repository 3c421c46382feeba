import { z } from 'zod';

/** The User of spec section 3 as returned by GET /api/auth/user/. */
export const userResponseSchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  /** The username, else the part of the email before @. */
  name: z.string(),
  research_description: z.string(),
  research_name: z.string(),
  research_email: z.string(),
  research_institution: z.string(),
  research_position: z.string(),
  /** Comma-separated field ids (spec section 3). */
  research_fields: z.string(),
  research_summary_en: z.string(),
});

export type UserResponse = z.infer<typeof userResponseSchema>;
