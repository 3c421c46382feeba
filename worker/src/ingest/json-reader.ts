import { type DecodeWarning, decodeBytes } from './decode';
import { type IngestEntry, PermanentSourceError } from './types';

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
    const found = options.records(document);
    if (!found) throw new PermanentSourceError('JSON of an unexpected shape: no list of works in it');
    records = found.map((value) => ({ value }));
  } catch (error) {
    if (error instanceof PermanentSourceError) throw error;
    const lines = text.split(/\r?\n/);
    const nonEmpty = lines.filter((line) => line.trim()).length;
    if (nonEmpty < 2) throw new PermanentSourceError(`malformed JSON: ${(error as Error).message}`);
    // JSON Lines: one record per line.
    records = [];
    let broken = 0;
    for (const [index, line] of lines.entries()) {
      if (!line.trim()) continue;
      try {
        records.push({ value: JSON.parse(line), line: index + 1 });
      } catch (lineError) {
        broken++;
        yield {
          type: 'reject',
          key: `line ${index + 1}`,
          reason: 'malformed JSON',
          detail: (lineError as Error).message,
        };
      }
    }
    if (broken === nonEmpty) throw new PermanentSourceError(`malformed JSON: ${(error as Error).message}`);
  }

  let items = 0;
  for (const [index, record] of records.entries()) {
    if (items >= options.maxItems) {
      yield {
        type: 'warning',
        reason: 'item limit reached',
        detail: `stopped after ${items} items (maxItems); ${records.length - index} more were not read`,
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
    if (entry.type === 'paper' || entry.type === 'news') items++;
    yield entry;
  }
  return { document };
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const asString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
