import { describe, expect, it } from 'vitest';
import { ApiError, createHttpError } from '@/lib/api-client';
import {
  describeForgotPasswordError,
  describeLoginError,
  describeRegisterError,
  describeResendError,
  describeResetPasswordError,
  describeVerifyError,
} from './auth-errors';

/** Error bodies as the server sends them (server/src/errors.ts, plugins/error-handler.ts). */
const http = (status: number, body: Record<string, unknown> | null = null) => createHttpError(status, body);
const transport = (code: 'NETWORK_ERROR' | 'TIMEOUT') => new ApiError({ status: null, code, message: code });

describe('describeRegisterError ("Register" messages)', () => {
  it('turns the already-registered answer into the warning', () => {
    const error = http(409, {
      code: 'EMAIL_ALREADY_REGISTERED',
      message: '该邮箱已注册，请直接登录或使用其他邮箱',
      fields: { email: ['该邮箱已注册'] },
      email: ['该邮箱已注册'],
    });
    expect(describeRegisterError(error)).toEqual({ kind: 'already-registered' });
  });

  it('maps the contract’s message-only and field-array answers, which carry no code', () => {
    expect(describeRegisterError(http(409, { message: '该邮箱已被注册' }))).toEqual({ kind: 'already-registered' });
    expect(describeRegisterError(http(409, {}))).toEqual({ kind: 'already-registered' });
    expect(describeRegisterError(http(400, { email: ['该邮箱已被注册'] }))).toEqual({ kind: 'already-registered' });
    expect(describeRegisterError(http(400, { error: 'A user with this email already exists.' }))).toEqual({
      kind: 'already-registered',
    });
    expect(describeRegisterError(http(400, { email: ['Enter a valid email address.'] }))).toEqual({
      kind: 'field',
      field: 'email',
      message: '请输入正确的邮箱格式，例如：name@university.edu.cn',
    });
    expect(describeRegisterError(http(400, { password: ['密码过于简单，请使用更复杂的密码'] }))).toEqual({
      kind: 'field',
      field: 'password',
      message: '密码过于简单，请使用更复杂的密码',
    });
    expect(describeRegisterError(http(400, { password: "Password fields didn't match." }))).toEqual({
      kind: 'field',
      field: 'password2',
      message: '两次输入的密码不一致，请重新输入',
    });
    expect(describeRegisterError(http(400, { message: '两次输入的密码不一致' }))).toEqual({
      kind: 'field',
      field: 'password2',
      message: '两次输入的密码不一致，请重新输入',
    });
    expect(describeRegisterError(http(400, { error: '邮箱格式不正确' }))).toEqual({
      kind: 'field',
      field: 'email',
      message: '请输入正确的邮箱格式，例如：name@university.edu.cn',
    });
  });

  it('adds an example address to the server’s email-format message', () => {
    const error = http(400, {
      code: 'VALIDATION_ERROR',
      message: '请输入正确的邮箱格式',
      fields: { email: ['请输入正确的邮箱格式'] },
    });
    expect(describeRegisterError(error)).toEqual({
      kind: 'field',
      field: 'email',
      message: '请输入正确的邮箱格式，例如：name@university.edu.cn',
    });
  });

  it('keeps other email messages as the server wrote them', () => {
    const error = http(400, { code: 'VALIDATION_ERROR', message: '邮箱地址过长', fields: { email: ['邮箱地址过长'] } });
    expect(describeRegisterError(error)).toEqual({ kind: 'field', field: 'email', message: '邮箱地址过长' });
  });

  it('asks to re-enter mismatched passwords', () => {
    const error = http(400, {
      code: 'VALIDATION_ERROR',
      message: '两次输入的密码不一致',
      fields: { password2: ['两次输入的密码不一致'] },
    });
    expect(describeRegisterError(error)).toEqual({
      kind: 'field',
      field: 'password2',
      message: '两次输入的密码不一致，请重新输入',
    });
  });

  it('puts the common-password refusal under the password', () => {
    const error = http(400, {
      code: 'VALIDATION_ERROR',
      message: '密码过于简单，请使用更复杂的密码',
      fields: { password: ['密码过于简单，请使用更复杂的密码'] },
    });
    expect(describeRegisterError(error)).toEqual({
      kind: 'field',
      field: 'password',
      message: '密码过于简单，请使用更复杂的密码',
    });
  });

  it('names an unparseable success, a time-out and a network failure', () => {
    expect(describeRegisterError(new ApiError({ status: 201, code: 'UNKNOWN_ERROR', message: 'x' }))).toEqual({
      kind: 'form',
      message: '服务器响应格式错误，请稍后重试',
    });
    expect(describeRegisterError(transport('TIMEOUT'))).toEqual({
      kind: 'form',
      message: '请求超时，请检查网络连接后重试',
    });
    expect(describeRegisterError(transport('NETWORK_ERROR'))).toEqual({
      kind: 'form',
      message: '网络连接失败，请检查网络后重试',
    });
  });

  it('keeps the actionable texts of a rate limit and a failed mail', () => {
    expect(describeRegisterError(http(429, { code: 'RATE_LIMITED', message: '请求过于频繁，请稍后再试' }))).toEqual({
      kind: 'form',
      message: '请求过于频繁，请稍后再试',
    });
    expect(
      describeRegisterError(http(503, { code: 'MAIL_DELIVERY_FAILED', message: '邮件发送失败，请稍后重试' })),
    ).toEqual({ kind: 'form', message: '邮件发送失败，请稍后重试' });
  });

  it('falls back to the generic texts', () => {
    expect(describeRegisterError(http(500))).toEqual({ kind: 'form', message: '注册失败，请稍后重试' });
    expect(describeRegisterError(http(403, { code: 'FORBIDDEN', message: 'x' }))).toEqual({
      kind: 'form',
      message: '注册失败，请稍后重试',
    });
    expect(describeRegisterError(new Error('boom'))).toEqual({ kind: 'form', message: '注册失败，请稍后重试' });
    expect(describeRegisterError('boom')).toEqual({ kind: 'form', message: '网络错误，请稍后重试' });
  });
});

