import path from 'node:path';
import { ActionableError } from '@radar/shared/server';
import { parse } from 'csv-parse/sync';
import { collectIssns } from './identifiers';
import { cleanInline } from './text';

/**
 * Journal tier tables (CSV). Two shapes are read:
 * - SCImago's export (scimagojr.com): `;` delimiter, decimal commas, ISSNs without hyphens in one
 *   "Issn" column ("22138595, 22138587"), quartile in "SJR Best Quartile" or "SJR Quartile";
 * - a plain table with the columns issn (and optionally eissn), title, tier: 1-4, Q1-Q4 or 1区-4区.
 * The delimiter (`;`, `,` or tab) is taken from the header line. Rows without a usable tier or journal
 * are returned as rejects with their line number.
 */

export interface TierRow {
  line: number;
  title: string;
  issns: string[];
  tier: number;
  publisher: string | undefined;
}

export interface TierTable {
  format: 'scimago' | 'plain';
  /** Stored as journals.tier_source, e.g. "scimago-2024". */
  label: string;
  rows: TierRow[];
  rejects: { line: number; reason: string; detail?: string }[];
}

/** A tier table that cannot be read as a whole (wrong shape, no usable columns): the operator fixes the file. */
export class TierTableError extends ActionableError {
  override name = 'TierTableError';
}

const COLUMN_NAMES = {
  title: [
    'title',
    'journal',
    'journal title',
    'journal name',
    'source title',
    'full journal title',
    '期刊名称',
    '刊名',
    '期刊',
  ],
  issn: ['issn', 'print issn', 'issn (print)', 'pissn', 'p-issn', 'issns'],
  eissn: ['eissn', 'e-issn', 'electronic issn', 'issn (online)', 'online issn'],
  tier: [
    'tier',
    'sjr best quartile',
    'sjr quartile',
    'quartile',
    'best quartile',
    'jcr quartile',
    'jif quartile',
    'zone',
    '分区',
    '中科院分区',
    '大类分区',
  ],
  publisher: ['publisher'],
} as const;

const CHINESE_DIGITS: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4 };

/** 1-4 from "1", "Q1", "q1", "Tier 1", "1区", "一区"; undefined otherwise ("-", "", "Q5"). */
export function parseTier(raw: string | undefined): number | undefined {
  const value = (raw ?? '').trim();
  const match = /^(?:q|tier\s*)?([1-4])(?:\s*区)?$/i.exec(value);
  if (match?.[1]) return Number(match[1]);
  const chinese = /^([一二三四])\s*区$/.exec(value);
  return chinese?.[1] ? CHINESE_DIGITS[chinese[1]] : undefined;
}

function detectDelimiter(text: string): string {
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  const outsideQuotes = header.replace(/"[^"]*"/g, '');
  const counts = [';', ',', '\t'].map((delimiter) => ({ delimiter, count: outsideQuotes.split(delimiter).length - 1 }));
  counts.sort((a, b) => b.count - a.count);
  return counts[0] && counts[0].count > 0 ? counts[0].delimiter : ',';
}

const normaliseHeader = (value: string) =>
  value
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');

export function parseTierTable(
  text: string,
  options: { label?: string | undefined; fileName?: string } = {},
): TierTable {
  const delimiter = detectDelimiter(text);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      delimiter,
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    throw new TierTableError(`not a readable CSV file: ${(error as Error).message}`);
  }
  const [header, ...body] = records;
  if (!header) throw new TierTableError('the file is empty');
  const headers = header.record.map(normaliseHeader);
  // First column of each kind (SCImago's export names "Publisher" twice).
  const column = (names: readonly string[]) => headers.findIndex((name) => names.includes(name));
  const columns = {
    title: column(COLUMN_NAMES.title),
    issn: column(COLUMN_NAMES.issn),
    eissn: column(COLUMN_NAMES.eissn),
    tier: column(COLUMN_NAMES.tier),
    publisher: column(COLUMN_NAMES.publisher),
  };
  const isScimago = headers.includes('sourceid') && headers.some((name) => name.startsWith('sjr'));
  if (columns.tier < 0) {
    throw new TierTableError(
      `no tier column: expected one of ${COLUMN_NAMES.tier
        .slice(0, 4)
        .map((name) => `"${name}"`)
        .join(', ')} (got ${header.record.join(', ')})`,
    );
  }
  if (columns.issn < 0 && columns.eissn < 0 && columns.title < 0) {
    throw new TierTableError('no journal column: expected "issn" and/or "title"');
  }

  const year = headers.map((name) => /\((\d{4})\)/.exec(name)?.[1]).find(Boolean);
  const base = options.fileName ? path.basename(options.fileName).replace(/\.[^.]+$/, '') : 'tier-table';
  const label = options.label ?? (isScimago ? `scimago${year ? `-${year}` : ''}` : base);

  const rows: TierRow[] = [];
  const rejects: TierTable['rejects'] = [];
  const cell = (record: string[], index: number) => (index >= 0 ? (record[index] ?? '').trim() : '');
  for (const { record, info } of body) {
    const line = info.lines;
    const title = cleanInline(cell(record, columns.title));
    const issns = collectIssns([cell(record, columns.issn), cell(record, columns.eissn)]);
    const tierText = cell(record, columns.tier);
    const tier = parseTier(tierText);
    if (!title && issns.length === 0) {
      rejects.push({ line, reason: 'no journal', detail: 'neither a title nor a valid ISSN' });
      continue;
    }
    if (tier === undefined) {
      rejects.push({ line, reason: 'no tier', detail: `${title || issns.join(', ')}: "${tierText}"` });
      continue;
    }
    rows.push({ line, title, issns, tier, publisher: cleanInline(cell(record, columns.publisher)) || undefined });
  }
  return { format: isScimago ? 'scimago' : 'plain', label, rows, rejects };
}
