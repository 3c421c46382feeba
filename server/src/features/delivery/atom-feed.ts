import { escapeHtml } from '@radar/mail';
import type { DigestItem } from '@radar/recommend';

/**
 * The personal feed as Atom 1.0 (RFC 4287): feed id, title, updated and author; each entry an id, a
 * title, an updated time, an alternate link (the item's page, else the site's list) and a summary with
 * the reason (and the paper's summary). escapeHtml's entities (&amp; &lt; &gt; &quot; &#39;) are XML's too.
 */
export function atomFeedOf(input: {
  feedId: string;
  selfUrl: string;
  webBaseUrl: string;
  entries: DigestItem[];
  now: Date;
}): string {
  const { webBaseUrl } = input;
  const updatedOf = (item: DigestItem) => item.storedAt.toISOString();
  const newest = input.entries.reduce<Date | undefined>(
    (latest, item) => (!latest || item.storedAt > latest ? item.storedAt : latest),
    undefined,
  );
  const entries = input.entries.map((item) => {
    const link = item.url || `${webBaseUrl}/${item.kind === 'paper' ? 'papers' : 'news'}`;
    const label = item.kind === 'paper' ? '论文' : '资讯';
    const summary = [
      `推荐理由：${item.reason}`,
      ...(item.summary ? [`摘要：${item.summary}`] : []),
      ...(item.source ? [`${item.kind === 'paper' ? '期刊' : '来源'}：${item.source}`] : []),
    ].join('\n');
    return `  <entry>
    <id>urn:radar:${item.kind}:${item.id}</id>
    <title>${escapeHtml(item.title)}</title>
    <updated>${updatedOf(item)}</updated>
    <link rel="alternate" href="${escapeHtml(link)}"/>
    <category term="${item.kind}" label="${label}"/>
    <summary>${escapeHtml(summary)}</summary>
  </entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="zh-CN">
  <id>${escapeHtml(input.feedId)}</id>
  <title>科研雷达 · 为你推荐</title>
  <subtitle>与你的研究方向最相关的新论文和学术资讯</subtitle>
  <updated>${(newest ?? input.now).toISOString()}</updated>
  <author><name>科研雷达</name></author>
  <link rel="self" type="application/atom+xml" href="${escapeHtml(input.selfUrl)}"/>
  <link rel="alternate" type="text/html" href="${escapeHtml(`${webBaseUrl}/papers`)}"/>
${entries.join('\n')}
</feed>
`;
}
