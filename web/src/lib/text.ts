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
