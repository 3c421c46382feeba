import { createHash } from 'node:crypto';

/** One built feed document, with what a conditional GET is answered from. */
export interface FeedDocument {
  xml: string;
  /** A strong validator of what the feed says (its entries), not of when it was built. */
  etag: string;
  /** When what the feed says last changed (whole seconds, as HTTP dates carry). */
  lastModified: Date;
}

interface Entry {
  readerId: string;
  document: FeedDocument;
  /** Hash of the entries the document was built from: a rebuild saying the same keeps the validators. */
  contentHash: string;
  freshUntil: number;
  bytes: number;
}

/** What a build returns: the document's text and a stable description of its content. */
export interface BuiltFeed {
  xml: string;
  /** Everything the feed says except its build time (entries, self link), serialised. */
  content: string;
}

export interface FeedCacheOptions {
  /** How long a built feed is served before the pipeline runs again for that reader. */
  ttlMs: number;
  /** Bound on the documents' text kept, in UTF-16 units (about bytes for Atom's mostly-ASCII markup, x2 worst case). */
  maxChars: number;
  now?: () => number;
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 27);

/**
 * Built Atom feeds per feed token (hashed), served for `ttlMs`: however often a feed is polled, the
 * ranking pipeline runs once per reader per `ttlMs`, and polls arriving while it runs wait for that run.
 * Bounded by the total size of the documents (least recently used dropped first). An expired entry is
 * kept until replaced, so a rebuild that says the same keeps its ETag and Last-Modified (a feed reader
 * keeps getting 304s). In one process: a second instance builds its own copy (at most one more run).
 */
export class FeedCache {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<FeedDocument | undefined>>();
  private chars = 0;
  private readonly now: () => number;

  constructor(private readonly options: FeedCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The cached document of `key` while fresh, else `build`'s (one build per key at a time). */
  async get(
    key: string,
    readerId: string,
    build: () => Promise<BuiltFeed | undefined>,
  ): Promise<FeedDocument | undefined> {
    const entry = this.entries.get(key);
    if (entry && entry.readerId === readerId && entry.freshUntil > this.now()) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.document;
    }
    const running = this.building.get(key);
    if (running) return running;
    const built = this.rebuild(key, readerId, build).finally(() => this.building.delete(key));
    this.building.set(key, built);
    return built;
  }

  /** The reader changed what their feed shows (filters, zone): the next poll builds it again. */
  dropReader(readerId: string): void {
    for (const [key, entry] of this.entries) if (entry.readerId === readerId) this.remove(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private async rebuild(
    key: string,
    readerId: string,
    build: () => Promise<BuiltFeed | undefined>,
  ): Promise<FeedDocument | undefined> {
    const built = await build();
    const previous = this.entries.get(key);
    if (!built) {
      this.remove(key);
      return undefined;
    }
    const contentHash = hashOf(built.content);
    const unchanged = previous && previous.readerId === readerId && previous.contentHash === contentHash;
    const document: FeedDocument = unchanged
      ? previous.document
      : { xml: built.xml, etag: `"${contentHash}"`, lastModified: new Date(Math.floor(this.now() / 1000) * 1000) };
    this.remove(key);
    const bytes = document.xml.length;
    // A document larger than the whole bound is served, not kept.
    if (bytes > this.options.maxChars) return document;
    this.entries.set(key, { readerId, document, contentHash, freshUntil: this.now() + this.options.ttlMs, bytes });
    this.chars += bytes;
    for (const oldest of this.entries.keys()) {
      if (this.chars <= this.options.maxChars) break;
      this.remove(oldest);
    }
    return document;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.chars -= entry.bytes;
  }
}
