import { Cite } from '@citation-js/core';
import '@citation-js/plugin-ris';
import type { CitationFormat } from '@radar/shared';
import type { CitationItem, CitationName } from './paper-citation';

/** A citation file: its text, its media type and the file name extension. */
export interface CitationFile {
  body: string;
  contentType: string;
  extension: string;
}

const FILE_TYPES: Record<CitationFormat, Omit<CitationFile, 'body'>> = {
  bibtex: { contentType: 'application/x-bibtex; charset=utf-8', extension: 'bib' },
  ris: { contentType: 'application/x-research-info-systems; charset=utf-8', extension: 'ris' },
  csljson: { contentType: 'application/vnd.citationstyles.csl+json; charset=utf-8', extension: 'json' },
};

/**
 * The items as a file of the format. CSL-JSON is written by citation-js; RIS takes citation-js's
 * mapping of CSL to RIS tags and is written by writeRis() below, because citation-js breaks every
 * value after 70 characters, inside words (RIS has no continuation lines: readers, ours included, join
 * the pieces with a space, `eviden ce`). BibTeX is written by writeBibtex() below, because citation-js
 * 0.9's BibTeX output either drops every character it has no TeX command for (its default: 王小明 and
 * a Chinese title come out empty) or, with `asciiOnly` off, escapes no TeX special character at all (a
 * title with & or % breaks LaTeX). No items: an empty BibTeX or RIS file, an empty CSL-JSON list
 * (`[]`), each a valid file of its format.
 */
export function writeCitationFile(items: readonly CitationItem[], format: CitationFormat): CitationFile {
  const type = FILE_TYPES[format];
  if (format === 'bibtex') return { ...type, body: writeBibtex(items) };
  // A copy: citation-js adds its own bookkeeping to the objects it is given.
  const cite = new Cite(structuredClone(items) as object[]);
  // plugin-ris ships no types: its output format is not in citation-js's typed list of formats.
  const formatAs = cite.format.bind(cite) as (name: string, options?: object) => unknown;
  if (format === 'ris') return { ...type, body: writeRis(formatAs('ris', { format: 'object' }) as RisRecord[], items) };
  return { ...type, body: `${JSON.stringify(cite.data, CSL_JSON_FIELDS, 2)}\n` };
}

/** Only CSL fields in the CSL-JSON file (citation-js keeps `_graph` and similar of its own). */
function CSL_JSON_FIELDS(this: unknown, key: string, value: unknown): unknown {
  return key.startsWith('_') ? undefined : value;
}

/** One RIS record as citation-js maps it: tag -> value, or the values of a repeated tag (AU, KW). */
type RisRecord = Record<string, unknown>;

/** A RIS value on one line: line breaks and runs of spaces as one space, no space at either end. */
const risValue = (value: unknown) => String(value).replace(/\s+/g, ' ').trim();

/**
 * RIS records, each tag on one line of its own (`TI  - value`) however long, repeated tags (AU, KW)
 * one line per value with empty values left out, TY first and ER last. A preprint's server (arXiv ...)
 * is written as its publisher (PB) and, where RIS readers look for the venue of a JOUR record (they
 * drop PB there, citation-js included), as T2, as Google Scholar writes arXiv papers.
 */
function writeRis(records: readonly RisRecord[], items: readonly CitationItem[]): string {
  return records
    .map((record, index) => {
      const server = items[index]?.type === 'article' ? items[index]?.publisher : undefined;
      const withPublisher = server ? { ...record, PB: record.PB ?? server, T2: record.T2 ?? server } : record;
      const lines = [`TY  - ${risValue(record.TY)}`];
      for (const [tag, value] of Object.entries(withPublisher)) {
        if (tag === 'TY' || tag === 'ER') continue;
        for (const one of [value].flat()) {
          const text = one === undefined || one === null ? '' : risValue(one);
          if (text) lines.push(`${tag}  - ${text}`);
        }
      }
      lines.push('ER  - ');
      return `${lines.join('\n')}\n`;
    })
    .join('');
}

const TEX_ESCAPES: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
};

/**
 * Text as a BibTeX value: the ten TeX special characters escaped; every other character (accents, CJK)
 * stays as UTF-8, which biber/BibLaTeX, Zotero, JabRef, EndNote and NoteExpress read.
 */
const escapeTex = (text: string) => text.replace(/[\\{}&%$#_~^]/g, (char) => TEX_ESCAPES[char] ?? char);

/** A URL or DOI is read verbatim; only braces, which would unbalance the value, are percent-encoded. */
const verbatim = (text: string) => text.replace(/\{/g, '%7B').replace(/\}/g, '%7D');

/** "Family, Given"; a literal name (CJK) and any name with " and " in it are one braced unit. */
function bibtexName(name: CitationName): string {
  if ('literal' in name) return `{${escapeTex(name.literal)}}`;
  const family = / and /i.test(name.family) ? `{${escapeTex(name.family)}}` : escapeTex(name.family);
  return name.given ? `${family}, ${escapeTex(name.given)}` : family;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function bibtexEntry(item: CitationItem): string {
  const [year, month, day] = item.issued?.['date-parts']?.[0] ?? [];
  const arxivId = typeof item.number === 'string' ? item.number.replace(/^arXiv:/, '') : undefined;
  const fields: [string, string | undefined][] = [
    ['title', escapeTex(item.title)],
    ['author', item.author.length ? item.author.map(bibtexName).join(' and ') : undefined],
    ['journal', item['container-title'] ? escapeTex(String(item['container-title'])) : undefined],
    ['publisher', item.type === 'article' && item.publisher ? escapeTex(String(item.publisher)) : undefined],
    ['year', year === undefined ? undefined : String(year)],
    // BibTeX's fields are year and month; `day` (JabRef, Mendeley) keeps the rest of the date for
    // readers that know it, ours included, and every style ignores it.
    ['day', typeof month === 'number' && typeof day === 'number' ? String(day) : undefined],
    ['doi', item.DOI ? verbatim(item.DOI) : undefined],
    ['url', item.URL ? verbatim(item.URL) : undefined],
    // arXiv's own fields, which BibLaTeX, Zotero and JabRef link to the preprint.
    ['eprint', arxivId],
    ['archiveprefix', arxivId ? 'arXiv' : undefined],
    ['abstract', item.abstract ? escapeTex(item.abstract) : undefined],
    ['keywords', item.keyword ? escapeTex(item.keyword) : undefined],
  ];
  const lines = fields
    .filter((field): field is [string, string] => field[1] !== undefined)
    .map(([name, value]) => `  ${name} = {${value}},`);
  // Month as BibTeX's own macro (jan ... dec), which every style prints in its language.
  const monthName = typeof month === 'number' ? MONTHS[month - 1] : undefined;
  if (monthName) lines.splice(lines.findIndex((line) => line.startsWith('  year')) + 1, 0, `  month = ${monthName},`);
  // A preprint is @misc (BibLaTeX reads eprint there), a journal paper @article.
  return `@${item.type === 'article' ? 'misc' : 'article'}{${item['citation-key']},\n${lines.join('\n')}\n}\n`;
}

const writeBibtex = (items: readonly CitationItem[]) => items.map(bibtexEntry).join('\n');
