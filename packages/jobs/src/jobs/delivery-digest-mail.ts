import {
  brandedHtml,
  escapeHtml,
  isWebUrl,
  listItemHtml,
  listSectionHtml,
  type OutgoingMail,
  PRODUCT_NAME,
  type RobotDigest,
  unsubscribeHeaders,
} from '@radar/mail';
import type { DigestItem, PublishedPreprintNotice } from '@radar/recommend';

/** The digest mail and the robot push of one delivery (Chinese; the subject holds no link: subjects get logged). */

export interface DigestContent {
  frequency: 'daily' | 'weekly';
  papers: DigestItem[];
  news: DigestItem[];
  publishedPreprints: PublishedPreprintNotice[];
  webBaseUrl: string;
}

const periodWord = (frequency: DigestContent['frequency']) => (frequency === 'weekly' ? '本周' : '今日');

function countLine(content: DigestContent): string {
  const parts = [
    ...(content.papers.length ? [`${content.papers.length} 篇论文`] : []),
    ...(content.news.length ? [`${content.news.length} 条资讯`] : []),
    ...(content.publishedPreprints.length ? [`${content.publishedPreprints.length} 篇预印本已正式发表`] : []),
  ];
  return parts.join('、');
}

export function digestMail(content: DigestContent & { to: string; unsubscribeUrl: string }): OutgoingMail {
  const { papers, news, publishedPreprints, webBaseUrl, unsubscribeUrl } = content;
  const period = periodWord(content.frequency);
  const subject = `${PRODUCT_NAME}：${period}推荐（${countLine(content)}）`;
  const intro = `${period}为你挑选了与研究方向最相关的新内容，每条都附推荐理由：`;
  const settingsUrl = `${webBaseUrl}/my`;
  const unsubscribeNote = `退订只停止推送邮件；推送时间、订阅地址和机器人推送可在${PRODUCT_NAME}“我的”页面的“推送与订阅”中修改。`;

  const textItem = (item: DigestItem, index: number) =>
    [
      `${index + 1}. ${item.title}`,
      `   推荐理由：${item.reason}`,
      ...(item.summary ? [`   AI 摘要：${item.summary}`] : []),
      ...(item.source ? [`   ${item.kind === 'paper' ? '期刊' : '来源'}：${item.source}`] : []),
      ...(item.url ? [`   链接：${item.url}`] : []),
    ].join('\n');
  const textSection = (heading: string, items: DigestItem[]) =>
    items.length ? [`【${heading}】`, '', items.map(textItem).join('\n\n'), ''] : [];
  const preprintText = publishedPreprints.length
    ? [
        '【你收藏的预印本已正式发表】',
        '',
        publishedPreprints
          .map((notice) => `- ${notice.title}（${notice.journalName}）${notice.url ? `\n  ${notice.url}` : ''}`)
          .join('\n'),
        '',
      ]
    : [];
  const text = [
    '你好！',
    '',
    intro,
    '',
    ...textSection('论文', papers),
    ...textSection('学术资讯', news),
    ...preprintText,
    `在${PRODUCT_NAME}中查看全部推荐：${webBaseUrl}/papers`,
    '',
    `不想再收到推送邮件？点此退订：${unsubscribeUrl}`,
    unsubscribeNote,
    '',
    `—— ${PRODUCT_NAME}`,
  ].join('\n');

  const htmlItem = (item: DigestItem) =>
    listItemHtml({
      title: item.title,
      url: item.url,
      lineHtml: `推荐理由：${escapeHtml(item.reason)}${item.source ? ` · ${escapeHtml(item.source)}` : ''}`,
      extraHtml: item.summary
        ? `\n        <div style="font-size:13px;color:#374151;margin-top:4px">AI 摘要：${escapeHtml(item.summary)}</div>`
        : '',
    });
  const htmlSection = (heading: string, items: DigestItem[]) =>
    listSectionHtml(`<h2 style="font-size:16px;margin:24px 0 8px">${heading}</h2>`, items.map(htmlItem));
  const preprintHtml = publishedPreprints.length
    ? `<h2 style="font-size:16px;margin:24px 0 8px">你收藏的预印本已正式发表</h2>\n    <ul style="padding-left:20px">${publishedPreprints
        .map(
          (notice) =>
            `<li>${notice.url && isWebUrl(notice.url) ? `<a href="${escapeHtml(notice.url)}" style="color:#1d4ed8">${escapeHtml(notice.title)}</a>` : escapeHtml(notice.title)}（${escapeHtml(notice.journalName)}）</li>`,
        )
        .join('')}</ul>`
    : '';
  const html = brandedHtml({
    title: subject,
    width: 600,
    bodyHtml: `<p>你好！</p>
    <p>${escapeHtml(intro)}</p>
    ${htmlSection('论文', papers)}
    ${htmlSection('学术资讯', news)}
    ${preprintHtml}
    <p><a href="${escapeHtml(`${webBaseUrl}/papers`)}" style="color:#1d4ed8">在${PRODUCT_NAME}中查看全部推荐</a></p>`,
    footerHtml: `不想再收到推送邮件？<a href="${escapeHtml(unsubscribeUrl)}" style="color:#6b7280">退订</a>。${escapeHtml(unsubscribeNote)} <a href="${escapeHtml(settingsUrl)}" style="color:#6b7280">修改推送设置</a>`,
  });
  return {
    to: content.to,
    subject,
    text,
    html,
    headers: unsubscribeHeaders(unsubscribeUrl),
  };
}

/** The same digest for a group robot (papers, then news, then the preprint notices). */
export function digestRobotMessage(content: DigestContent): RobotDigest {
  return {
    title: `${PRODUCT_NAME}${periodWord(content.frequency)}推荐`,
    intro: countLine(content),
    items: [
      ...content.papers.map((item) => ({ ...item, label: '论文' })),
      ...content.news.map((item) => ({ ...item, label: '资讯' })),
      ...content.publishedPreprints.map((notice) => ({
        title: notice.title,
        url: notice.url,
        reason: `你收藏的预印本已在 ${notice.journalName} 正式发表`,
        label: '已发表',
      })),
    ],
    footer: { text: `在${PRODUCT_NAME}中查看全部推荐`, url: `${content.webBaseUrl}/papers` },
  };
}
