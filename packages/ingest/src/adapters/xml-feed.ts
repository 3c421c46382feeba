import sax from 'sax';
import { PermanentSourceError } from '../types';

/**
 * A streaming reader for RSS 2.0, RSS 1.0 (RDF) and Atom documents (arXiv's API answers in Atom).
 * Built on sax so a huge feed is never held in memory: only the entry being read is kept as a small
 * tree, handed out as soon as it closes. Malformed XML is recovered from where sax can (errors are
 * collected with their line), a truncated document keeps the entries read before the cut.
 */

export interface XmlNode {
  /** Canonical name: `atom:entry`, `dc:creator`, `rss:item` (RSS 1.0), or the bare name (RSS 2.0). */
  name: string;
  /** Attributes by local name (`href`, `rel`, `about` ...). */
  attrs: Record<string, string>;
  children: XmlNode[];
  /** All text inside the element, descendants included; block-level XHTML children end a line. */
  text: string;
}

export type FeedFormat = 'rss2' | 'rss1' | 'atom';

/** Namespace URIs mapped to the prefixes this code uses, whatever prefix the document chose. */
const NAMESPACES: Record<string, string> = {
  'http://www.w3.org/2005/Atom': 'atom',
  'http://purl.org/rss/1.0/': 'rss',
  'http://my.netscape.com/rdf/simple/0.9/': 'rss',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#': 'rdf',
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://purl.org/dc/terms/': 'dcterms',
  'http://purl.org/rss/1.0/modules/content/': 'content',
  'http://arxiv.org/schemas/atom': 'arxiv',
  'http://a9.com/-/spec/opensearch/1.1/': 'opensearch',
  'http://prismstandard.org/namespaces/basic/2.0/': 'prism',
  'http://prismstandard.org/namespaces/basic/2.1/': 'prism',
  'http://prismstandard.org/namespaces/basic/3.0/': 'prism',
  'http://prismstandard.org/namespaces/1.2/basic/': 'prism',
  'http://search.yahoo.com/mrss/': 'media',
  'http://www.w3.org/1999/xhtml': 'xhtml',
};

