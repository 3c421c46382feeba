import { registerRequestSchema, resetPasswordRequestSchema } from '@radar/shared';
import { newPasswordFieldSchema } from './password-rules';

/**
 * The auth forms validate with the API's own request schemas (@radar/shared), so the browser shows the
 * texts the server would answer with. Login, forgot-password and verify-email use
 * theirs unchanged; a new password also gets the common-password rule here.
 */
export const registerFormSchema = registerRequestSchema.safeExtend({ password: newPasswordFieldSchema });

export const resetPasswordFormSchema = resetPasswordRequestSchema.safeExtend({ password: newPasswordFieldSchema });

export type RegisterFormValues = { email: string; password: string; password2: string };
export type ResetPasswordFormValues = { token: string; password: string; confirm_password: string };
export type LoginFormValues = { email: string; password: string };
export type EmailFormValues = { email: string };
export type VerifyFormValues = { email: string; verification_code: string };
