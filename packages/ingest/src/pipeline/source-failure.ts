import { CronExpressionParser } from 'cron-parser';
import type { IngestSettings } from './settings';
import { type SourceConfig, scheduleOf } from './sources-config';

/**
 * A source's failure as a reader is told it: what went wrong in Chinese words, never the technical
 * message (host names, error codes, attempts), which stays for operators (`pnpm radar sources`, the
 * `radar_source_*` metrics). The messages matched are those the fetcher writes (http.ts, xml-feed.ts).
 */
export function describeSourceFailure(error: string): string {
  const text = error.toLowerCase();
  if (text.includes('unknown host') || text.includes('enotfound') || text.includes('eai_again')) {
    return '无法连接（域名解析失败）';
  }
  if (text.includes('connection refused') || text.includes('econnrefused')) return '无法连接（连接被拒绝）';
  if (text.includes('connection reset') || text.includes('econnreset')) return '连接中断';
  if (text.includes('no answer within') || text.includes('timed out') || text.includes('stalled')) {
    return '连接超时（来源没有响应）';
  }
  const status = /(?:answered|http) (\d{3})\b/.exec(text)?.[1];
  if (status === '429') return '来源限制了访问频率';
  if (status === '401' || status === '403') return '来源拒绝访问';
  if (status === '404' || status === '410') return '来源地址已失效';
  if (status?.startsWith('5')) return '来源服务器出错';
  if (status?.startsWith('4')) return '来源拒绝了请求';
  if (text.includes('not an rss or atom feed')) return '来源返回的内容无法识别';
  if (text.includes('invalid schedule')) return '抓取计划配置有误';
  if (text.includes('certificate') || text.includes('tls') || text.includes('ssl')) return '无法建立安全连接';
  return '抓取出错';
}

/**
 * When a failing source is tried again: the next attempt of its job (the ingest queue retries a failed
 * run `jobAttempts` times with exponential backoff from `jobBackoffMs`), else its next scheduled run
 * (its cron pattern, as the job scheduler computes it); undefined when scheduled runs are off and no
 * attempt is left. `failures` is the failed attempts since the last success, `lastFailureAt` the latest.
 */
export function nextRetryOf(
  source: SourceConfig,
  settings: Pick<IngestSettings, 'enabled' | 'jobAttempts' | 'jobBackoffMs'>,
  failures: number,
  lastFailureAt: Date,
): Date | undefined {
  const attempt = failures > 0 ? ((failures - 1) % Math.max(1, settings.jobAttempts)) + 1 : settings.jobAttempts;
  if (attempt < settings.jobAttempts) {
    return new Date(lastFailureAt.getTime() + settings.jobBackoffMs * 2 ** (attempt - 1));
  }
  if (!settings.enabled) return undefined;
  try {
    return CronExpressionParser.parse(scheduleOf(source), {
      currentDate: lastFailureAt,
      ...(source.timezone ? { tz: source.timezone } : {}),
    })
      .next()
      .toDate();
  } catch {
    return undefined;
  }
}
