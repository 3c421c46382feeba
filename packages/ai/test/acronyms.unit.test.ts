import { describe, expect, it } from 'vitest';
import { contentWords, termCounts } from '../src/builtin/text-features';
import { sharedProfileTerms } from '../src/reasons/shared-terms';
import { idfOf } from '../src/reasons/term-weighting';

/** The built-in model keeps acronyms apart from the words they spell (issue 20: STEM vs stem). */
describe('acronyms in the built-in model', () => {
  it('keeps STEM, AIDS and LASSO apart from stem, aids and lasso in mixed-case text', () => {
    expect(contentWords('STEM education in middle schools')).toEqual(['STEM', 'education', 'middle', 'school']);
    expect(contentWords('Lgr5+ stem cells regenerate the gut')).toContain('stem');
    expect(contentWords('Antiretroviral therapy reduced AIDS-related deaths and AIDS')).toContain('AIDS');
    expect(contentWords('teaching aids in rural schools')).toContain('aid');
    expect(contentWords('Debiased LASSO inference')).toContain('LASSO');
    expect(contentWords('a lasso tool for selecting image regions')).toContain('lasso');
    expect(termCounts('STEM identity and persistence').has('STEM identity')).toBe(true);
  });

  it('folds words in an all-capitals title and a capitalised first word as before', () => {
    expect(contentWords('STEM CELLS IN THE INFLAMED GUT')).toEqual(['stem', 'cell', 'inflamed', 'gut']);
    expect(contentWords('Stem cells repair the colon')).toEqual(['stem', 'cell', 'repair', 'colon']);
  });

  it('reads plural acronyms as the acronym (LLMs is LLM) and hyphenated ones whole', () => {
    expect(contentWords('We evaluate LLMs and one LLM')).toEqual(['evaluate', 'LLM', 'LLM']);
    expect(contentWords('patients with COVID-19 in wards')).toContain('COVID19');
  });

  it('never names "stem" as shared between a STEM education paper and a stem-cell summary', () => {
    const summary = 'Intestinal stem cells and their niche in inflammatory bowel disease.';
    const paper =
      'STEM identity among college students. Students in STEM majors persist when STEM instructors recognise them.';
    const terms = sharedProfileTerms(summary, paper, idfOf([summary, paper, 'unrelated text about rocks']));
    expect(terms.map((term) => term.toLowerCase())).not.toContain('stem');
  });
});
