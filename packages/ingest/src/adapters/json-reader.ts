import { type IngestEntry, PermanentSourceError } from '../types';
import { type DecodeWarning, decodeBytes } from './decode';

/**
 * JSON answers and files (OpenAlex, Crossref): a page object, an array of records, one record, or JSON
 * Lines (one record a line; a broken line is rejected with its number, the others are kept).
 */
export interface JsonReadOptions {
  maxItems: number;
  httpCharset?: string | undefined;
  /** Records in a parsed document: the page's results, the array itself, or the lone record. */
  records(document: unknown): unknown[] | undefined;
  map(record: unknown, index: number): IngestEntry;
}

async function collect(bytes: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of bytes) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export async function* readJsonRecords(
  bytes: AsyncIterable<Uint8Array>,
  options: JsonReadOptions,
): AsyncGenerator<IngestEntry, { document: unknown }> {
  const warnings: DecodeWarning[] = [];
  const text = decodeBytes(await collect(bytes), { httpCharset: options.httpCharset, warnings }).replace(/^\uFEFF/, '');
  for (const warning of warnings) yield { type: 'warning', reason: warning.reason, detail: warning.detail };
  if (!text.trim()) throw new PermanentSourceError('empty answer: no JSON');

  let document: unknown;
  let records: { value: unknown; line?: number }[] | undefined;
  try {
    document = JSON.parse(text);
  } catch (error) {
    // A broken document is refused as a whole: read line by line it would turn into hundreds of
    // "records" (one per line of the pretty-printed text), all rejected.
    if (!isJsonLines(text)) throw new PermanentSourceError(`malformed JSON: ${describeJsonError(error, text)}`);
  }
  if (document !== undefined) {
    const found = options.records(document);
    if (!found) throw new PermanentSourceError('JSON of an unexpected shape: no list of works in it');
    records = found.map((value) => ({ value }));
  }

  let items = 0;
  let index = 0;
  // JSON Lines are parsed a line at a time as they are mapped, so a file of 100,000 works never holds
  // all of its parsed records at once (docs/decisions.md, "Issue 35: the first fit and the vectors of a
  // bulk ingest"). The file's text itself is still read whole.
  for (const record of records ?? jsonLines(text)) {
    if ('reject' in record) {
      yield record.reject;
      continue;
    }
    if (items >= options.maxItems) {
      const more = records ? records.length - index : 1 + countLines(text, record.line as number);
      yield {
        type: 'warning',
        reason: 'item limit reached',
        detail: `stopped after ${items} items (maxItems); ${more} more were not read`,
      };
      break;
    }
    let entry: IngestEntry;
    try {
      entry = options.map(record.value, index);
    } catch (error) {
      if (error instanceof PermanentSourceError) throw error;
      entry = {
        type: 'reject',
        key: record.line ? `line ${record.line}` : `record ${index + 1}`,
        reason: 'unreadable record',
        detail: (error as Error).message,
      };
    }
    index++;
    if (entry.type === 'paper' || entry.type === 'news') items++;
    yield entry;
  }
  return { document };
}

type JsonLine = { value: unknown; line: number } | { reject: IngestEntry; line: number };

/** The records of a JSON Lines text, one line at a time; a broken line is a reject with its number. */
function* jsonLines(text: string): Generator<JsonLine> {
  let line = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    line++;
    const content = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    if (!content.trim()) continue;
    try {
      yield { value: JSON.parse(content), line };
    } catch (lineError) {
      yield {
        line,
        reject: { type: 'reject', key: `line ${line}`, reason: 'malformed JSON', detail: (lineError as Error).message },
      };
    }
  }
}

/** Non-empty lines after line `after` (1-based) that are still to read when the item limit stops a file. */
function countLines(text: string, after: number): number {
  let count = 0;
  let line = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    line++;
    if (line > after && text.slice(start, end).trim()) count++;
    start = end + 1;
  }
  return count;
}

/** How many of the first lines are looked at to tell JSON Lines from one document. */
const JSON_LINES_SAMPLE = 20;

/**
 * JSON Lines: several non-empty lines, and most of the first ones are each a whole JSON object. A
 * pretty-printed document never is ("{", then one property per line), so it is not mistaken for it.
 */
export function isJsonLines(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((line) => line.trim());
  if (lines.length < 2) return false;
  const sample = lines.slice(0, JSON_LINES_SAMPLE);
  const objects = sample.filter((line) => {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return false;
    try {
      return isRecord(JSON.parse(trimmed));
    } catch {
      return false;
    }
  }).length;
  return objects * 2 > sample.length;
}

/** JSON.parse's message with the line it points at (Node gives only a character position). */
function describeJsonError(error: unknown, text: string): string {
  const message = (error as Error).message;
  const position = /at position (\d+)/.exec(message)?.[1];
  if (!position || /\(line \d+/.test(message)) return message;
  const line = text.slice(0, Number(position)).split('\n').length;
  return `${message} (line ${line})`;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const asString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
