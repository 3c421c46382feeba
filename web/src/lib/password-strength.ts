/** Password strength hint of the register screen (spec section 4, "Password strength"). */
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

export function getPasswordStrength(password: string): PasswordStrength {
  const score = RULES.filter((rule) => rule(password)).length;
  if (score >= 4) return { score, level: 'strong', label: '强' };
  if (score >= 2) return { score, level: 'medium', label: '中' };
  return { score, level: 'weak', label: '弱' };
}
