/** Text for an HTML body or attribute: the five characters with a meaning in HTML become entities. */
export const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

/** Only http(s) addresses become links: a feed could give a paper a `javascript:` URL. */
export const isWebUrl = (url: string): boolean => /^https?:\/\/[^\s]+$/i.test(url);
