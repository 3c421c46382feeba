import { KEYWORD_LIMITS } from '@radar/shared';

/** Separators a pasted list of terms may use: commas (ASCII, full-width, 、), semicolons and line breaks. */
const SEPARATORS = /[,，、;；\n]+/;

export type NegativeTermsResult = {
  terms: string[];
  /** Why some of the input was not added; undefined when all of it was (or it was blank). */
  error?: string;
};

export const NEGATIVE_TERM_MESSAGES = {
  tooLong: `排除词不能超过 ${KEYWORD_LIMITS.negativeTermMaxLength} 个字符`,
  tooMany: `排除词最多 ${KEYWORD_LIMITS.negativeTermsPerKeyword} 个`,
} as const;

/**
 * Adds what the user typed (one term, or several separated by commas or line breaks) to a keyword's
 * negative terms, with the server's rules (keyword.schema.ts): trimmed, blank parts skipped, at most
 * 100 characters each, at most 20 terms; a term already in the list (ignoring case) is not added twice,
 * as the server would drop it.
 */
export function addNegativeTerms(terms: readonly string[], input: string): NegativeTermsResult {
  const next = [...terms];
  const seen = new Set(terms.map((term) => term.toLowerCase()));
  let error: string | undefined;
  for (const part of input.split(SEPARATORS)) {
    const term = part.trim();
    if (!term || seen.has(term.toLowerCase())) continue;
    if (Array.from(term).length > KEYWORD_LIMITS.negativeTermMaxLength) {
      error ??= NEGATIVE_TERM_MESSAGES.tooLong;
      continue;
    }
    if (next.length >= KEYWORD_LIMITS.negativeTermsPerKeyword) {
      error ??= NEGATIVE_TERM_MESSAGES.tooMany;
      break;
    }
    next.push(term);
    seen.add(term.toLowerCase());
  }
  return error ? { terms: next, error } : { terms: next };
}
