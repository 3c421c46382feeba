import { describe, expect, it } from 'vitest';
import { nextPollDelay, readTaskProgress, TASK_POLLING } from './research-task';

const RESULT = {
  name: '',
  email: '',
  institution: '',
  position: '',
  research_fields: ['biology'],
  research_summary_en: 'Plant ecology.',
};

describe('readTaskProgress', () => {
  it('waits while the task is pending or processing and polls are left', () => {
    expect(readTaskProgress(undefined, 0)).toEqual({ kind: 'waiting' });
    expect(readTaskProgress({ status: 'pending', error_message: null, result_data: null }, 1)).toEqual({
      kind: 'waiting',
    });
    expect(readTaskProgress({ status: 'processing', error_message: null, result_data: null }, 29)).toEqual({
      kind: 'waiting',
    });
  });

  it('times out after 30 answers without an end', () => {
    expect(TASK_POLLING).toEqual({ maxPolls: 30, intervalMs: 2000 });
    expect(readTaskProgress({ status: 'processing', error_message: null, result_data: null }, 30)).toEqual({
      kind: 'timed-out',
    });
  });

  it('yields the result when completed, also on the last poll', () => {
    expect(readTaskProgress({ status: 'completed', error_message: null, result_data: RESULT }, 30)).toEqual({
      kind: 'completed',
      result: RESULT,
    });
    expect(readTaskProgress({ status: 'completed', error_message: null, result_data: { result: RESULT } }, 2)).toEqual({
      kind: 'completed',
      result: RESULT,
    });
  });

  it('reports an empty result', () => {
    expect(readTaskProgress({ status: 'completed', error_message: null, result_data: null }, 3)).toEqual({
      kind: 'empty',
    });
  });

  it("fails with the task's error message, else the generic text", () => {
    expect(
      readTaskProgress({ status: 'failed', error_message: '研究方向处理超时，请重试', result_data: null }, 4),
    ).toEqual({
      kind: 'failed',
      message: '研究方向处理超时，请重试',
    });
    expect(readTaskProgress({ status: 'failed', error_message: null, result_data: null }, 4)).toEqual({
      kind: 'failed',
      message: '研究方向处理失败',
    });
  });
});

describe('nextPollDelay', () => {
  it('polls every 2 s while waiting and stops at the end or after 30 answers', () => {
    expect(nextPollDelay(undefined, 0)).toBe(2000);
    expect(nextPollDelay({ status: 'pending', error_message: null, result_data: null }, 29)).toBe(2000);
    expect(nextPollDelay({ status: 'pending', error_message: null, result_data: null }, 30)).toBe(false);
    expect(nextPollDelay({ status: 'failed', error_message: null, result_data: null }, 1)).toBe(false);
    expect(nextPollDelay({ status: 'completed', error_message: null, result_data: RESULT }, 1)).toBe(false);
  });
});
