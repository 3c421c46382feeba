import { termCounts } from '../builtin/text-features';
import type { TfidfVocabulary } from '../builtin/tfidf';

/**
 * How telling a term (as termCounts spells it: a stem, a bigram of stems, a CJK bigram) is: an
 * idf-like weight, larger for rarer terms; undefined when the source does not know the term.
 */
export interface TermWeighting {
  weight(term: string): number | undefined;
}

/** The idf of a fitted vocabulary: the active built-in model's own weights. */
export function vocabularyWeighting(vocabulary: TfidfVocabulary): TermWeighting {
  const idfByTerm = new Map<string, number>();
  vocabulary.terms.forEach((term, index) => {
    idfByTerm.set(term, vocabulary.idf[index] as number);
  });
  return { weight: (term) => idfByTerm.get(term) };
}

/**
 * Idf over a set of texts (the candidates of one response, the papers of one digest), for when the
 * active model has no vocabulary of its own (a remote model, the hashing bootstrap). The smoothed
 * formula of the built-in fit (tfidf.ts), so both sources weigh alike; every term of the texts is known.
 */
export function idfOf(texts: string[]): TermWeighting {
  const documentFrequency = new Map<string, number>();
  for (const text of texts) {
    for (const term of termCounts(text).keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const n = texts.length;
  return {
    weight: (term) => {
      const df = documentFrequency.get(term);
      return df === undefined ? undefined : Math.log((1 + n) / (1 + df)) + 1;
    },
  };
}
