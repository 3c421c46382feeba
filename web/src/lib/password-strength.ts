import { isCommonPasswordVariant } from './common-passwords';

/** Password strength hint of the register screen: one point per rule met (length, character kinds). */
export type PasswordStrengthLevel = 'weak' | 'medium' | 'strong';

export type PasswordStrength = {
  /** 0 to 6: one point per rule met. */
  score: number;
  level: PasswordStrengthLevel;
  label: '弱' | '中' | '强';
};

const RULES: readonly ((password: string) => boolean)[] = [
  (password) => password.length >= 8,
  (password) => password.length >= 12,
  (password) => /[a-z]/.test(password),
  (password) => /[A-Z]/.test(password),
  (password) => /\d/.test(password),
  (password) => /[^A-Za-z0-9]/.test(password),
];

/**
 * The spec's score (one point per rule met: >= 4 strong, >= 2 medium, else weak), except that a common
 * password or an obvious variant of one is weak whatever it scores: Password123 meets four rules, yet
 * it is the first a guesser tries, and 强 beside 密码过于简单 contradicts the form's own refusal.
 */
export function getPasswordStrength(password: string): PasswordStrength {
  const score = RULES.filter((rule) => rule(password)).length;
  if (isCommonPasswordVariant(password)) return { score, level: 'weak', label: '弱' };
  if (score >= 4) return { score, level: 'strong', label: '强' };
  if (score >= 2) return { score, level: 'medium', label: '中' };
  return { score, level: 'weak', label: '弱' };
}
