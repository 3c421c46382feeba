import { RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import { ApiError, CLIENT_ERROR_MESSAGES, createHttpError } from '@/lib/api-client';
import { describeNewsError } from './news-errors';

describe('describeNewsError', () => {
  it('research_direction_not_set is an info banner with the details', () => {
    const error = createHttpError(400, {
      code: 'RESEARCH_DIRECTION_NOT_SET',
      message: RESEARCH_DIRECTION_NOT_SET.error,
      error_type: RESEARCH_DIRECTION_NOT_SET.errorType,
      details: RESEARCH_DIRECTION_NOT_SET.details,
    });
    expect(describeNewsError(error)).toEqual({
      kind: 'research-profile-not-set',
      message: RESEARCH_DIRECTION_NOT_SET.details,
    });
  });

  it('recognises it from error_type alone, or from a message about the research direction', () => {
    expect(describeNewsError(createHttpError(400, { error_type: 'research_direction_not_set' })).kind).toBe(
      'research-profile-not-set',
    );
    expect(describeNewsError(createHttpError(409, { message: '研究方向尚未生成向量' }))).toEqual({
      kind: 'research-profile-not-set',
      message: '研究方向尚未生成向量',
    });
  });

  it("another 400 is '推荐失败'", () => {
    expect(describeNewsError(createHttpError(400, { message: 'top_k 必须是 5 到 50 之间的整数' }))).toEqual({
      kind: 'error',
      message: '推荐失败',
    });
  });

  it("keeps the client's message for transient failures, else the generic one", () => {
    expect(describeNewsError(createHttpError(503, null)).message).toBe('服务暂时不可用，请稍后重试');
    expect(describeNewsError(createHttpError(429, null)).message).toBe('请求过于频繁，请稍后再试');
    expect(
      describeNewsError(new ApiError({ status: null, code: 'TIMEOUT', message: CLIENT_ERROR_MESSAGES.TIMEOUT }))
        .message,
    ).toBe(CLIENT_ERROR_MESSAGES.TIMEOUT);
    expect(describeNewsError(createHttpError(404, null)).message).toBe('获取新闻推荐失败，请重试');
    expect(describeNewsError(new Error('boom'))).toEqual({ kind: 'error', message: '获取新闻推荐失败，请重试' });
  });
});
