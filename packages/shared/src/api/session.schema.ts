import { z } from 'zod';
import { newPasswordSchema, PASSWORDS_DIFFER, passwordsMatch } from './auth.schema';
import { text } from './text.schema';

/**
 * Sessions and password change (not in the product contract; docs/decisions.md, "Sessions a user
 * controls"). A session is one login: one bearer token.
 */

export const sessionSchema = z.object({
  id: z.string(),
  /** The browser and system in plain words ("Chrome · Windows"), from the login's User-Agent. */
  device: z.string(),
  user_agent: z.string(),
  created_at: z.string(),
  /** Updated at most every few minutes, not per request. */
  last_seen_at: z.string(),
  /** The session of the token that asked. */
  is_current: z.boolean(),
});

export const sessionListResponseSchema = z.object({ sessions: z.array(sessionSchema) });

/** Any text: an id that is not one of the caller's sessions (malformed ones included) is a 404. */
export const sessionIdParamsSchema = z.object({ id: text('会话编号').max(100, { message: '会话编号过长' }) });

export const endSessionsResponseSchema = z.object({
  message: z.string(),
  /** How many sessions this ended. */
  ended: z.number().int(),
});

export const changePasswordRequestSchema = z
  .object({
    current_password: text('当前密码', { message: '请输入当前密码' })
      .min(1, { message: '请输入当前密码' })
      .max(1024, { message: '密码过长' }),
    password: newPasswordSchema,
    confirm_password: text('确认密码', { message: '请确认密码' }).min(1, { message: '请确认密码' }),
  })
  .refine(passwordsMatch, PASSWORDS_DIFFER);

export type Session = z.infer<typeof sessionSchema>;
export type SessionListResponse = z.infer<typeof sessionListResponseSchema>;
export type EndSessionsResponse = z.infer<typeof endSessionsResponseSchema>;
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;