const ENTRY_NAMES = new Set(['atom:entry', 'item', 'rss:item']);
const XHTML_BLOCKS = new Set(['p', 'div', 'br', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tr', 'blockquote', 'pre']);

/** Limits that keep one absurd entry from exhausting memory. */
const MAX_TEXT_PER_NODE = 2_000_000;
const MAX_CHILDREN_PER_NODE = 5_000;
const MAX_RECOVERED_ERRORS = 200;

export interface XmlFeedError {
  message: string;
  line: number;
}

export class XmlFeedReader {
  format: FeedFormat | undefined;
  /** Text of the channel/feed's own children (title, updated, lastBuildDate, opensearch:totalResults ...). */
  readonly meta: Record<string, string> = {};
  readonly errors: XmlFeedError[] = [];
  /** The document ended inside an element: cut off (size cap, dropped connection) or malformed. */
  truncated = false;
  /** An entry was open when the document ended; it was dropped. */
  droppedPartialEntry = false;

  private readonly parser: sax.SAXParser;
  private readonly stack: { node: XmlNode; inEntry: boolean }[] = [];
  private ready: XmlNode[] = [];
  private depthOfEntry = -1;

  constructor() {
    this.parser = sax.parser(true, { xmlns: true, position: true });
    const parser = this.parser;
    parser.onerror = (error: Error) => {
      this.errors.push({ message: error.message.split('\n')[0] ?? 'XML error', line: parser.line + 1 });
      // Clearing the error lets sax continue: most real-world faults (a bare "&", an undeclared
      // prefix) lose nothing. A document that keeps failing is given up below.
      parser.error = null as unknown as Error;
      parser.resume();
    };
    parser.onopentag = (tag) => this.open(tag as sax.QualifiedTag);
    parser.onclosetag = () => this.close();
    parser.ontext = (text) => this.appendText(text);
    parser.oncdata = (text) => this.appendText(text);
  }

  /** Feeds text chunks through the parser, yielding each entry once it is complete. */
  async *entries(chunks: AsyncIterable<string>): AsyncGenerator<XmlNode> {
    for await (const chunk of chunks) {
      this.parser.write(chunk);
      this.assertUsable();
      yield* this.drain();
    }
    this.parser.close();
    if (this.stack.length > 0) {
      this.truncated = true;
      if (this.depthOfEntry >= 0) this.droppedPartialEntry = true;
    }
    yield* this.drain();
    if (!this.format) throw new PermanentSourceError('empty document: no XML root element');
  }

  private *drain(): Generator<XmlNode> {
    const ready = this.ready;
    this.ready = [];
    yield* ready;
  }

  private assertUsable(): void {
    if (this.errors.length > MAX_RECOVERED_ERRORS) {
      throw new PermanentSourceError(
        `malformed XML: more than ${MAX_RECOVERED_ERRORS} errors, first at line ${this.errors[0]?.line}: ${this.errors[0]?.message}`,
      );
    }
  }

  private canonicalName(tag: sax.QualifiedTag): string {
    const prefix = tag.uri ? (NAMESPACES[tag.uri] ?? tag.prefix) : tag.prefix;
    return prefix ? `${prefix}:${tag.local}` : tag.local;
  }

  private open(tag: sax.QualifiedTag): void {
    const name = this.canonicalName(tag);
    if (this.stack.length === 0 && !this.format) {
      if (name === 'rss') this.format = 'rss2';
      else if (name === 'rdf:RDF') this.format = 'rss1';
      else if (name === 'atom:feed') this.format = 'atom';
      else throw new PermanentSourceError(`not an RSS or Atom feed: the document's root element is <${tag.name}>`);
    }
    const attrs: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.prefix === 'xmlns' || attribute.name === 'xmlns') continue;
      attrs[attribute.local || attribute.name] = attribute.value;
    }
    const node: XmlNode = { name, attrs, children: [], text: '' };
    const parent = this.stack.at(-1);
    const inEntry = parent?.inEntry || ENTRY_NAMES.has(name);
    if (inEntry && parent?.inEntry && parent.node.children.length < MAX_CHILDREN_PER_NODE) {
      parent.node.children.push(node);
    }
    if (!parent?.inEntry && ENTRY_NAMES.has(name)) this.depthOfEntry = this.stack.length;
    this.stack.push({ node, inEntry });
  }

  private close(): void {
    const closed = this.stack.pop();
    if (!closed) return;
    const { node } = closed;
    const local = node.name.slice(node.name.indexOf(':') + 1);
    // A blank line: where a paragraph ends (abstracts keep paragraphs; other text keeps lines).
    if (closed.inEntry && XHTML_BLOCKS.has(local)) this.appendText('\n\n');
    if (this.stack.length === this.depthOfEntry && ENTRY_NAMES.has(node.name)) {
      this.depthOfEntry = -1;
      this.ready.push(node);
      return;
    }
    // Children of the channel (RSS 2.0), of rdf:RDF's channel (RSS 1.0), or of the Atom feed.
    const parent = this.stack.at(-1)?.node.name;
    if (!closed.inEntry && (parent === 'channel' || parent === 'rss:channel' || parent === 'atom:feed')) {
      const key = node.name.replace(/^atom:|^rss:/, '');
      if (!(key in this.meta)) this.meta[key] = (node.attrs.href ?? node.text).trim();
    }
  }

  private appendText(text: string): void {
    const top = this.stack.at(-1);
    if (!top) return;
    if (top.inEntry) {
      // Text belongs to every open element of the entry (inner text).
      for (let index = this.stack.length - 1; index >= 0; index--) {
        const frame = this.stack[index];
        if (!frame?.inEntry) break;
        if (frame.node.text.length < MAX_TEXT_PER_NODE) frame.node.text += text;
      }
    } else if (top.node.text.length < 10_000) {
      top.node.text += text;
    }
  }
}

/** Children of a node with one of the given canonical names. */
export function childrenNamed(node: XmlNode, ...names: string[]): XmlNode[] {
  return node.children.filter((child) => names.includes(child.name));
}

/** Text of the first child with one of the names (in the order given), trimmed; '' when absent. */
export function childText(node: XmlNode, ...names: string[]): string {
  for (const name of names) {
    const child = node.children.find((candidate) => candidate.name === name);
    if (child?.text.trim()) return child.text.trim();
  }
  return '';
}

export function firstChild(node: XmlNode, ...names: string[]): XmlNode | undefined {
  for (const name of names) {
    const child = node.children.find((candidate) => candidate.name === name);
    if (child) return child;
  }
  return undefined;
}
