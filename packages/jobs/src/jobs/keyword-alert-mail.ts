import type { AlertAuthorPaper, AlertPaper } from '@radar/db';
import {
  brandedHtml,
  escapeHtml,
  isWebUrl,
  listItemHtml,
  listSectionHtml,
  type OutgoingMail,
  PRODUCT_NAME,
  unsubscribeHeaders,
} from '@radar/mail';
import { followedAuthorReasonText } from '@radar/shared';

/** The keyword alert digest (Chinese, text and HTML). The subject holds no link (subjects get logged). */

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

/** ` · journal` after a listed paper's line, escaped; '' without a journal. */
const journalSuffix = (paper: Pick<AlertPaper, 'journalName'>) =>
  paper.journalName ? ` · ${escapeHtml(oneLine(paper.journalName))}` : '';

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
  const subject = `${PRODUCT_NAME}：关键词提醒（${papers.length + authorPapers.length} 篇新论文）`;
  const ranked = papers.some((paper) => paper.similarity !== null);
  const intro = papers.length
    ? `你关注的关键词有 ${papers.length} 篇新论文${ranked ? '，按与你研究方向的相似度排序' : ''}：`
    : '';
  const authorIntro = authorPapers.length ? `你关注的作者有 ${authorPapers.length} 篇新论文：` : '';
  const more = moreCount > 0 ? `另有 ${moreCount} 篇匹配的论文未列出，可在${PRODUCT_NAME}中搜索查看。` : '';
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
    `在${PRODUCT_NAME}中查看更多论文：${papersUrl}`,
    '',
    `不想再收到关键词提醒？点此退订：${unsubscribeUrl}`,
    unsubscribeNote,
    '',
    `—— ${PRODUCT_NAME}`,
  ].join('\n');

  const htmlItems = papers.map((paper) => {
    const shared = sharedTermsLine(paper.sharedTerms);
    return listItemHtml({
      title: oneLine(paper.title),
      url: paperLink(paper),
      lineHtml: `匹配关键词：${escapeHtml(paper.keyword)}${journalSuffix(paper)}`,
      extraHtml: shared ? `\n        <div style="font-size:13px;color:#4b5563">${escapeHtml(shared)}</div>` : '',
    });
  });
  const authorHtmlItems = authorPapers.map((paper) =>
    listItemHtml({
      title: oneLine(paper.title),
      url: paperLink(paper),
      lineHtml: `${escapeHtml(authorLine(paper))}${journalSuffix(paper)}`,
    }),
  );
  const html = brandedHtml({
    title: subject,
    width: 600,
    bodyHtml: `<p>你好！</p>
    ${listSectionHtml(`<p>${escapeHtml(authorIntro)}</p>`, authorHtmlItems)}
    ${listSectionHtml(`<p>${escapeHtml(intro)}</p>`, htmlItems)}
    ${more ? `<p>${escapeHtml(more)}</p>` : ''}
    <p><a href="${escapeHtml(papersUrl)}" style="color:#1d4ed8">在${PRODUCT_NAME}中查看更多论文</a></p>`,
    footerHtml: `不想再收到关键词提醒？<a href="${escapeHtml(unsubscribeUrl)}" style="color:#6b7280">退订</a>。${escapeHtml(unsubscribeNote)}`,
  });

  return {
    to: options.to,
    subject,
    text,
    html,
    headers: unsubscribeHeaders(unsubscribeUrl),
  };
}
