import type { AlertAuthorPaper, AlertPaper } from '@radar/db';
import { escapeHtml, isWebUrl, type OutgoingMail } from '@radar/mail';
import { followedAuthorReasonText } from '@radar/shared';

/** The keyword alert digest (Chinese, text and HTML). The subject holds no link (subjects get logged). */

const PRODUCT = '科研雷达';

/** A listed paper with why it is there beyond its keyword: the terms it shares with the research summary. */
export interface AlertMailPaper extends AlertPaper {
  sharedTerms: string[];
}

/**
 * A paper listed for its followed authors: their names as the paper writes them, how each was recognised
 * and, for a name alone, what the paper shares with the one followed from (the line says it as the page does).
 */
export interface AlertMailAuthorPaper extends AlertAuthorPaper {
  authors: { name: string; match: string; evidence?: string | undefined }[];
}

const authorLine = (paper: AlertMailAuthorPaper) => followedAuthorReasonText(paper.authors);

/** The second half of a paper's reason (the keyword is the first), '' when it shares no term. */
const sharedTermsLine = (terms: string[]) => (terms.length ? `与研究方向共有：${terms.join('、')}` : '');

/** The paper's page; its DOI link when the source gave none; '' when there is neither (or no web address). */
function paperLink(paper: Pick<AlertPaper, 'url' | 'doi'>): string {
  const link = paper.url || (paper.doi ? `https://doi.org/${paper.doi}` : '');
  return isWebUrl(link) ? link : '';
}

/** Feed titles can carry line breaks and runs of spaces. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export function keywordAlertMail(options: {
  to: string;
  /** Papers by followed authors, listed first. */
  authorPapers?: AlertMailAuthorPaper[];
  papers: AlertMailPaper[];
  /** Matching papers not listed. */
  moreCount: number;
  webBaseUrl: string;
  unsubscribeUrl: string;
}): OutgoingMail {
  const { papers, moreCount, webBaseUrl, unsubscribeUrl } = options;
  const authorPapers = options.authorPapers ?? [];
  const subject = `${PRODUCT}：关键词提醒（${papers.length + authorPapers.length} 篇新论文）`;
  const ranked = papers.some((paper) => paper.similarity !== null);
  const intro = papers.length
    ? `你关注的关键词有 ${papers.length} 篇新论文${ranked ? '，按与你研究方向的相似度排序' : ''}：`
    : '';
  const authorIntro = authorPapers.length ? `你关注的作者有 ${authorPapers.length} 篇新论文：` : '';
  const more = moreCount > 0 ? `另有 ${moreCount} 篇匹配的论文未列出，可在${PRODUCT}中搜索查看。` : '';
  const unsubscribeNote = '退订会关闭你所有关键词的邮件提醒，关键词本身会保留。';
  const papersUrl = `${webBaseUrl}/papers`;

  const textItems = papers.map((paper, index) => {
    const link = paperLink(paper);
    const shared = sharedTermsLine(paper.sharedTerms);
    return [
      `${index + 1}. ${oneLine(paper.title)}`,
      `   匹配关键词：${paper.keyword}`,
      ...(shared ? [`   ${shared}`] : []),
      ...(paper.journalName ? [`   期刊：${oneLine(paper.journalName)}`] : []),
      ...(link ? [`   链接：${link}`] : []),
    ].join('\n');
  });
  const authorTextItems = authorPapers.map((paper, index) => {
    const link = paperLink(paper);
    return [
      `${index + 1}. ${oneLine(paper.title)}`,
      `   ${authorLine(paper)}`,
      ...(paper.journalName ? [`   期刊：${oneLine(paper.journalName)}`] : []),
      ...(link ? [`   链接：${link}`] : []),
    ].join('\n');
  });
  const text = [
    '你好！',
    '',
    ...(authorIntro ? [authorIntro, '', authorTextItems.join('\n\n'), ''] : []),
    ...(intro ? [intro, '', textItems.join('\n\n'), ''] : []),
    ...(more ? [more, ''] : []),
    `在${PRODUCT}中查看更多论文：${papersUrl}`,
    '',
    `不想再收到关键词提醒？点此退订：${unsubscribeUrl}`,
    unsubscribeNote,
    '',
    `—— ${PRODUCT}`,
  ].join('\n');

  const htmlItems = papers
    .map((paper) => {
      const link = paperLink(paper);
      const shared = sharedTermsLine(paper.sharedTerms);
      const sharedHtml = shared
        ? `\n        <div style="font-size:13px;color:#4b5563">${escapeHtml(shared)}</div>`
        : '';
      const title = escapeHtml(oneLine(paper.title));
      return `<li style="margin-bottom:16px">
        <div style="font-weight:600">${link ? `<a href="${escapeHtml(link)}" style="color:#1d4ed8;text-decoration:none">${title}</a>` : title}</div>
        <div style="font-size:13px;color:#4b5563">匹配关键词：${escapeHtml(paper.keyword)}${paper.journalName ? ` · ${escapeHtml(oneLine(paper.journalName))}` : ''}</div>${sharedHtml}
      </li>`;
    })
    .join('\n');
  const authorHtmlItems = authorPapers
    .map((paper) => {
      const link = paperLink(paper);
      const title = escapeHtml(oneLine(paper.title));
      return `<li style="margin-bottom:16px">
        <div style="font-weight:600">${link ? `<a href="${escapeHtml(link)}" style="color:#1d4ed8;text-decoration:none">${title}</a>` : title}</div>
        <div style="font-size:13px;color:#4b5563">${escapeHtml(authorLine(paper))}${paper.journalName ? ` · ${escapeHtml(oneLine(paper.journalName))}` : ''}</div>
      </li>`;
    })
    .join('\n');
  const authorHtml = authorIntro
    ? `<p>${escapeHtml(authorIntro)}</p>
    <ol style="padding-left:20px">
${authorHtmlItems}
    </ol>`
    : '';
  const keywordHtml = intro
    ? `<p>${escapeHtml(intro)}</p>
    <ol style="padding-left:20px">
${htmlItems}
    </ol>`
    : '';
  const html = `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f7fb;font-family:-apple-system,'PingFang SC','Microsoft YaHei',sans-serif;color:#1f2937">
  <div style="max-width:600px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <div style="font-size:18px;font-weight:600;color:#1d4ed8;margin-bottom:24px">${PRODUCT}</div>
    <p>你好！</p>
    ${authorHtml}
    ${keywordHtml}
    ${more ? `<p>${escapeHtml(more)}</p>` : ''}
    <p><a href="${escapeHtml(papersUrl)}" style="color:#1d4ed8">在${PRODUCT}中查看更多论文</a></p>
    <p style="margin-top:32px;font-size:12px;color:#6b7280">不想再收到关键词提醒？<a href="${escapeHtml(unsubscribeUrl)}" style="color:#6b7280">退订</a>。${escapeHtml(unsubscribeNote)}</p>
  </div>
</body></html>`;

  return {
    to: options.to,
    subject,
    text,
    html,
    // RFC 2369 and RFC 8058: mail clients show an unsubscribe button that POSTs to the link.
    headers: {
      'List-Unsubscribe': `<${unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
