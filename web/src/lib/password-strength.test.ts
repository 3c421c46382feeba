import { describe, expect, it } from 'vitest';
import { getPasswordStrength } from './password-strength';

describe('getPasswordStrength', () => {
  it.each([
    ['', 0, 'weak', '弱'],
    ['abc', 1, 'weak', '弱'],
    ['ABC', 1, 'weak', '弱'],
    ['abcdefgh', 2, 'medium', '中'],
    ['xyz123', 2, 'medium', '中'],
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

describe('getPasswordStrength and common passwords', () => {
  it.each([
    'abc123',
    'Password123',
    'PASSWORD123',
    'Password123!',
    'P@ssw0rd2024!',
    'MyPassword1!',
    'Qwerty2024!',
    'Abc123456!',
    '1234567890',
  ])('%j is weak whatever it scores', (password) => {
    expect(getPasswordStrength(password)).toMatchObject({ level: 'weak', label: '弱' });
  });

  it('leaves other passwords to the score', () => {
    expect(getPasswordStrength('Abcdefg1').label).toBe('强');
    expect(getPasswordStrength('Radar-2026-notes').label).toBe('强');
    expect(getPasswordStrength('19283746').label).toBe('中');
  });
});
