export { explainRecommendation, MAX_REASON_CHARS } from './recommendation-reason';
export { sharedFields } from './shared-fields';
export { sharedProfileTerms } from './shared-terms';
export { idfOf, type TermWeighting, vocabularyWeighting } from './term-weighting';
