import { describe, expect, it } from 'vitest';
import { isCommonPassword } from '@/lib/common-passwords';
import { registerFormSchema, resetPasswordFormSchema } from './auth-form-schemas';

const firstMessages = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => {
  const messages: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path.join('.');
    messages[field] ??= issue.message;
  }
  return messages;
};

describe('isCommonPassword', () => {
  it('knows the most common passwords, in any case', () => {
    for (const password of ['password', '123456', '12345678', 'qwerty', 'abc123', 'password123', 'PassWord123']) {
      expect(isCommonPassword(password)).toBe(true);
    }
    expect(isCommonPassword('research-radar-2026')).toBe(false);
  });
});

describe('register form rules (first failing rule per field)', () => {
  const check = (values: Record<string, string>) => firstMessages(registerFormSchema.safeParse(values));

  it.each([
    [
      { email: '', password: '', password2: '' },
      { email: '请输入邮箱地址', password: '请输入密码', password2: '请确认密码' },
    ],
    [
      { email: 'no-at', password: 'abc', password2: 'x' },
      { email: '请输入正确的邮箱格式', password: '密码长度至少为8位' },
    ],
    [
      { email: `${'a'.repeat(250)}@x.org`, password: 'ABCDEFGH1', password2: 'ABCDEFGH1' },
      { email: '邮箱地址过长', password: '密码必须包含至少一个小写字母' },
    ],
    [{ email: 'a@b.co', password: 'abcdefgh', password2: 'abcdefgh' }, { password: '密码必须包含至少一个数字' }],
    [
      { email: 'a@b.co', password: 'password123', password2: 'password123' },
      { password: '密码过于简单，请使用更复杂的密码' },
    ],
    [{ email: 'a@b.co', password: 'radar-2026x', password2: 'radar-2026y' }, { password2: '两次输入的密码不一致' }],
  ])('%j -> %j', (values, expected) => {
    const messages = check(values);
    for (const [field, message] of Object.entries(expected)) expect(messages[field]).toBe(message);
  });

  it('accepts a good registration and normalises the email', () => {
    const result = registerFormSchema.safeParse({
      email: ' Me@Uni.EDU ',
      password: 'radar-2026x',
      password2: 'radar-2026x',
    });
    expect(result.success && result.data.email).toBe('me@uni.edu');
  });
});

describe('reset form rules', () => {
  it('needs the token, a valid new password and a matching confirmation', () => {
    expect(
      firstMessages(
        resetPasswordFormSchema.safeParse({ token: '', password: 'radar-2026x', confirm_password: 'radar-2026x' }),
      ),
    ).toEqual({
      token: '无效的重置链接',
    });
    expect(
      firstMessages(resetPasswordFormSchema.safeParse({ token: 't', password: 'short1', confirm_password: 'short1' })),
    ).toEqual({
      password: '密码长度至少为8位',
    });
    expect(
      firstMessages(
        resetPasswordFormSchema.safeParse({ token: 't', password: 'radar-2026x', confirm_password: 'radar-2026' }),
      ),
    ).toEqual({ confirm_password: '两次输入的密码不一致' });
    expect(
      resetPasswordFormSchema.safeParse({ token: 't', password: 'radar-2026x', confirm_password: 'radar-2026x' })
        .success,
    ).toBe(true);
  });
});
