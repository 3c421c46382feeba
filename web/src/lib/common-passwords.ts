/**
 * The most common passwords. The server refuses a far longer list (49,000 entries,
 * server/src/security/common-passwords.ts) with the same message; this copy gives the instant answer
 * for the obvious ones without shipping that list to the browser.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
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

/** Letters people swap for look-alike digits and symbols (p@ssw0rd). */
const LOOK_ALIKES: Record<string, string> = { '@': 'a', '4': 'a', '0': 'o', '1': 'l', '3': 'e', $: 's', '5': 's' };
/** The words of the list that variants are built on. */
const COMMON_WORDS = ['password', 'passwort', 'qwerty'];

/**
 * A common password or an obvious variant of one, which a guesser tries first: any case, digits or
 * symbols added at the end (Password123!, qwerty2024), look-alike characters (P@ssw0rd), a common word
 * inside (mypassword1), an abc prefix with only digits and symbols after it (Abc123456!), or a run of
 * consecutive digits (123456789). Such a password is never rated 强, whatever its character classes.
 */
export function isCommonPasswordVariant(password: string): boolean {
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return true;
  const core = lower.replace(/[^a-z]+$/, '');
  const plain = [...(core || lower)].map((char) => LOOK_ALIKES[char] ?? char).join('');
  if (COMMON_WORDS.some((word) => plain.includes(word))) return true;
  if (/^abc[^a-z]*$/.test(lower)) return true;
  return /^\d{6,}$/.test(lower) && isConsecutive(lower);
}

const isConsecutive = (digits: string) =>
  [...digits].every((digit, index) => index === 0 || Number(digit) === (Number(digits[index - 1]) + 1) % 10);
