import { z } from 'zod';
import { registerEmailSchema } from './auth.schema';
import { feedbackDescriptionSchema, feedbackTitleSchema } from './feedback.schema';
import { text } from './text.schema';

export const CONTACT_NAME_MAX_LENGTH = 50;
/** Stored as the feedback `type` of contact messages, so operators tell them from feedback. */
export const CONTACT_FEEDBACK_TYPE = '联系表单';
/** The answer when the message was stored and is mailed to the operators (FEEDBACK_TO or SUPPORT_EMAIL). */
export const CONTACT_THANKS = '留言已发送';
/**
 * The answer when no address is configured: the message is only stored, and operators read it with
 * `pnpm radar messages`. It promises no reply, because nobody is told that it arrived.
 */
export const CONTACT_STORED = '留言已保存，等待管理员查看。本站未开启留言邮件通知，管理员可能不会很快看到。';

/**
 * POST /api/contact/: the contact form of /contact, for visitors without an account. The reply address
 * is checked as registration checks addresses; title and description as feedback checks them.
 * `website` is a field people never see (the page hides it): a value there marks a bot.
 */
export const contactRequestSchema = z.object({
  name: text('姓名')
    .trim()
    .max(CONTACT_NAME_MAX_LENGTH, { message: `姓名不能超过 ${CONTACT_NAME_MAX_LENGTH} 个字符` })
    .nullish(),
  email: registerEmailSchema,
  title: feedbackTitleSchema,
  description: feedbackDescriptionSchema,
  website: text('网站').max(500, { message: '网站不能超过 500 个字符' }).nullish(),
});
export type ContactRequest = z.output<typeof contactRequestSchema>;

export const contactResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /**
   * `mail`: stored and mailed to the operators; `stored`: only stored, for an operator to read on the
   * server (no FEEDBACK_TO or SUPPORT_EMAIL), so the page must not promise a reply.
   */
  delivery: z.enum(['mail', 'stored']),
});
export type ContactResponse = z.infer<typeof contactResponseSchema>;

/** The optional calls a server names in GET /api/config/ `features`. */
export const SERVER_FEATURES = ['citation_export', 'followed_authors'] as const;

/**
 * GET /api/config/: the installation's public settings the web app reads at run time. Nothing secret,
 * the same for everyone.
 */
export const publicConfigResponseSchema = z.object({
  /** SUPPORT_EMAIL, shown on /contact; null when the operator has published none. */
  support_email: z.string().nullable(),
  /** The readers' time zone (TIME_ZONE, an IANA name such as Asia/Shanghai). */
  time_zone: z.string(),
  /**
   * The calls beyond the spec this server answers, by name, so the web app shows what uses them
   * (absent from a backend without them: hidden). `citation_export`: GET /articles/{id}/export/ and
   * /articles/library/export/; `followed_authors`: /api/auth/followed-authors/ (following from a card,
   * the list on /my).
   */
  features: z.array(z.enum(SERVER_FEATURES)),
  /**
   * Which ways of seeding the profile from one's own works this server offers (beyond the spec; a
   * client hides the options when absent): ORCID iDs and library files always, OpenAlex author ids
   * only with OPENALEX_API_KEY.
   */
  own_works: z.object({ orcid: z.boolean(), openalex: z.boolean(), library: z.boolean() }).optional(),
});
export type PublicConfigResponse = z.infer<typeof publicConfigResponseSchema>;
