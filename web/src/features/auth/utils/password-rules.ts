import { newPasswordSchema } from '@radar/shared';
import { isCommonPassword } from '@/lib/common-passwords';
import { AUTH_STRINGS } from '../strings';

export { isCommonPassword } from '@/lib/common-passwords';

/** A new password (register, reset): the shared rules of spec section 5, then the common-password check. */
export const newPasswordFieldSchema = newPasswordSchema.refine((password) => !isCommonPassword(password), {
  message: AUTH_STRINGS.register.commonPassword,
});
