import { describe, expect, it } from 'vitest';
import { describeSourceFailure, nextRetryOf } from '../src/pipeline/source-failure';
import type { SourceConfig } from '../src/pipeline/sources-config';

/** What a reader is told of a failing source, and when it is tried again. */

describe('describeSourceFailure', () => {
  it('says the fetcher’s errors in Chinese words, never the technical message', () => {
    expect(describeSourceFailure('rss.arxiv.org: unknown host (DNS) (after 4 attempts)')).toBe(
      '无法连接（域名解析失败）',
    );
    expect(describeSourceFailure('api.openalex.org: connection refused (after 4 attempts)')).toBe(
      '无法连接（连接被拒绝）',
    );
    expect(describeSourceFailure('api.crossref.org: no answer within 30000 ms (after 4 attempts)')).toBe(
      '连接超时（来源没有响应）',
    );
    expect(describeSourceFailure('export.arxiv.org answered 503 Service Unavailable (after 4 attempts)')).toBe(
      '来源服务器出错',
    );
    expect(describeSourceFailure('example.org answered 404 Not Found: <html>')).toBe('来源地址已失效');
    expect(describeSourceFailure('example.org answered 429 Too Many Requests')).toBe('来源限制了访问频率');
    expect(describeSourceFailure("not an RSS or Atom feed: the document's root element is <html>")).toBe(
      '来源返回的内容无法识别',
    );
    expect(describeSourceFailure('something nobody expected')).toBe('抓取出错');
  });
});

describe('nextRetryOf', () => {
  const source = { name: 'arxiv-cs', kind: 'arxiv', categories: ['cs.LG'] } as SourceConfig;
  const settings = { enabled: true, jobAttempts: 4, jobBackoffMs: 60_000 };
  const failedAt = new Date('2026-11-28T22:45:00Z');

  it('is the job’s next attempt (exponential backoff) while attempts are left', () => {
    expect(nextRetryOf(source, settings, 1, failedAt)).toEqual(new Date('2026-11-28T22:46:00Z'));
    expect(nextRetryOf(source, settings, 3, failedAt)).toEqual(new Date('2026-11-28T22:49:00Z'));
  });

  it('is the next scheduled run once the job’s attempts are spent, none with scheduled runs off', () => {
    // arxiv runs at minute 10 of every sixth hour.
    expect(nextRetryOf({ ...source, timezone: 'UTC' }, settings, 4, failedAt)).toEqual(
      new Date('2026-11-29T00:10:00Z'),
    );
    expect(nextRetryOf(source, { ...settings, enabled: false }, 4, failedAt)).toBeUndefined();
  });
});
