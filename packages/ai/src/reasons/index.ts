export { sharedTermsInAnyLanguage } from './shared-chinese-terms';
export { sharedFields } from './shared-fields';
export { summarySearchTerms } from './summary-search-terms';
export { idfOf, type TermWeighting, vocabularyWeighting } from './term-weighting';
