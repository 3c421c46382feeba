import { paths } from '@/config/paths';

/**
 * The early view's state, shared by the early script that draws it (app/early-view) and the app that
 * ends it: the early script has its own copy of this module, so the state lives in the document and on
 * the window, not in module variables.
 */

export type EarlyPage = 'papers' | 'news';

export const EARLY_VIEW_ID = 'radar-early-view';
export const EARLY_VIEW_STYLE_ID = `${EARLY_VIEW_ID}-style`;
/** Set once the app has shown a page itself: an answer arriving later draws nothing. */
const DONE_KEY = '__radarEarlyViewDone';
const LIST_TOP_KEY = 'radar.earlyView.listTop';
/** The shell's breakpoint (md): a permanent drawer from here up, a top bar below. */
export const EARLY_VIEW_WIDE_MIN_WIDTH = 768;

const shared = globalThis as typeof globalThis & { [DONE_KEY]?: boolean };

/** Whether an early view may still be drawn: none is on screen and the app has not shown a page yet. */
export function isEarlyViewWanted(): boolean {
  return !shared[DONE_KEY] && !document.getElementById(EARLY_VIEW_ID);
}

/** Removes the early view for good: the app now shows the page (or another one). */
export function endEarlyView(): void {
  shared[DONE_KEY] = true;
  document.getElementById(EARLY_VIEW_ID)?.remove();
  document.getElementById(EARLY_VIEW_STYLE_ID)?.remove();
}

/**
 * Back to a new page's state: no early view on screen and the app has shown no page yet. For the screen
 * tests, whose files share one window and would otherwise see the previous file's note.
 */
export function resetEarlyView(): void {
  endEarlyView();
  delete shared[DONE_KEY];
}

/** The early view's page for a path of the app, or null on every other route (matched as the router does). */
export function earlyPageAt(pathname: string): EarlyPage | null {
  const wanted = pathname.replace(/\/+$/, '').toLowerCase();
  if (wanted === paths.papers.path) return 'papers';
  if (wanted === paths.news.path) return 'news';
  return null;
}

const listTopKey = (page: EarlyPage) =>
  `${LIST_TOP_KEY}.${page}.${window.innerWidth >= EARLY_VIEW_WIDE_MIN_WIDTH ? 'wide' : 'narrow'}`;

/**
 * Notes where the page's first card begins (px from the top of the document) for the next visit's
 * early view: a layout measure, nothing about the reader.
 */
export function rememberListTop(page: EarlyPage, firstCard: Element | null | undefined): void {
  if (!firstCard) return;
  const top = Math.round(firstCard.getBoundingClientRect().top + window.scrollY);
  try {
    window.localStorage.setItem(listTopKey(page), String(top));
  } catch {
    // Storage full or blocked: the next early view places its cards in its own flow.
  }
}

/** Where the page's first card began on the last visit at this width, or 0 when unknown. */
export function rememberedListTop(page: EarlyPage): number {
  try {
    const top = Number(window.localStorage.getItem(listTopKey(page)));
    return Number.isFinite(top) ? top : 0;
  } catch {
    return 0;
  }
}
