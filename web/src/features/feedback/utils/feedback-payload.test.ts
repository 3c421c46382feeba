import { describe, expect, it } from 'vitest';
import { ApiError, createHttpError } from '@/lib/api-client';
import { buildFeedbackUserInfo, describeFeedbackError, formatShanghaiTimestamp } from './feedback-payload';

describe('formatShanghaiTimestamp', () => {
  it.each([
    ['2026-11-23T12:05:09Z', '2026-11-23 20:05:09'],
    // Past 16:00 UTC it is the next day in Shanghai (UTC+8, no daylight saving).
    ['2026-12-31T16:00:00Z', '2027-01-01 00:00:00'],
    ['2026-07-01T15:59:59.999Z', '2026-07-01 23:59:59'],
    ['2026-03-08T01:02:03+05:00', '2026-03-08 04:02:03'],
  ])('%s -> %s', (instant, expected) => {
    expect(formatShanghaiTimestamp(new Date(instant))).toBe(expected);
  });
});

describe('buildFeedbackUserInfo', () => {
  const common = {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0',
    currentPage: 'http://127.0.0.1:3000/feedback',
    now: new Date('2026-11-23T00:00:00Z'),
  };

  it("attaches the account's e-mail and id", () => {
    expect(buildFeedbackUserInfo({ ...common, account: { email: 'li@example.edu', id: '42' } })).toEqual({
      email: 'li@example.edu',
      userId: '42',
      userAgent: common.userAgent,
      currentPage: common.currentPage,
      timestamp: '2026-11-23 08:00:00',
    });
  });

  it("reports a visitor as not logged in with the id 'unknown'", () => {
    expect(buildFeedbackUserInfo({ ...common, account: null })).toMatchObject({ email: '未登录', userId: 'unknown' });
  });
});

describe('describeFeedbackError', () => {
  it('is the network text when no answer arrived', () => {
    for (const code of ['NETWORK_ERROR', 'TIMEOUT'] as const) {
      expect(describeFeedbackError(new ApiError({ status: null, code, message: '' }))).toBe(
        '网络错误，请检查网络连接后重试',
      );
    }
  });

  it('is the send failure for any answer of the server and anything else', () => {
    for (const error of [createHttpError(500, null), createHttpError(400, null), 'x']) {
      expect(describeFeedbackError(error)).toBe('发送反馈失败，请稍后重试');
    }
  });

  it('is the rate-limit text with the wait on a 429', () => {
    expect(describeFeedbackError(createHttpError(429, { code: 'RATE_LIMITED', remaining_seconds: 1800 }))).toBe(
      '请求过于频繁，请稍后再试（30 分钟后可重试）',
    );
  });
});
