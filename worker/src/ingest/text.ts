import { Parser } from 'htmlparser2';

/**
 * Everything a source gives us is stored as plain text and never rendered as HTML later, so markup is
 * converted here (scripts, styles and comments dropped, blocks to line breaks, entities decoded) and
 * characters PostgreSQL rejects (NUL) or that make no sense in text (other control characters) removed.
 */

/** Elements whose content is never text a reader should see. */
const SKIPPED_ELEMENTS = new Set([
  'script',
  'style',
  'noscript',
  'iframe',
  'object',
  'embed',
  'svg',
  'head',
  'template',
  'form',
  'button',
  'select',
  'textarea',
  'canvas',
  'video',
  'audio',
  'map',
]);

/** Elements that end a line (or a paragraph) in the text. JATS names are compared without prefix. */
const BLOCK_ELEMENTS = new Set([
  'p',
  'div',
  'br',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'tr',
  'table',
  'blockquote',
  'section',
  'article',
  'header',
  'footer',
  'figure',
  'figcaption',
  'pre',
  'hr',
  'address',
  'aside',
  'nav',
  'main',
  'caption',
  // JATS (Crossref abstracts)
  'sec',
  'title',
  'list-item',
  'list',
  'abstract',
  'disp-quote',
]);

// C0 controls except tab and line breaks, DEL, C1 controls, lone surrogates, and non-characters.
const UNWANTED_CHARACTERS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the purpose
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Removes characters that cannot or should not be stored, and normalises to NFC. */
export function sanitizeText(value: string): string {
  return value.replace(UNWANTED_CHARACTERS, '').normalize('NFC');
}

/** One line: every run of whitespace becomes one space. */
export function cleanInline(value: string): string {
  return sanitizeText(value).replace(/\s+/g, ' ').trim();
}

/** Keeps line breaks between paragraphs, collapses other whitespace, drops empty lines. */
export function cleanBlock(value: string): string {
  return sanitizeText(value)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[^\S\n]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

const HTML_HINT =
  /<\/?[a-zA-Z][\w:-]*(?:\s[^<>]*)?\/?>|<!--|&(?:#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/;

/** True when the value carries markup or entities; plain text such as "a < b" is left alone. */
export function looksLikeHtml(value: string): boolean {
  return HTML_HINT.test(value);
}

const localName = (name: string) => {
  const colon = name.lastIndexOf(':');
  return (colon >= 0 ? name.slice(colon + 1) : name).toLowerCase();
};

/** Feed-footer boilerplate (WordPress and friends) that says nothing about the item. */
const BOILERPLATE_LINES = [
  /^the post .{1,300} appeared first on .{1,200}$/i,
  /^(continue reading|read more|read the full (story|article))\b.{0,200}$/i,
  /^(本文|文章)?来源[:：].{0,100}$/,
];

/**
 * HTML (or JATS XML) to plain text: scripts, styles and comments dropped, entities decoded, block
 * elements become line breaks. `inline` joins everything into one line (titles).
 */
export function htmlToText(html: string, options: { inline?: boolean } = {}): string {
  const parts: string[] = [];
  let skipDepth = 0;
  let preDepth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        const local = localName(name);
        if (SKIPPED_ELEMENTS.has(local)) skipDepth++;
        else if (skipDepth === 0 && BLOCK_ELEMENTS.has(local)) parts.push('\n');
        if (local === 'pre') preDepth++;
      },
      onclosetag(name) {
        const local = localName(name);
        if (SKIPPED_ELEMENTS.has(local)) skipDepth = Math.max(0, skipDepth - 1);
        else if (skipDepth === 0 && BLOCK_ELEMENTS.has(local)) parts.push('\n');
        if (local === 'pre') preDepth = Math.max(0, preDepth - 1);
      },
      ontext(text) {
        // As in a browser, line breaks in markup are spaces; only block elements (and <pre>) break lines.
        if (skipDepth === 0) parts.push(preDepth > 0 ? text : text.replace(/\s+/g, ' '));
      },
    },
    { decodeEntities: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  const text = parts.join('');
  if (options.inline) return cleanInline(text);
  const lines = cleanBlock(text)
    .split('\n')
    .filter((line) => !BOILERPLATE_LINES.some((pattern) => pattern.test(line)));
  return lines.join('\n').replace(/\[(…|&hellip;|\.\.\.)\]\s*$/, '…');
}

/**
 * Text from a field that may or may not be HTML: RSS descriptions, Atom text constructs, Crossref
 * titles. Markup is converted only when the value looks like markup, so plain text with a "<" keeps it.
 */
export function toPlainText(value: string | undefined, options: { inline?: boolean; html?: boolean } = {}): string {
  if (!value) return '';
  const isHtml = options.html ?? looksLikeHtml(value);
  if (isHtml) return htmlToText(value, { inline: options.inline });
  return options.inline ? cleanInline(value) : cleanBlock(value);
}

/** Cuts at a character limit without splitting a surrogate pair, marking the cut with an ellipsis. */
export function truncateText(value: string, maxLength: number): string {
  if (value.length <= maxLength) return value;
  let cut = value.slice(0, maxLength - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
