import path from 'node:path';
import type { ResearchFieldId } from '@radar/shared';
import { ActionableError } from '@radar/shared/server';
import { parse } from 'csv-parse/sync';
import { collectIssns } from '../text/identifiers';
import { scimagoFields } from '../text/research-field-evidence';
import { inlineText } from '../text/text';

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
  /** Research fields of the journal's subject areas (SCImago "Areas" and "Categories"); empty when none. */
  fields: ResearchFieldId[];
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

/**
 * Accepted headers per column, compared lower-case without accents ("Título" is "titulo"). Tables
 * exported in Spanish, Portuguese, French, German or Chinese name the quartile "Cuartil", "Quartil",
 * "Quartile" or "分区". A header not listed is still taken when one of its words is a quartile word.
 */
const COLUMN_NAMES = {
  title: [
    'title',
    'journal',
    'journal title',
    'journal name',
    'source title',
    'full journal title',
    'titulo',
    'titulo de la revista',
    'titulo do periodico',
    'revista',
    'periodico',
    'titre',
    'revue',
    'titel',
    'zeitschrift',
    '期刊名称',
    '刊名',
    '期刊',
  ],
  issn: ['issn', 'print issn', 'issn (print)', 'pissn', 'p-issn', 'issns', 'issn impreso', 'issn impresso'],
  eissn: [
    'eissn',
    'e-issn',
    'electronic issn',
    'issn (online)',
    'online issn',
    'issn electronico',
    'issn eletronico',
    'issn en linea',
  ],
  tier: [
    'tier',
    'sjr best quartile',
    'sjr quartile',
    'quartile',
    'best quartile',
    'jcr quartile',
    'jif quartile',
    'cuartil',
    'mejor cuartil',
    'cuartil sjr',
    'quartil',
    'melhor quartil',
    'zone',
    '分区',
    '中科院分区',
    '大类分区',
    'jcr分区',
  ],
  publisher: ['publisher', 'editorial', 'editora', 'editeur', 'verlag', '出版社'],
  /** ASJC subject areas ("Biochemistry, Genetics and Molecular Biology; Medicine"). */
  areas: ['areas', 'subject areas', 'subject area'],
  /** ASJC categories with their quartile ("Endocrinology (Q1); Internal Medicine (Q2)"). */
  categories: ['categories', 'subject categories'],
} as const;

/** Words that make any header a tier column ("SJR Cuartil 2024", "Quartil Qualis"). */
const TIER_WORDS = /(?:^|[\s_(-])(?:quartile|quartil|cuartil|tier)(?:$|[\s_)-])|分区/;

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
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');

const ENTITY_SEMICOLON = /(&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31}));/g;
const HIDDEN_SEMICOLON = '\u0000';

const listNames = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ');

export function parseTierTable(
  text: string,
  options: { label?: string | undefined; fileName?: string } = {},
): TierTable {
  const delimiter = detectDelimiter(text);
  // In a ";" table an unquoted "Energy &amp; Fuels" would be split at the entity's ";": hidden
  // while the CSV is parsed, restored (and decoded) per cell.
  const source = delimiter === ';' ? text.replace(ENTITY_SEMICOLON, `$1${HIDDEN_SEMICOLON}`) : text;
  const restore = (value: string) => value.replaceAll(HIDDEN_SEMICOLON, ';');
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(source, {
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
  const headers = header.record.map((name) => normaliseHeader(restore(name)));
  // First column of each kind (SCImago's export names "Publisher" twice).
  const column = (names: readonly string[]) => headers.findIndex((name) => names.includes(name));
  const tierColumn = column(COLUMN_NAMES.tier);
  const columns = {
    title: column(COLUMN_NAMES.title),
    issn: column(COLUMN_NAMES.issn),
    eissn: column(COLUMN_NAMES.eissn),
    tier: tierColumn >= 0 ? tierColumn : headers.findIndex((name) => TIER_WORDS.test(name)),
    publisher: column(COLUMN_NAMES.publisher),
    areas: column(COLUMN_NAMES.areas),
    categories: column(COLUMN_NAMES.categories),
  };
  const isScimago = headers.includes('sourceid') && headers.some((name) => name.startsWith('sjr'));
  const got = `the file's header: ${header.record.map(restore).join(', ')}`;
  if (columns.tier < 0) {
    throw new TierTableError(
      `no tier column: name it one of ${listNames(COLUMN_NAMES.tier)} (any header with the word quartile, quartil, cuartil or 分区 also works); ${got}`,
    );
  }
  if (columns.issn < 0 && columns.eissn < 0 && columns.title < 0) {
    throw new TierTableError(
      `no journal column: name it one of ${listNames([...COLUMN_NAMES.issn, ...COLUMN_NAMES.eissn, ...COLUMN_NAMES.title])}; ${got}`,
    );
  }

  const year = headers.map((name) => /\((\d{4})\)/.exec(name)?.[1]).find(Boolean);
  const base = options.fileName ? path.basename(options.fileName).replace(/\.[^.]+$/, '') : 'tier-table';
  const label = options.label ?? (isScimago ? `scimago${year ? `-${year}` : ''}` : base);

  const rows: TierRow[] = [];
  const rejects: TierTable['rejects'] = [];
  const cell = (record: string[], index: number) => (index >= 0 ? restore(record[index] ?? '').trim() : '');
  for (const { record, info } of body) {
    const line = info.lines;
    // Exports written by HTML tools carry entities ("Energy &amp; Fuels"): decoded, or titles never match.
    const title = inlineText(cell(record, columns.title));
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
    rows.push({
      line,
      title,
      issns,
      tier,
      publisher: inlineText(cell(record, columns.publisher)) || undefined,
      fields: scimagoFields(cell(record, columns.areas), cell(record, columns.categories)),
    });
  }
  return { format: isScimago ? 'scimago' : 'plain', label, rows, rejects };
}
