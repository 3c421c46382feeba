import { z } from 'zod';
import { EMAIL_PATTERN } from '../email';
import { LIMITS } from '../limits';
import { text } from './text.schema';
import { userResponseSchema } from './user.schema';

/**
 * Request and response bodies of /api/auth. The messages are the texts the web app shows under each
 * field; the server shows the first failing rule and lists all of them per field.
 */

/** A missing field reads as empty, so it gets the "please enter" message; `message` covers a non-string too. */
const requiredText = (label: string, message: string) =>
  z.preprocess((value) => (value === undefined || value === null ? '' : value), text(label, { message }));

export const registerEmailSchema = requiredText('邮箱地址', '请输入邮箱地址')
  .pipe(z.string().trim().toLowerCase())
  .pipe(
    z
      .string()
      .min(1, { message: '请输入邮箱地址' })
      .max(LIMITS.emailMaxLength, { message: '邮箱地址过长' })
      .regex(EMAIL_PATTERN, { message: '请输入正确的邮箱格式' }),
  );

/** Login and the other forms ask for the address with slightly different texts than registration. */
export const loginEmailSchema = requiredText('邮箱地址', '请输入邮箱地址')
  .pipe(z.string().trim().toLowerCase())
  .pipe(
    z
      .string()
      .min(1, { message: '请输入邮箱地址' })
      .max(LIMITS.emailMaxLength, { message: '邮箱地址过长' })
      .refine((value) => value.includes('@'), { message: '请输入有效的邮箱地址' })
      .refine((value) => EMAIL_PATTERN.test(value), { message: '邮箱格式不正确' }),
  );

/** A new password's confirmation must match it (a form refinement); a mismatch is reported on confirm_password. */
export const passwordsMatch = (body: { password: string; confirm_password: string }) =>
  body.password === body.confirm_password;
export const PASSWORDS_DIFFER = { message: '两次输入的密码不一致', path: ['confirm_password'] };

/** The strength rules every new password must meet; the common-password list is checked by the server. */
export const newPasswordSchema = requiredText('密码', '请输入密码').pipe(
  z
    .string()
    .min(1, { message: '请输入密码' })
    .min(LIMITS.passwordMinLength, { message: '密码长度至少为8位' })
    // argon2 hashes any length, but a multi-kilobyte "password" is a denial-of-service vector.
    .max(128, { message: '密码长度不能超过128位' })
    .regex(/[a-z]/, { message: '密码必须包含至少一个小写字母' })
    .regex(/\d/, { message: '密码必须包含至少一个数字' }),
);

export const registerRequestSchema = z
  .object({
    email: registerEmailSchema,
    password: newPasswordSchema,
    password2: requiredText('确认密码', '请确认密码').pipe(z.string().min(1, { message: '请确认密码' })),
  })
  .refine((body) => body.password === body.password2, { message: '两次输入的密码不一致', path: ['password2'] });

export const messageResponseSchema = z.object({ message: z.string() });

export const registerResponseSchema = z.object({
  message: z.string(),
  email: z.string(),
  /** Seconds before another code may be requested. */
  resend_available_in: z.number().int(),
});

export const loginRequestSchema = z.object({
  email: loginEmailSchema,
  password: requiredText('密码', '请输入密码').pipe(
    z.string().min(1, { message: '请输入密码' }).max(1024, { message: '密码过长' }),
  ),
});

/** The signed-in user's current password, typed again to confirm deleting the account. */
export const deleteAccountRequestSchema = z.object({ password: loginRequestSchema.shape.password });

/** Moving the account to another address: the new address and the current password, typed again. */
export const emailChangeRequestSchema = z.object({
  new_email: registerEmailSchema,
  password: loginRequestSchema.shape.password,
});

/** The code mailed to the new address. */
export const emailChangeConfirmSchema = z.object({
  code: requiredText('验证码', '请输入验证码').pipe(
    z
      .string()
      .trim()
      .min(1, { message: '请输入验证码' })
      .regex(/^\d{6}$/, { message: '验证码必须是6位数字' }),
  ),
});

export const emailChangeStartedResponseSchema = z.object({
  message: z.string(),
  new_email: z.string(),
  /** Seconds the mailed code stays valid. */
  expires_in: z.number().int(),
});
export type EmailChangeStartedResponse = z.infer<typeof emailChangeStartedResponseSchema>;

export const authSuccessResponseSchema = z.object({
  token: z.string(),
  user: userResponseSchema,
});

export const verifyEmailRequestSchema = z.object({
  email: requiredText('邮箱地址', '请填写邮箱和验证码').pipe(
    z.string().trim().toLowerCase().min(1, { message: '请填写邮箱和验证码' }).max(LIMITS.emailMaxLength),
  ),
  verification_code: requiredText('验证码', '请填写邮箱和验证码').pipe(
    z
      .string()
      .trim()
      .min(1, { message: '请填写邮箱和验证码' })
      .regex(/^\d{6}$/, { message: '验证码必须是6位数字' }),
  ),
});

export const verifyEmailResponseSchema = z.object({
  message: z.string(),
  remaining_attempts: z.number().int(),
  token: z.string(),
  user: userResponseSchema,
});

export const emailOnlyRequestSchema = z.object({
  email: requiredText('邮箱地址', '请输入邮箱地址').pipe(
    z
      .string()
      .trim()
      .toLowerCase()
      .min(1, { message: '请输入邮箱地址' })
      .max(LIMITS.emailMaxLength, { message: '邮箱地址过长' })
      .refine((value) => value.includes('@'), { message: '请输入有效的邮箱地址' }),
  ),
});

export const verificationStatusQuerySchema = emailOnlyRequestSchema;

export const verificationStatusResponseSchema = z.object({
  /** Seconds until the current code expires; 0 when there is none or it has expired. */
  remaining_time: z.number().int(),
  remaining_attempts: z.number().int(),
  has_verification_code: z.boolean(),
  /** Seconds before another code may be sent (0 when now). */
  resend_available_in: z.number().int(),
});

/**
 * The answer to every resend request that is not refused for the cooldown: the same for an unknown,
 * a pending and a verified address, so it must not tell them apart, and conditional, because a code is
 * mailed only to a registration still waiting for verification (and only once its cooldown is over).
 */
export const RESEND_CODE_ANSWER = '如果该邮箱已注册且尚未验证，验证码已发送，请查收邮件';

export const resendCodeResponseSchema = z.object({
  message: z.string(),
  /** Seconds before this browser may ask again: the resend cooldown, not how long a code is valid. */
  resend_available_in: z.number().int(),
});

export const resetPasswordRequestSchema = z
  .object({
    token: requiredText('重置链接', '无效的重置链接').pipe(
      z.string().trim().min(1, { message: '无效的重置链接' }).max(200, { message: '无效的重置链接' }),
    ),
    password: newPasswordSchema,
    confirm_password: requiredText('确认密码', '请确认密码').pipe(z.string().min(1, { message: '请确认密码' })),
  })
  .refine(passwordsMatch, PASSWORDS_DIFFER);

export type RegisterRequest = z.infer<typeof registerRequestSchema>;
export type LoginRequest = z.infer<typeof loginRequestSchema>;
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequestSchema>;
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;
export type VerificationStatusResponse = z.infer<typeof verificationStatusResponseSchema>;
