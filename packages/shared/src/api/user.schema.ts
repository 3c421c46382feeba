import { z } from 'zod';
import { EMAIL_PATTERN } from '../email';
import { boundedText, text, textOrList } from './text.schema';

/** The User of the data model as returned by GET /api/auth/user/. */
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
  /** Comma-separated field ids. */
  research_fields: z.string(),
  research_summary_en: z.string(),
});

export type UserResponse = z.infer<typeof userResponseSchema>;

/**
 * The six research-profile fields, as the profile form and the research confirmation both take them
 * (in this order). They differ in how the address is checked and how many names a list of fields may
 * hold; research_fields is a comma-separated string or a list.
 */
export function researchProfileShape<Email extends z.ZodType<string>>(
  email: Email,
  fieldList: { max: number; message: string },
) {
  return {
    research_name: boundedText(100, '姓名'),
    research_email: email,
    research_institution: boundedText(200, '机构'),
    research_position: boundedText(100, '职位'),
    research_fields: textOrList(
      text('研究领域').max(2000, { message: '研究领域过长' }),
      z.array(text('研究领域').max(100, { message: '研究领域名称过长' })).max(fieldList.max, {
        message: fieldList.message,
      }),
      '研究领域必须是文本或列表',
    ),
    research_summary_en: boundedText(5000, '英文研究摘要'),
  };
}

/**
 * PATCH /api/auth/user/: only these fields can change; unknown fields are dropped. research_fields may
 * be a comma-separated string (as the web app stores it) or a list; each must be one of the 21 fields
 * (id, English label or Chinese label), checked by the server.
 */
export const userUpdateSchema = z
  .object({
    username: boundedText(50, '用户名'),
    research_description: boundedText(3000, '研究方向描述'),
    ...researchProfileShape(
      text('邮箱')
        .trim()
        .max(254, { message: '邮箱地址过长' })
        .refine((value) => value === '' || EMAIL_PATTERN.test(value), { message: '邮箱格式不正确' }),
      { max: 21, message: '研究领域最多 21 个' },
    ),
  })
  .partial();

export type UserUpdate = z.infer<typeof userUpdateSchema>;
