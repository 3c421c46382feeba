import { NEWS_PAGE_HEADING } from '@/features/news-recommendations/strings';
import { PAPERS_PAGE_HEADING } from '@/features/paper-recommendations/strings';
import {
  EARLY_VIEW_ID,
  EARLY_VIEW_STYLE_ID,
  EARLY_VIEW_WIDE_MIN_WIDTH,
  type EarlyPage,
  isEarlyViewWanted,
  rememberedListTop,
} from '@/lib/early-view';
import { formatJcrTier, formatSimilarityPercent, lastAuthor, paperHref } from '@/lib/paper-display';
import { formatRelativeTime } from '@/lib/relative-time';
import { readNewsRecommendations, readPaperRecommendations } from '@/lib/spec-answers';
import { truncateText } from '@/lib/text';
import { brand, fontFamily, gray, teal } from '@/theme/theme-primitives';

/**
 * The early view: the first cards of /papers and /news drawn with plain DOM from the list's early
 * answer (app/early-gets), before React and MUI have run. On a cold load of a 2-core machine the
 * browser spends about a second evaluating and rendering the app after the list has answered; the
 * reader sees the first results meanwhile, as the cards of the page (title linking to the source,
 * AI summary, abstract, the chips), over a light copy of the shell. It covers the window until the
 * app's page takes over (lib/early-view's `endEarlyView`: the page's list, error or empty state is
 * rendered, or the reader is on another route); the app then shows the same answer with every action.
 *
 * Nothing here is React or MUI: it is part of the early script, which must stay small. The styles copy
 * the theme's tokens (theme/theme-primitives) and the cards' layout (components/papers/paper-card,
 * components/news/news-card).
 */

/** Cards drawn: more than a 1280x800 window shows (the app's first stage draws as many). */
const CARD_COUNT = 4;

type Card = {
  title: string;
  href: string | null;
  summary?: string;
  body: string;
  bodyIsMissing?: boolean;
  chips: { label: string; tone?: 'primary' | 'secondary' }[];
  badge?: string;
  /** Why it is recommended, under the chips (the icon's room kept, so the text sits where the app's does). */
  reason?: string;
};

/**
 * Draws the early view of `page` for the list's answer, unless the app has already shown the page or
 * there is nothing to show; says whether it drew it.
 */
export function showEarlyView(page: EarlyPage, answer: unknown): boolean {
  if (typeof document === 'undefined' || !isEarlyViewWanted()) return false;
  const cards = page === 'papers' ? paperCards(answer) : newsCards(answer);
  if (cards.length === 0) return false;
  const strings = page === 'papers' ? PAPERS_PAGE_HEADING : NEWS_PAGE_HEADING;
  document.head.appendChild(element('style', { id: EARLY_VIEW_STYLE_ID }, STYLE));
  const isWide = window.innerWidth >= EARLY_VIEW_WIDE_MIN_WIDTH;
  const list = element('ul', { class: 'ev-list' }, ...cards.map((card) => element('li', {}, cardElement(page, card))));
  const main = element(
    'div',
    { class: 'ev-main' },
    element(
      'div',
      { class: 'ev-page' },
      element(
        'header',
        { class: 'ev-header' },
        element('h1', { class: 'ev-h1' }, strings.pageTitle),
        element('p', { class: 'ev-subtitle' }, strings.pageSubtitle),
      ),
      list,
    ),
  );
  const view = element(
    'div',
    { id: EARLY_VIEW_ID, class: isWide ? 'ev-wide' : 'ev-narrow', 'aria-busy': 'true' },
    isWide
      ? element('div', { class: 'ev-drawer' }, brandElement())
      : element('div', { class: 'ev-bar' }, brandElement()),
    main,
  );
  document.body.appendChild(view);
  // Where the app's first card sat last time (the controls and sections above it vary): the swap to
  // the app's page then leaves the cards about where they are.
  const listTop = rememberedListTop(page);
  const naturalTop = list.getBoundingClientRect().top;
  if (listTop > naturalTop && listTop < window.innerHeight) list.style.marginTop = `${listTop - naturalTop}px`;
  return true;
}

function paperCards(answer: unknown): Card[] {
  let papers: ReturnType<typeof readPaperRecommendations>['recommendations'];
  try {
    papers = readPaperRecommendations(answer).recommendations;
  } catch {
    return [];
  }
  return papers.slice(0, CARD_COUNT).map((paper) => {
    const jcr = formatJcrTier(paper.jcr);
    const similarity = formatSimilarityPercent(paper.similarity_score, 1);
    const abstract = paper.abstract?.trim() ?? '';
    const chips: Card['chips'] = [];
    if (paper.journal?.trim()) chips.push({ label: paper.journal });
    if (jcr) chips.push({ label: jcr, tone: 'secondary' });
    chips.push({ label: lastAuthor(paper.authors) });
    chips.push({ label: formatRelativeTime(paper.date ?? paper.year) });
    if (similarity) chips.push({ label: `相似度 ${similarity}`, tone: 'primary' });
    return {
      title: paper.title,
      href: paperHref(paper),
      summary: paper.llm_summary?.trim() || undefined,
      body: abstract || '暂无摘要',
      bodyIsMissing: !abstract,
      chips,
      reason: paper.reason?.text.trim() || undefined,
    };
  });
}

/** Characters of content on a news card (components/news/news-card). */
const NEWS_CONTENT_MAX_LENGTH = 300;

