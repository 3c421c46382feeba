const graphemes =
  typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter('zh', { granularity: 'grapheme' }) : null;

/**
 * Characters as a reader counts them (grapheme clusters): an emoji, a flag or an accented letter is one,
 * where `.length` counts UTF-16 units (an emoji is 2, a family emoji 8). Code points where the runtime
 * has no Intl.Segmenter. The one count of the web app's counters and the API's character limits.
 */
export function countCharacters(text: string): number {
  if (!graphemes) return Array.from(text).length;
  let count = 0;
  for (const _ of graphemes.segment(text)) count += 1;
  return count;
}
