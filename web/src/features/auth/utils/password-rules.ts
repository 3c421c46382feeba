import { newPasswordSchema } from '@radar/shared';
import { AUTH_STRINGS } from '../strings';

/**
 * The common passwords spec section 5 names. The server refuses a far longer list (49,000 entries,
 * server/src/security/common-passwords.ts) with the same message; this copy gives the instant answer
 * for the obvious ones without shipping that list to the browser.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  'password',
  '123456',
  '12345678',
  'qwerty',
  'abc123',
  'password123',
]);

/** Case-insensitive, like the server's check. */
export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

/** A new password (register, reset): the shared rules of spec section 5, then the common-password check. */
export const newPasswordFieldSchema = newPasswordSchema.refine((password) => !isCommonPassword(password), {
  message: AUTH_STRINGS.register.commonPassword,
});
