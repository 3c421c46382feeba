import { RESEARCH_DIRECTION_NOT_SET } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import { ApiError, CLIENT_ERROR_MESSAGES, createHttpError } from '@/lib/api-client';
import {
  describeRecommendationError,
  RecommendationServiceFailure,
  recommendationRetryDelay,
  shouldRetryRecommendation,
} from './recommendation-errors';

const directionNotSet = (details?: string) =>
  createHttpError(400, {
    code: 'RESEARCH_DIRECTION_NOT_SET',
    message: RESEARCH_DIRECTION_NOT_SET.error,
    error: RESEARCH_DIRECTION_NOT_SET.error,
    error_type: RESEARCH_DIRECTION_NOT_SET.errorType,
    ...(details === undefined ? {} : { details }),
  });
const transport = (code: 'TIMEOUT' | 'NETWORK_ERROR' | 'ABORTED') =>
  new ApiError({ status: null, code, message: CLIENT_ERROR_MESSAGES[code] });

describe('retry policy', () => {
  it('makes 3 attempts in all for failures a retry can fix', () => {
    for (const error of [transport('TIMEOUT'), transport('NETWORK_ERROR'), createHttpError(503, null)]) {
      expect(shouldRetryRecommendation(0, error)).toBe(true);
      expect(shouldRetryRecommendation(1, error)).toBe(true);
      expect(shouldRetryRecommendation(2, error)).toBe(false);
    }
    expect(shouldRetryRecommendation(0, new RecommendationServiceFailure())).toBe(true);
  });

  it('fails at once without a research direction', () => {
    expect(shouldRetryRecommendation(0, directionNotSet(RESEARCH_DIRECTION_NOT_SET.details))).toBe(false);
    // Recognised by error_type alone, as a backend without our codes sends it.
    expect(shouldRetryRecommendation(0, createHttpError(400, { error_kind: 'research-profile-not-set' }))).toBe(false);
  });

  it('does not repeat other 4xx answers or a cancelled request', () => {
    expect(shouldRetryRecommendation(0, createHttpError(400, { message: 'top_k 必须是 5 到 50 之间的整数' }))).toBe(
      false,
    );
    expect(shouldRetryRecommendation(0, createHttpError(401, null))).toBe(false);
    expect(shouldRetryRecommendation(0, createHttpError(429, null))).toBe(false);
    expect(shouldRetryRecommendation(0, transport('ABORTED'))).toBe(false);
  });

  it('waits 2 s times the attempt number', () => {
    expect(recommendationRetryDelay(0)).toBe(2000);
    expect(recommendationRetryDelay(1)).toBe(4000);
  });
});

describe('describeRecommendationError', () => {
  it('research_direction_not_set: the message comes from details', () => {
    expect(describeRecommendationError(directionNotSet(RESEARCH_DIRECTION_NOT_SET.detailsVectorPending))).toEqual({
      kind: 'research-profile-not-set',
      title: '请先设置研究方向',
      message: RESEARCH_DIRECTION_NOT_SET.detailsVectorPending,
    });
  });

  it('research_direction_not_set without details: the hint to generate the summary', () => {
    expect(describeRecommendationError(directionNotSet()).message).toBe('请通过研究方向分析生成英文研究摘要');
  });

  it('another 400 asks to complete the research direction', () => {
    expect(describeRecommendationError(createHttpError(400, { message: 'x' }))).toEqual({
      kind: 'error',
      message: '请完善你的研究方向信息以获取个性化推荐',
    });
  });

  it('time-out, success false, and the final failure', () => {
    expect(describeRecommendationError(transport('TIMEOUT')).message).toBe('推荐服务超时，请稍后重试');
    expect(describeRecommendationError(new RecommendationServiceFailure()).message).toBe('推荐服务返回失败');
    expect(describeRecommendationError(createHttpError(503, null)).message).toBe('推荐服务暂时不可用，请稍后重试');
    expect(describeRecommendationError(transport('NETWORK_ERROR')).message).toBe('推荐服务暂时不可用，请稍后重试');
    expect(describeRecommendationError(new Error('boom')).kind).toBe('error');
  });
});
