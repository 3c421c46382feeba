export const ELLIPSIS = '...';

/**
 * The first `maxLength` characters of `text` followed by an ellipsis, or `text` itself when it fits
 * (news content: 300 characters on the news page). Counts code points, so an
 * emoji or a rare CJK character outside the BMP is never cut in half.
 */
export function truncateText(text: string | null | undefined, maxLength: number): string {
  const value = text ?? '';
  const characters = Array.from(value);
  if (characters.length <= maxLength) return value;
  return `${characters.slice(0, Math.max(0, maxLength)).join('').trimEnd()}${ELLIPSIS}`;
}

const graphemes =
  typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter('zh', { granularity: 'grapheme' }) : null;

/**
 * Characters as a reader counts them (grapheme clusters): an emoji, a flag or an accented letter is one,
 * where `.length` counts UTF-16 units (an emoji is 2, a family emoji 8). Code points where the browser
 * has no Intl.Segmenter.
 */
export function countCharacters(text: string): number {
  if (!graphemes) return Array.from(text).length;
  let count = 0;
  for (const _ of graphemes.segment(text)) count += 1;
  return count;
}
