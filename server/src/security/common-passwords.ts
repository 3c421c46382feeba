import fs from 'node:fs';

/**
 * 49,000 common passwords (common-passwords.txt: zxcvbn's frequency list, MIT), loaded once on first
 * use. Comparison is case-insensitive: "Password123" is as guessable as "password123".
 */
let commonPasswords: Set<string> | undefined;

function load(): Set<string> {
  const text = fs.readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8');
  return new Set(text.split('\n').filter((line) => line && !line.startsWith('#')));
}

export function isCommonPassword(password: string): boolean {
  commonPasswords ??= load();
  return commonPasswords.has(password.toLowerCase());
}
