import { describe, expect, it } from 'vitest';
import { ApiError, createHttpError } from '@/lib/api-client';
import { describeGenerationError } from './generation-errors';

const network = new ApiError({ status: null, code: 'NETWORK_ERROR', message: '网络连接失败，请检查网络设置' });

describe('describeGenerationError', () => {
  it('says "insufficient permission" on 403 and "server error" on any 5xx', () => {
    expect(describeGenerationError(createHttpError(403, null), 'submit')).toBe('权限不足，请检查账号状态');
    for (const status of [500, 502, 503, 504]) {
      expect(describeGenerationError(createHttpError(status, null), 'submit')).toBe('服务器错误，请重试');
      expect(describeGenerationError(createHttpError(status, null), 'status')).toBe('服务器错误，请重试');
    }
  });

  it("shows the server's validation message and the client's network and rate-limit texts", () => {
    const invalid = createHttpError(400, { code: 'VALIDATION_ERROR', message: '研究方向描述不能超过 3000 个字符' });
    expect(describeGenerationError(invalid, 'submit')).toBe('研究方向描述不能超过 3000 个字符');
    expect(describeGenerationError(createHttpError(429, null), 'submit')).toBe('请求过于频繁，请稍后再试');
    expect(describeGenerationError(network, 'status')).toBe('网络连接失败，请检查网络设置');
  });

  it('says the status query failed for a missing task or an unreadable answer', () => {
    expect(describeGenerationError(createHttpError(404, { message: '任务不存在' }), 'status')).toBe('任务状态查询失败');
    expect(describeGenerationError(new Error('boom'), 'status')).toBe('任务状态查询失败');
  });

  it('falls back to the async processing failure for a submit that failed oddly', () => {
    expect(describeGenerationError(new Error('boom'), 'submit')).toBe('异步处理研究方向失败，请重试');
  });

  it('always explains how to go on after a failed save', () => {
    for (const error of [createHttpError(500, null), createHttpError(400, { message: '邮箱格式不正确' }), network]) {
      expect(describeGenerationError(error, 'save')).toBe(
        '保存失败，请重试。你可以重新使用“生成研究信息”功能或手动编辑',
      );
    }
  });
});
