import type { CSL } from '@citation-js/core';
import type { PaperView } from '@radar/db';
import { isPreprintServerName } from '@radar/ingest';

/**
 * A paper as one CSL-JSON item (the citation data model of Zotero and citeproc): the one mapping from
 * our record that every export format is derived from (citation-files.ts).
 */
export type CitationItem = CSL & {
  id: string;
  'citation-key': string;
  type: 'article-journal' | 'article';
  title: string;
  author: CitationName[];
};

/** A person's name: family and given for Latin names, the name as written (`literal`) for CJK ones. */
export type CitationName = { family: string; given?: string } | { literal: string };

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;
/** A space between two CJK characters (王 小明): not part of the name. */
const CJK_SPACE =
  /(?<=[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]) (?=[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff])/g;
/** Lower-case particles that belong to the family name (van der Berg, de la Cruz, von Neumann). */
const PARTICLES = new Set([
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'da',
  'di',
  'du',
  'la',
  'le',
  'dos',
  'das',
  'ter',
  'ten',
  'bin',
  'al',
  'el',
]);
const ARXIV_PAGE = /arxiv\.org\/(?:abs|pdf)\/([a-z-]+(?:\.[a-z]{2})?\/\d{7}|\d{4}\.\d{4,5})(?:v\d+)?/i;

/**
 * "Müller, Jürgen" and "Jürgen Müller" -> family Müller, given Jürgen; a CJK name (王小明, 王 小明) stays
 * whole, since which characters are the family name cannot be told reliably (欧阳, 司马).
 */
function citationName(raw: string): CitationName {
  const name = raw.replace(/\s+/g, ' ').trim();
  if (CJK.test(name)) return { literal: name.replace(CJK_SPACE, '') };
  const comma = name.indexOf(',');
  if (comma > 0) {
    const given = name.slice(comma + 1).trim();
    return given ? { family: name.slice(0, comma).trim(), given } : { family: name.slice(0, comma).trim() };
  }
  const words = name.split(' ');
  if (words.length === 1) return { family: name };
  let familyStart = words.length - 1;
  while (familyStart > 1 && PARTICLES.has(words[familyStart - 1] ?? '')) familyStart -= 1;
  return { family: words.slice(familyStart).join(' '), given: words.slice(0, familyStart).join(' ') };
}

/** Latin letters of a text without accents (Müller -> Muller), for citation keys. */
const asciiWord = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, ' ')
    .split(' ')
    .find((word) => word.length > 2 && !['the', 'and', 'for', 'with', 'from'].includes(word)) ?? '';

/** The arXiv id of a paper, from its own or its preprint's page; undefined when it has none. */
function arxivIdOf(paper: Pick<PaperView, 'url' | 'preprintUrl' | 'pdfUrl'>): string | undefined {
  for (const link of [paper.url, paper.preprintUrl, paper.pdfUrl]) {
    const match = link ? ARXIV_PAGE.exec(link) : null;
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/** A preprint alone: no journal, or only the preprint server as its venue. */
const isPreprint = (paper: PaperView) => !paper.journalName.trim() || isPreprintServerName(paper.journalName);

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `citation-key`s unique within one file: the second of two alike gets b, the third c. */
function citationKeys(papers: readonly PaperView[]): string[] {
  const seen = new Map<string, number>();
  return papers.map((paper) => {
    const first = paper.authors[0] ? citationName(paper.authors[0]) : undefined;
    const family = first ? asciiWord('family' in first ? first.family : first.literal) : '';
    const base =
      `${family || 'paper'}${paper.publishedAt?.slice(0, 4) ?? ''}${asciiWord(paper.title)}` || `paper${paper.id}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}${String.fromCharCode(96 + Math.min(count, 26))}`;
  });
}

/** The CSL-JSON items of papers, in order (keys unique among them). */
export function toCitationItems(papers: readonly PaperView[]): CitationItem[] {
  const keys = citationKeys(papers);
  return papers.map((paper, index) => {
    const key = keys[index] ?? `paper${paper.id}`;
    const arxivId = arxivIdOf(paper);
    const preprint = isPreprint(paper);
    const date = paper.publishedAt?.split('-').map(Number);
    const doi = paper.doi ?? (preprint && arxivId ? `10.48550/arXiv.${arxivId}` : undefined);
    const url = paper.url || (paper.doi ? `https://doi.org/${paper.doi}` : undefined);
    const item: CitationItem = {
      id: key,
      'citation-key': key,
      type: preprint ? 'article' : 'article-journal',
      title: oneLine(paper.title),
      author: paper.authors.map(citationName),
      ...(preprint
        ? {
            publisher: oneLine(paper.journalName) || (arxivId ? 'arXiv' : ''),
            ...(arxivId ? { number: `arXiv:${arxivId}` } : {}),
          }
        : { 'container-title': oneLine(paper.journalName) }),
      ...(date?.[0]
        ? { issued: { 'date-parts': [date.filter((part) => Number.isFinite(part)) as [number, number, number]] } }
        : {}),
      ...(doi ? { DOI: doi } : {}),
      ...(url ? { URL: url } : {}),
      ...(paper.abstract.trim() ? { abstract: oneLine(paper.abstract) } : {}),
      ...(paper.keywords.length ? { keyword: paper.keywords.join(', ') } : {}),
    };
    if (item.publisher === '') delete item.publisher;
    return item;
  });
}
