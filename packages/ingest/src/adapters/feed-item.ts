import { splitAuthorList } from '../text/authors';
import { collectIssns, normalizeDoi, parseHttpUrl } from '../text/identifiers';
import { toPlainText } from '../text/text';
import { childrenNamed, childText, firstChild, type XmlNode } from './xml-feed';

/**
 * The fields of one RSS 2.0 item, RSS 1.0 item or Atom entry, under one set of names. Values are raw
 * (descriptions may be HTML); the adapters decide what they mean for a paper or a news item.
 */
export interface FeedItem {
  /** Plain text. */
  title: string;
  link: string | undefined;
  guid: string | undefined;
  /** Markup or text, as the feed gave it. */
  description: string;
  /** content:encoded, or Atom content. */
  content: string;
  /** Publication date as written (pubDate, dc:date, published, prism:publicationDate). */
  date: string | undefined;
  /** Last change (Atom updated, dcterms:modified). */
  updated: string | undefined;
  authors: string[];
  categories: string[];
  doi: string | undefined;
  publicationName: string | undefined;
  issns: string[];
  pdfUrl: string | undefined;
}

/** "jane@example.org (Jane Doe)" and "Jane Doe <jane@example.org>" are how RSS 2.0 writes authors. */
function authorName(raw: string): string {
  const value = raw.trim();
  const inParentheses = /^\S+@\S+\s*\((.+)\)$/.exec(value);
  if (inParentheses?.[1]) return inParentheses[1].trim();
  return value.replace(/<[^>]*@[^>]*>/, '').trim();
}

function textType(node: XmlNode | undefined): 'html' | 'text' | 'auto' {
  const type = node?.attrs.type?.toLowerCase();
  if (type === 'html' || type === 'xhtml' || type === 'text/html') return 'html';
  if (type === 'text' || type === 'text/plain') return 'text';
  return 'auto';
}

function plain(node: XmlNode | undefined, inline: boolean): string {
  if (!node) return '';
  const type = textType(node);
  return toPlainText(node.text, { inline, ...(type === 'auto' ? {} : { html: type === 'html' }) });
}

export function readFeedItem(node: XmlNode, baseUrl?: string): FeedItem {
  const titleNode = firstChild(node, 'title', 'rss:title', 'atom:title', 'dc:title');

  // Atom: the alternate link (rel missing means alternate); RSS: <link>, else a permalink guid.
  const atomLinks = childrenNamed(node, 'atom:link');
  const alternate =
    atomLinks.find((link) => (link.attrs.rel ?? 'alternate') === 'alternate' && link.attrs.href)?.attrs.href ??
    atomLinks.find((link) => link.attrs.href && !/pdf/i.test(link.attrs.type ?? ''))?.attrs.href;
  const guidNode = firstChild(node, 'guid');
  const guid = guidNode?.text.trim() || childText(node, 'atom:id') || node.attrs.about || undefined;
  const linkText = childText(node, 'link', 'rss:link', 'prism:url');
  const permalinkGuid = guidNode && guidNode.attrs.isPermaLink !== 'false' ? guidNode.text.trim() : undefined;
  const link = [linkText, alternate, node.attrs.about, permalinkGuid]
    .map((candidate) => parseHttpUrl(candidate, baseUrl)?.toString())
    .find(Boolean);
  const pdfLink = atomLinks.find((candidate) => /application\/pdf/i.test(candidate.attrs.type ?? ''))?.attrs.href;

  const authors = [
    ...childrenNamed(node, 'atom:author').map((author) => childText(author, 'atom:name') || author.text),
    ...childrenNamed(node, 'author').map((author) => authorName(author.text)),
  ]
    .map((name) => toPlainText(name, { inline: true }))
    .filter(Boolean);
  const creators = childrenNamed(node, 'dc:creator').map((creator) => creator.text.trim());
  if (authors.length === 0) {
    // One dc:creator may list everyone ("Smith, J., Doe, A. B."); one per person may be "Family, Given".
    authors.push(...creators.flatMap((creator) => splitAuthorList(authorName(creator))));
  }

  const categories = [
    ...childrenNamed(node, 'category', 'dc:subject').map((category) => category.text.trim()),
    ...childrenNamed(node, 'atom:category').map((category) => category.attrs.label ?? category.attrs.term ?? ''),
  ]
    .map((category) => toPlainText(category, { inline: true }))
    .filter(Boolean);

  const identifiers = [
    childText(node, 'prism:doi'),
    ...childrenNamed(node, 'dc:identifier').map((identifier) => identifier.text),
    guid,
    linkText,
  ];
  const doi = identifiers.map((value) => normalizeDoi(value)).find(Boolean);

  return {
    title: plain(titleNode, true),
    link,
    guid,
    description: childText(node, 'description', 'rss:description', 'atom:summary', 'dc:description'),
    content: childText(node, 'content:encoded', 'atom:content'),
    date:
      childText(node, 'pubDate', 'dc:date', 'atom:published', 'prism:publicationDate', 'prism:coverDate') || undefined,
    updated: childText(node, 'atom:updated', 'dcterms:modified', 'lastBuildDate') || undefined,
    authors,
    categories: [...new Set(categories)],
    doi,
    publicationName: childText(node, 'prism:publicationName', 'dc:source').replace(/,.*$/, '') || undefined,
    issns: collectIssns([childText(node, 'prism:issn'), childText(node, 'prism:eIssn')]),
    pdfUrl: pdfLink,
  };
}

/** Text of a description or content element, HTML converted. */
export function feedText(value: string): string {
  return toPlainText(value);
}
