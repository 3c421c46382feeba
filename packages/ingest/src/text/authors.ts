import { toPlainText } from './text';

/**
 * Author lists written as one string (a single dc:creator, arXiv RSS, bioRxiv RSS 1.0). Sources use
 * three shapes, often without saying which:
 *   - full names: "Jane Smith, John Doe and Wei Zhang";
 *   - "Family, Initials" pairs: "Smith, J., Doe, A. B." (bioRxiv), also "Smith, J. A.; Doe, B.";
 *   - one name per element, possibly "Family, Given": "Smith, Jane".
 * A comma therefore separates either two people or the two halves of one name. The halves are told
 * apart by shape: initials ("J.", "A. B.", "J.-P.") are never a person on their own. Names come out as
 * "Given Family", the order the other sources use, so dedupe by first author's surname agrees.
 */

/**
 * "J.", "A. B.", "A.B.", "J.-P.", "Ch.", "M. d. C." — a given name written as initials: a dot after
 * the first, lower-case particles only with a dot.
 */
const DOTTED_INITIALS = /^\p{Lu}\p{Ll}?\.(?:[\s-]*(?:\p{Lu}\p{Ll}?\.?|\p{Ll}{1,2}\.)){0,4}$/u;
/** "J", "JA", "ABC" — initials without dots (PubMed style). */
const BARE_INITIALS = /^\p{Lu}{1,3}$/u;
/** Name suffixes that follow the family name after a comma. */
const SUFFIX = /^(?:jr|sr|ii|iii|iv|2nd|3rd)\.?$/i;
const ET_AL = /(?:,?\s*(?:\bet\.?\s*al\b\.?|\band others\b|\bet coll\b\.?)\s*)+$/i;
const CJK = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** "and" / "&" joining the last two names; "und", "et", "y", "e" are not split (they occur in names). */
const AND = /^(?:and|&)\s+|\s+(?:and|&)\s+|\s*&\s*/i;

const isInitials = (token: string) => DOTTED_INITIALS.test(token) || BARE_INITIALS.test(token);
const words = (token: string) => token.split(/\s+/).filter(Boolean);
const isSingleWord = (token: string) => words(token).length === 1 && !CJK.test(token) && !/\d/.test(token);

/** A family name: words (with particles such as "van der"), no initials-only token, no digits. */
const isFamilyLike = (token: string) => !isInitials(token) && !/\d/.test(token) && words(token).length <= 4;

/** "Family, Given" as "Given Family"; a trailing suffix ("Jr.") follows the family name. */
function reorder(family: string, given: string, suffix?: string): string {
  return [given, family, suffix].filter(Boolean).join(' ');
}

/** Tokens split at commas (and "and"), with name suffixes joined to the token before. */
function commaTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const raw of text.split(/\s*[,，、]\s*/).flatMap((part) => part.split(AND))) {
    const token = raw.trim();
    if (!token) continue;
    const previous = tokens.at(-1);
    if (SUFFIX.test(token) && previous !== undefined) tokens[tokens.length - 1] = `${previous}, ${token}`;
    else tokens.push(token);
  }
  return tokens;
}

/** "Smith, Jr." stays one family part with its suffix. */
function splitSuffix(token: string): { name: string; suffix?: string } {
  const match = /^(.*?),\s*(\S+)$/.exec(token);
  return match?.[1] && match[2] && SUFFIX.test(match[2]) ? { name: match[1], suffix: match[2] } : { name: token };
}

/** Whether a comma list is "Family, Given" pairs throughout. */
function isPairList(tokens: string[], joinedByAnd: boolean): boolean {
  if (tokens.length < 2 || tokens.length % 2 !== 0) return false;
  const names = tokens.map((token) => splitSuffix(token).name);
  const families = names.filter((_, index) => index % 2 === 0);
  const givens = names.filter((_, index) => index % 2 === 1);
  if (!families.every(isFamilyLike)) return false;
  if (givens.some(isInitials) && givens.every((given) => isInitials(given) || isSingleWord(given))) return true;
  // "Smith, John, Doe, Jane": one word each. Two single words joined by "and" are two people.
  return !joinedByAnd && names.every(isSingleWord);
}

function splitCommaList(text: string): string[] {
  const tokens = commaTokens(text);
  if (isPairList(tokens, AND.test(text))) {
    const authors: string[] = [];
    for (let index = 0; index < tokens.length; index += 2) {
      const family = splitSuffix(tokens[index] ?? '');
      const given = splitSuffix(tokens[index + 1] ?? '');
      authors.push(reorder(family.name, given.name, family.suffix ?? given.suffix));
    }
    return authors;
  }
  // Mixed or full names: initials alone are the given name of the name before them.
  const authors: { name: string; hasGiven: boolean }[] = [];
  for (const token of tokens) {
    const previous = authors.at(-1);
    const { name: given, suffix: givenSuffix } = splitSuffix(token);
    if (isInitials(given) && previous && !previous.hasGiven) {
      const { name, suffix } = splitSuffix(previous.name);
      authors[authors.length - 1] = { name: reorder(name, given, suffix ?? givenSuffix), hasGiven: true };
    } else {
      authors.push({ name: token.replace(/,\s*/g, ' '), hasGiven: words(token).length > 1 || CJK.test(token) });
    }
  }
  return authors.map((author) => author.name);
}

/** One "Family, Given" (or "Given Family") name of a semicolon-separated list. */
function semicolonPart(part: string): string[] {
  const pieces = part.split(/\s*,\s*/).filter(Boolean);
  if (pieces.length === 2 && !SUFFIX.test(pieces[1] ?? '')) return [reorder(pieces[0] ?? '', pieces[1] ?? '')];
  if (pieces.length === 3 && SUFFIX.test(pieces[2] ?? ''))
    return [reorder(pieces[0] ?? '', pieces[1] ?? '', pieces[2])];
  return pieces.length > 2 ? splitCommaList(part) : [pieces.join(', ')];
}

/** The people in an author string; [] for an empty one. "et al." and "and others" are dropped. */
export function splitAuthorList(value: string): string[] {
  const text = toPlainText(value, { inline: true }).replace(ET_AL, '').trim();
  if (!text) return [];
  const authors = /[;；]/.test(text)
    ? text
        .split(/\s*[;；]\s*/)
        .flatMap((part) => part.split(AND))
        .map((part) => part.trim())
        .filter(Boolean)
        .flatMap(semicolonPart)
    : splitCommaList(text);
  return authors.map((name) => name.replace(/\s+/g, ' ').trim()).filter(Boolean);
}
