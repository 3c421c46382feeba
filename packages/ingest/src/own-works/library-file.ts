import { type CSL, plugins } from '@citation-js/core';
// Side effects: each plugin registers its input format with @citation-js/core.
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import { hasInvalidCharacters, invalidCharactersMessage, OWN_WORKS_LIMITS } from '@radar/shared';
import type { PaperDraft } from '../types';
import { cslToDraft } from './csl-draft';

/** A library file that cannot be read: `message` is for the reader (Chinese). */
export class LibraryFileError extends Error {
  override name = 'LibraryFileError';
}

export type LibraryFormat = 'bibtex' | 'ris' | 'csl-json';

/**
 * citation-js's names of the text formats accepted. Anything else is refused before parsing: given a
 * DOI or a URL, citation-js would fetch it over the network, which an uploaded file must never cause.
 */
const CITATION_JS_FORMATS: Record<string, LibraryFormat> = {
  '@biblatex/text': 'bibtex',
  '@bibtex/text': 'bibtex',
  '@ris/file': 'ris',
};

const MESSAGES = {
  tooLarge: '文件不能超过 2 MB',
  unknownFormat: '无法识别文件格式：请上传 BibTeX（.bib）、RIS（.ris）或 CSL-JSON（Zotero 导出的 .json）文件',
  malformed: (format: string) => `文件无法解析：请检查 ${format} 格式是否完整`,
  noWorks: '文件中没有找到带标题的文献',
  // The request schema's message for the same characters in the file's text ('文件内容'), word for word.
  invalidCharacters: invalidCharactersMessage('文件内容'),
} as const;

const FORMAT_LABELS: Record<LibraryFormat, string> = { bibtex: 'BibTeX', ris: 'RIS', 'csl-json': 'CSL-JSON' };

/** U+FFFE, U+FFFF, U+FDD0-FDEF and the last two code points of every plane: never text. */
const NON_CHARACTER = /\p{Noncharacter_Code_Point}/u;

/**
 * The one check of a library file's characters, whatever its format: NUL and lone surrogates (as every
 * request field refuses them: PostgreSQL cannot store them, and the task input holding the parsed works
 * failed to insert with a 500) and non-characters. Run on the file's text and again on every string the
 * parser produced (keys included), since CSL-JSON escapes (`\u0000`, `\ud800`) and BibTeX commands
 * decode to characters the text did not show.
 */
const hasForbiddenCharacters = (value: string) => hasInvalidCharacters(value) || NON_CHARACTER.test(value);

function assertReadableCharacters(items: unknown): void {
  // Iterative: a deeply nested JSON file must not overflow the stack.
  const pending: unknown[] = [items];
  while (pending.length) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (hasForbiddenCharacters(value)) throw new LibraryFileError(MESSAGES.invalidCharacters);
    } else if (Array.isArray(value)) {
      pending.push(...value);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, member] of Object.entries(value)) {
        if (hasForbiddenCharacters(key)) throw new LibraryFileError(MESSAGES.invalidCharacters);
        pending.push(member);
      }
    }
  }
}

function readCslJson(text: string): CSL[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LibraryFileError(MESSAGES.malformed(FORMAT_LABELS['csl-json']));
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  if (!items.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item))) {
    throw new LibraryFileError(MESSAGES.malformed(FORMAT_LABELS['csl-json']));
  }
  return items as CSL[];
}

/**
 * The works of a library export file (BibTeX or BibLaTeX, RIS, CSL-JSON as Zotero exports it), parsed
 * with citation-js into drafts of papers, in file order, at most OWN_WORKS_LIMITS.maxWorks. Works
 * without a title are left out. Throws LibraryFileError, with a message for the reader, when the file
 * is too large, of another format, malformed, has characters no text has (hasForbiddenCharacters), or
 * has no titled work. CPU-bound (a 2 MB BibTeX file takes over a second): the server runs it in a worker
 * thread (parseLibraryFileOffThread).
 */
export function parseLibraryFile(content: string): { format: LibraryFormat; works: PaperDraft[]; total: number } {
  if (content.length > OWN_WORKS_LIMITS.maxFileChars) throw new LibraryFileError(MESSAGES.tooLarge);
  if (hasForbiddenCharacters(content)) throw new LibraryFileError(MESSAGES.invalidCharacters);
  const text = content.replace(/^\uFEFF/, '').trim();
  if (!text) throw new LibraryFileError(MESSAGES.noWorks);
  let format: LibraryFormat;
  let items: CSL[];
  if (text.startsWith('[') || text.startsWith('{')) {
    format = 'csl-json';
    items = readCslJson(text);
  } else {
    const type = plugins.input.type(text) ?? '';
    const detected = CITATION_JS_FORMATS[type];
    if (!detected) throw new LibraryFileError(MESSAGES.unknownFormat);
    format = detected;
    try {
      items = plugins.input.chain(text, {
        generateGraph: false,
        target: '@csl/list+object',
        maxChainLength: 10,
        strict: false,
        forceType: type,
      });
    } catch {
      throw new LibraryFileError(MESSAGES.malformed(FORMAT_LABELS[format]));
    }
  }
  assertReadableCharacters(items);
  const works = items.flatMap((item, index) => {
    const draft = cslToDraft(item, index);
    return draft ? [draft] : [];
  });
  if (!works.length) throw new LibraryFileError(MESSAGES.noWorks);
  return { format, works: works.slice(0, OWN_WORKS_LIMITS.maxWorks), total: works.length };
}
