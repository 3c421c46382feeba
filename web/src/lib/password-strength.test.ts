import { describe, expect, it } from 'vitest';
import { getPasswordStrength } from './password-strength';

describe('getPasswordStrength (spec section 4)', () => {
  it.each([
    ['', 0, 'weak', '弱'],
    ['abc', 1, 'weak', '弱'],
    ['ABC', 1, 'weak', '弱'],
    ['abcdefgh', 2, 'medium', '中'],
    ['abc123', 2, 'medium', '中'],
    ['abcdefg1', 3, 'medium', '中'],
    ['Abcdefg1', 4, 'strong', '强'],
    ['abcdefgh1!', 4, 'strong', '强'],
    ['abcdefghijkl', 3, 'medium', '中'],
    ['Abcdefghijk1!', 6, 'strong', '强'],
    ['密码密码密码密码', 2, 'medium', '中'],
  ])('%j scores %i (%s)', (password, score, level, label) => {
    expect(getPasswordStrength(password)).toEqual({ score, level, label });
  });
});