function newsCards(answer: unknown): Card[] {
  let items: ReturnType<typeof readNewsRecommendations>['data'];
  try {
    items = readNewsRecommendations(answer, 20).data;
  } catch {
    return [];
  }
  return items.slice(0, CARD_COUNT).map((item) => {
    const similarity = formatSimilarityPercent(item.recommendation_score ?? item.similarity_score, 0);
    const chips: Card['chips'] = [];
    if (item.institute_name.trim()) chips.push({ label: item.institute_name });
    chips.push({ label: formatRelativeTime(item.crawl_date) });
    if (similarity) chips.push({ label: `相似度 ${similarity}`, tone: 'primary' });
    return {
      title: item.title,
      href: item.url.trim() || null,
      body: truncateText(item.content.trim(), NEWS_CONTENT_MAX_LENGTH),
      chips,
      badge: item.is_recommended ? '推荐' : undefined,
      reason: item.reason?.text.trim() || undefined,
    };
  });
}

function cardElement(page: EarlyPage, card: Card): HTMLElement {
  const title = card.href
    ? element('a', { href: card.href, target: '_blank', rel: 'noopener noreferrer' }, card.title)
    : element('span', {}, card.title);
  const head = element('div', { class: 'ev-card-head' }, element('h3', { class: 'ev-title' }, title));
  if (card.badge) head.appendChild(element('span', { class: 'ev-badge' }, card.badge));
  const article = element(
    'article',
    { class: 'ev-card', 'data-testid': `early-${page === 'papers' ? 'paper' : 'news'}-card` },
    head,
  );
  if (card.summary) {
    article.appendChild(
      element(
        'div',
        { class: 'ev-summary' },
        element('div', { class: 'ev-summary-label' }, 'AI 摘要'),
        element('div', {}, card.summary),
      ),
    );
  }
  if (card.body) {
    article.appendChild(
      element(
        'p',
        { class: `ev-body${page === 'papers' ? ' ev-clamp' : ''}${card.bodyIsMissing ? ' ev-missing' : ''}` },
        card.body,
      ),
    );
  }
  article.appendChild(
    element(
      'div',
      { class: 'ev-chips' },
      ...card.chips.map((chip) =>
        element('span', { class: `ev-chip${chip.tone ? ` ev-chip-${chip.tone}` : ''}` }, chip.label),
      ),
    ),
  );
  if (card.reason) article.appendChild(element('p', { class: 'ev-reason' }, card.reason));
  return article;
}

function brandElement(): HTMLElement {
  return element('div', { class: 'ev-brand' }, '科研雷达');
}

/** An element with attributes and children; text children are set as text, never parsed as HTML. */
function element(tag: string, attributes: Record<string, string>, ...children: (Node | string)[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

const STYLE = `
#${EARLY_VIEW_ID}{position:fixed;inset:0;z-index:1400;overflow:auto;display:flex;background:${gray[50]};color:${gray[900]};
font-family:${fontFamily};font-size:0.9375rem;line-height:1.7}
#${EARLY_VIEW_ID} *{box-sizing:border-box}
.ev-narrow{flex-direction:column}
.ev-drawer{width:240px;flex-shrink:0;background:#fff;border-right:1px solid ${gray[200]};padding:17px 24px}
.ev-bar{height:56px;flex-shrink:0;background:#fff;border-bottom:1px solid ${gray[200]};padding:0 16px 0 56px;display:flex;align-items:center}
.ev-brand{display:flex;align-items:center;gap:12px;font-size:1rem;font-weight:700;color:${gray[900]}}
.ev-brand::before{content:"";width:32px;height:32px;border-radius:50%;background:${brand[600]}}
.ev-main{flex-grow:1;min-width:0}
.ev-page{max-width:1200px;margin:0 auto;padding:24px 16px}
@media (min-width:600px){.ev-page{padding-left:24px;padding-right:24px}}
@media (min-width:768px){.ev-page{padding-top:40px;padding-bottom:40px}}
.ev-header{margin-bottom:24px}
@media (min-width:768px){.ev-header{margin-bottom:32px}}
.ev-h1{margin:0;font-size:1.625rem;font-weight:700;line-height:1.3}
.ev-subtitle{margin:8px 0 0;color:${gray[600]}}
.ev-list{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:16px}
.ev-card{background:#fff;border:1px solid ${gray[200]};border-radius:12px;padding:16px}
@media (min-width:768px){.ev-card{padding:20px}}
.ev-card-head{display:flex;align-items:flex-start;gap:8px}
.ev-title{flex:1;min-width:0;margin:0;font-size:1rem;font-weight:600;line-height:1.4;overflow-wrap:anywhere}
.ev-title a{color:inherit;text-decoration:none}
.ev-title a:hover{text-decoration:underline}
.ev-badge{flex-shrink:0;font-size:0.8125rem;font-weight:500;line-height:24px;padding:0 8px;border-radius:8px;background:#2e7d32;color:#fff}
.ev-summary{margin-top:12px;padding:8px 12px;border-radius:8px;background:${brand[50]};border-left:3px solid ${brand[600]};
font-size:0.875rem;line-height:1.6;overflow-wrap:anywhere}
.ev-summary-label{font-size:0.75rem;font-weight:600;color:${brand[600]}}
.ev-body{margin:12px 0 0;font-size:0.875rem;line-height:1.6;color:${gray[600]};overflow-wrap:anywhere;white-space:pre-line}
.ev-clamp{display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden;white-space:normal}
.ev-missing{color:${gray[400]}}
.ev-chips{display:flex;flex-wrap:wrap;gap:8px;margin-top:16px}
.ev-chip{max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-size:0.8125rem;font-weight:500;
line-height:22px;padding:0 8px;border:1px solid ${gray[300]};border-radius:8px;color:${gray[900]}}
.ev-reason{margin:12px 0 0;padding-left:20px;font-size:0.75rem;line-height:1.66;color:${gray[600]};overflow-wrap:anywhere}
.ev-chip-primary{border-color:${brand[400]};color:${brand[600]}}
.ev-chip-secondary{border-color:${teal[300]};color:${teal[500]}}
`;