describe('describeLoginError', () => {
  it('shows the server’s message, else its detail, else the login default', () => {
    expect(describeLoginError(http(400, { code: 'INVALID_CREDENTIALS', message: '邮箱或密码错误' }))).toEqual({
      message: '邮箱或密码错误',
      needsVerification: false,
    });
    expect(describeLoginError(http(400, { detail: '账号已停用' })).message).toBe('账号已停用');
    expect(describeLoginError(http(400, {})).message).toBe('登录失败，请检查邮箱和密码');
    expect(describeLoginError(new Error('x')).message).toBe('登录失败，请检查邮箱和密码');
  });

  it('offers verification to an unverified account', () => {
    const error = http(403, { code: 'EMAIL_NOT_VERIFIED', message: '邮箱尚未验证，请先完成邮箱验证', email: 'a@b.co' });
    expect(describeLoginError(error)).toEqual({ message: '邮箱尚未验证，请先完成邮箱验证', needsVerification: true });
  });

  it('keeps the client texts of failures the server did not explain', () => {
    expect(describeLoginError(transport('NETWORK_ERROR')).message).toBe('NETWORK_ERROR');
    expect(describeLoginError(http(502)).message).toBe('服务暂时不可用，请稍后重试');
    expect(describeLoginError(http(429, { code: 'RATE_LIMITED', message: '请求过于频繁，请稍后再试' })).message).toBe(
      '请求过于频繁，请稍后再试',
    );
  });
});

describe('describeVerifyError ("Verify" messages)', () => {
  it('shows the server’s message with the attempts left', () => {
    const error = http(400, {
      code: 'VERIFICATION_CODE_INVALID',
      message: '验证码错误，还可尝试 4 次',
      remaining_attempts: 4,
    });
    expect(describeVerifyError(error)).toEqual({ message: '验证码错误，还可尝试 4 次', remainingAttempts: 4 });
  });

  it('explains the lock: wait an hour or resend', () => {
    const error = http(429, {
      code: 'VERIFICATION_LOCKED',
      message: '尝试次数超限，请1小时后再试或重新发送验证码',
      error: '尝试次数超限',
      remaining_attempts: 0,
      remaining_seconds: 3600,
    });
    expect(describeVerifyError(error)).toEqual({
      message: '尝试次数超限，请1小时后再试或重新发送验证码',
      remainingAttempts: 0,
    });
  });

  it('has its own texts for network failures and unknown errors', () => {
    expect(describeVerifyError(transport('NETWORK_ERROR')).message).toBe('网络错误，请稍后重试');
    expect(describeVerifyError(transport('TIMEOUT')).message).toBe('网络错误，请稍后重试');
    expect(describeVerifyError(http(400, {})).message).toBe('验证失败');
    expect(describeVerifyError('x').message).toBe('验证失败');
  });
});

describe('describeResendError', () => {
  it('says 发送失败 with the reason and the cooldown of a 429', () => {
    const error = http(429, { code: 'RATE_LIMITED', message: '请在 42 秒后重新发送验证码', remaining_seconds: 42 });
    expect(describeResendError(error)).toEqual({ message: '发送失败：请在 42 秒后重新发送验证码', waitSeconds: 42 });
    expect(describeResendError('x')).toEqual({ message: '发送失败' });
  });
});

describe('describeForgotPasswordError', () => {
  it('counts down the seconds of a rate limit on the button, with the plain message (no wait to go stale)', () => {
    const error = http(429, { code: 'RATE_LIMITED', message: '请求过于频繁，请稍后再试', remaining_seconds: 3599 });
    expect(describeForgotPasswordError(error)).toEqual({ message: '请求过于频繁，请稍后再试', waitSeconds: 3599 });
  });

  it('has one text for every other failure', () => {
    expect(describeForgotPasswordError(http(500))).toEqual({ message: '发送重置邮件失败，请稍后重试' });
    expect(describeForgotPasswordError(transport('NETWORK_ERROR'))).toEqual({
      message: '发送重置邮件失败，请稍后重试',
    });
  });
});

describe('describeResetPasswordError', () => {
  it('recognises an unusable link', () => {
    expect(describeResetPasswordError(http(400, { code: 'RESET_TOKEN_INVALID', message: 'x' }))).toEqual({
      message: '无效的重置链接，请重新申请密码重置',
      invalidLink: true,
    });
    expect(
      describeResetPasswordError(
        http(400, { code: 'VALIDATION_ERROR', message: 'x', fields: { token: ['无效的重置链接'] } }),
      ),
    ).toEqual({ message: '无效的重置链接，请重新申请密码重置', invalidLink: true });
  });

  it('falls back to the reset failure text', () => {
    expect(describeResetPasswordError(http(500))).toEqual({ message: '密码重置失败，请稍后重试', invalidLink: false });
  });
});
