import { type IngestEntry, PermanentSourceError } from '../types';
import { type DecodeWarning, decodeByteStream } from './decode';
import { XmlFeedReader, type XmlNode } from './xml-feed';

export interface ReadFeedOptions {
  httpCharset?: string | undefined;
  /** The body was cut at this many bytes (size cap): the last entry is incomplete and says so. */
  truncatedAtBytes?: number | undefined;
  /** Entries to read at most; the rest of the feed is left with a warning. */
  maxItems: number;
}

export type EntryMapper = (
  node: XmlNode,
  reader: XmlFeedReader,
  index: number,
) => IngestEntry | IngestEntry[] | undefined;

/**
 * Streams a feed through the XML reader and a mapper, turning every problem into an entry the
 * pipeline records: encoding trouble, recovered XML errors, a cut-off document, an entry the mapper
 * could not read. Only an unusable document (not XML, not a feed) throws.
 */
export async function* readFeedEntries(
  bytes: AsyncIterable<Uint8Array>,
  options: ReadFeedOptions,
  map: EntryMapper,
): AsyncGenerator<IngestEntry, XmlFeedReader> {
  const warnings: DecodeWarning[] = [];
  const reader = new XmlFeedReader();
  let index = 0;
  let items = 0;
  let errorsReported = 0;
  for await (const node of reader.entries(decodeByteStream(bytes, { httpCharset: options.httpCharset, warnings }))) {
    while (warnings.length) {
      const warning = warnings.shift();
      if (warning) yield { type: 'warning', reason: warning.reason, detail: warning.detail };
    }
    const position = index++;
    let mapped: IngestEntry | IngestEntry[] | undefined;
    try {
      mapped = map(node, reader, position);
    } catch (error) {
      if (error instanceof PermanentSourceError) throw error;
      mapped = {
        type: 'reject',
        key: `entry ${position + 1}`,
        reason: 'unreadable entry',
        detail: (error as Error).message,
      };
    }
    for (const entry of Array.isArray(mapped) ? mapped : mapped ? [mapped] : []) {
      yield entry;
      if (entry.type === 'paper' || entry.type === 'news') items++;
    }
    if (items >= options.maxItems) {
      yield {
        type: 'warning',
        reason: 'item limit reached',
        detail: `stopped after ${items} items (maxItems); the rest of the feed was not read`,
      };
      return reader;
    }
  }
  for (const warning of warnings) yield { type: 'warning', reason: warning.reason, detail: warning.detail };
  for (const error of reader.errors) {
    if (errorsReported++ >= 5) {
      yield { type: 'warning', reason: 'malformed XML', detail: `${reader.errors.length - 5} more XML errors` };
      break;
    }
    yield { type: 'warning', reason: 'malformed XML', detail: `line ${error.line}: ${error.message}` };
  }
  if (options.truncatedAtBytes !== undefined) {
    yield {
      type: 'warning',
      reason: 'feed truncated',
      detail: `the feed is larger than ${options.truncatedAtBytes} bytes (maxBytes); only the entries before the cut were read`,
    };
  } else if (reader.truncated) {
    yield { type: 'warning', reason: 'feed truncated', detail: 'the document ends before its last element is closed' };
  }
  if (reader.droppedPartialEntry) {
    yield { type: 'reject', key: `entry ${index + 1}`, reason: 'incomplete entry at end of feed' };
  }
  return reader;
}
