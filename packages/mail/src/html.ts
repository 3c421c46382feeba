/** Text for an HTML body or attribute: the five characters with a meaning in HTML become entities. */
export const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

/** Only http(s) addresses become links: a feed could give a paper a `javascript:` URL. */
export const isWebUrl = (url: string): boolean => /^https?:\/\/[^\s]+$/i.test(url);

/** The product's name as every mail and public page shows it. */
export const PRODUCT_NAME = '科研雷达';

export interface BrandedPage {
  /** The document title (escaped here). */
  title: string;
  /** The card's content, already HTML. */
  bodyHtml: string;
  /** Card width in pixels: account mails are narrow, digests wider for their lists. */
  width?: number;
  /** Small grey lines under the content, already HTML (a mail's footer: why it came, how to stop it). */
  footerHtml?: string;
  /** The public pages (opened in a browser, often on a phone) want a viewport and a margin above the card. */
  page?: boolean;
}

/**
 * One layout for every mail and public page: the product's name over a white card on a light background,
 * inline styles only (mail clients drop style sheets), Chinese fonts first.
 */
export function brandedHtml({ title, bodyHtml, width = 520, footerHtml, page = false }: BrandedPage): string {
  const viewport = page ? '<meta name="viewport" content="width=device-width,initial-scale=1">\n' : '';
  const tag = page ? 'main' : 'div';
  const margin = page ? '48px auto' : '0 auto';
  const footer = footerHtml ? `\n    <p style="margin-top:32px;font-size:12px;color:#6b7280">${footerHtml}</p>` : '';
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8">${viewport}<title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f5f7fb;font-family:-apple-system,'PingFang SC','Microsoft YaHei',sans-serif;color:#1f2937">
  <${tag} style="max-width:${width}px;margin:${margin};background:#ffffff;border-radius:12px;padding:32px">
    <div style="font-size:18px;font-weight:600;color:#1d4ed8;margin-bottom:24px">${PRODUCT_NAME}</div>
    ${bodyHtml}${footer}
  </${tag}>
</body></html>`;
}

/** A call to action in a mail: a blue button on its own line. */
export const buttonHtml = (href: string, label: string): string =>
  `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:8px">${escapeHtml(label)}</a></p>`;

/** A one-time code, large and spaced so it reads and copies without mistakes. */
export const codeHtml = (code: string): string =>
  `<p style="font-size:32px;font-weight:700;letter-spacing:8px;color:#111827;margin:16px 0">${escapeHtml(code)}</p>`;

/** A titled list of items in a digest or alert mail (`<ol>`), nothing when there are no items. */
export const listSectionHtml = (introHtml: string, itemsHtml: string[]): string =>
  itemsHtml.length ? `${introHtml}\n    <ol style="padding-left:20px">\n${itemsHtml.join('\n')}\n    </ol>` : '';

/** One item of such a list: its title (a link when it has a web address) and a grey line below. */
export function listItemHtml(item: { title: string; url?: string | null; lineHtml: string; extraHtml?: string }) {
  const title = escapeHtml(item.title);
  const linked =
    item.url && isWebUrl(item.url)
      ? `<a href="${escapeHtml(item.url)}" style="color:#1d4ed8;text-decoration:none">${title}</a>`
      : title;
  return `<li style="margin-bottom:16px">
        <div style="font-weight:600">${linked}</div>
        <div style="font-size:13px;color:#4b5563">${item.lineHtml}</div>${item.extraHtml ?? ''}
      </li>`;
}

/**
 * RFC 2369 and RFC 8058 headers of a mail readers can leave: mail clients show an unsubscribe button
 * that POSTs to the link.
 */
export const unsubscribeHeaders = (unsubscribeUrl: string): Record<string, string> => ({
  'List-Unsubscribe': `<${unsubscribeUrl}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});
