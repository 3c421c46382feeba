import { newPasswordSchema } from '@radar/shared';
import { isCommonPassword } from '@/lib/common-passwords';
import { AUTH_STRINGS } from '../strings';

/** A new password (register, reset): the shared rules (@radar/shared), then the common-password check. */
export const newPasswordFieldSchema = newPasswordSchema.refine((password) => !isCommonPassword(password), {
  message: AUTH_STRINGS.register.commonPassword,
});
