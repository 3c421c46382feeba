import { Parser } from 'htmlparser2';
import sax from 'sax';

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

/**
 * Invisible characters that change what a line shows without being seen: bidi embeddings, overrides and
 * isolates (U+202A-202E, U+2066-2069; an override turns 'gpj.exe' into what reads as 'exe.jpg' and lets
 * a title or a name impersonate another on a card), zero-width spaces, joiners and marks (U+200B-200F),
 * the word joiner (U+2060) and a byte-order mark inside text (U+FEFF). A zero-width joiner between two
 * pictographs (an emoji sequence such as 👩‍🔬) is kept; anywhere else it goes too.
 */
const INVISIBLE_FORMATTING =
  /[\u200B\u200C\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]|(?<!\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?)\u200D|\u200D(?!\p{Extended_Pictographic})/gu;

/**
 * One line (a title, an author's name, a venue, a keyword) as every source and the own-works import
 * store it: every run of whitespace becomes one space, and INVISIBLE_FORMATTING is removed.
 */
export function cleanInline(value: string): string {
  return sanitizeText(value).replace(INVISIBLE_FORMATTING, '').replace(/\s+/g, ' ').trim();
}

/**
 * Named character references: the HTML 4 set (253 names: nbsp, eacute, mdash, hellip ... and the XML
 * five). It is sax's own table, the one the XML reader decodes feeds with, so CSV and JSON fields are
 * decoded exactly like XML text.
 */
const NAMED_ENTITIES: Readonly<Record<string, string>> = Object.freeze({
  ...(sax as unknown as { ENTITIES: Record<string, string> }).ENTITIES,
});

const ENTITY_REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

function codePoint(value: number): string | undefined {
  // NUL, surrogates and values beyond Unicode are not characters: the reference stays as written.
  if (value <= 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return undefined;
  return String.fromCodePoint(value);
}

/**
 * Decodes character references once: named (NAMED_ENTITIES), decimal (`&#233;`) and hex (`&#xE9;`).
 * Unknown names stay as written, and the result is not decoded again, so `&amp;lt;` becomes `&lt;`.
 * For fields that reach us undecoded (CSV cells, JSON strings); XML text is decoded by the XML reader.
 */
export function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(ENTITY_REFERENCE, (reference, decimal?: string, hex?: string, name?: string) => {
    if (decimal) return codePoint(Number.parseInt(decimal, 10)) ?? reference;
    if (hex) return codePoint(Number.parseInt(hex, 16)) ?? reference;
    return (name && Object.hasOwn(NAMED_ENTITIES, name) ? NAMED_ENTITIES[name] : undefined) ?? reference;
  });
}

/** One line from a CSV cell or JSON string that is never markup (names, journal titles): entities decoded once. */
export function inlineText(value: string | undefined | null): string {
  return value ? cleanInline(decodeEntities(value)) : '';
}

/** Paragraphs (split at blank lines), each a list of its non-empty lines with whitespace collapsed. */
function paragraphLines(value: string): string[][] {
  return sanitizeText(value)
    .replace(/\r\n?/g, '\n')
    .split(/\n[^\S\n]*\n/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => line.replace(/\s+/g, ' ').trim())
        .filter(Boolean),
    )
    .filter((lines) => lines.length > 0);
}

/** Lines or paragraphs of text, without the lines `drop` refuses. */
function layout(value: string, options: { paragraphs?: boolean | undefined; drop?: (line: string) => boolean }) {
  const paragraphs = paragraphLines(value)
    .map((lines) => (options.drop ? lines.filter((line) => !options.drop?.(line)) : lines))
    .filter((lines) => lines.length > 0);
  return options.paragraphs ? paragraphs.map((lines) => lines.join(' ')).join('\n\n') : paragraphs.flat().join('\n');
}

/**
 * Paragraphs separated by one blank line, whitespace within each paragraph collapsed to single spaces
 * (the line wrapping of arXiv abstracts and feed markup means nothing). Abstracts are stored this way.
 */
export function cleanParagraphs(value: string): string {
  return layout(value, { paragraphs: true });
}

/** Keeps line breaks between paragraphs, collapses other whitespace, drops empty lines. */
export function cleanBlock(value: string): string {
  return layout(value, {});
}

const HTML_HINT =
  /<\/?[a-zA-Z][\w:-]*(?:\s[^<>]*)?\/?>|<!--|&(?:#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/;

/** True when the value carries markup or entities; plain text such as "a < b" is left alone. */
function looksLikeHtml(value: string): boolean {
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

const isBoilerplate = (line: string) => BOILERPLATE_LINES.some((pattern) => pattern.test(line));

export interface TextOptions {
  /** Everything on one line (titles, names). */
  inline?: boolean | undefined;
  /** Paragraphs separated by a blank line, each on one line (abstracts); else one line per block. */
  paragraphs?: boolean | undefined;
  /** Lines to leave out (a feed's citation line), judged before the lines of a paragraph are joined. */
  dropLine?: ((line: string) => boolean) | undefined;
}

/**
 * HTML (or JATS XML) to plain text: scripts, styles and comments dropped, entities decoded, block
 * elements become line breaks. `inline` joins everything into one line (titles).
 */
export function htmlToText(html: string, options: TextOptions = {}): string {
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
  // Block elements left a blank line between each other, which is where paragraphs end.
  return layout(text, {
    paragraphs: options.paragraphs,
    drop: (line) => isBoilerplate(line) || Boolean(options.dropLine?.(line)),
  }).replace(/\[(…|&hellip;|\.\.\.)\]\s*$/, '…');
}

/**
 * Text from a field that may or may not be HTML: RSS descriptions, Atom text constructs, Crossref
 * titles. Markup is converted only when the value looks like markup, so plain text with a "<" keeps it.
 */
export function toPlainText(value: string | undefined, options: TextOptions & { html?: boolean } = {}): string {
  if (!value) return '';
  const isHtml = options.html ?? looksLikeHtml(value);
  if (isHtml) return htmlToText(value, options);
  if (options.inline) return cleanInline(value);
  return layout(value, { paragraphs: options.paragraphs, drop: options.dropLine });
}

/** An abstract from a field that may be markup: paragraphs kept (blank line between), lines joined within. */
export function abstractText(
  value: string | undefined,
  options: { html?: boolean; dropLine?: (line: string) => boolean } = {},
): string {
  return toPlainText(value, { ...options, paragraphs: true });
}

/**
 * Cuts at a character limit without splitting a surrogate pair, marking the cut with an ellipsis, or
 * with `marker` (a note the reader sees), which counts towards the limit.
 */
export function truncateText(value: string, maxLength: number, marker = '…'): string {
  if (value.length <= maxLength) return value;
  let cut = value.slice(0, Math.max(0, maxLength - marker.length));
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}${marker}`;
}
