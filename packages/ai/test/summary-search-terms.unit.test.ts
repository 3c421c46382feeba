import { describe, expect, it } from 'vitest';
import { summarySearchTerms } from '../src';
import { idfOf } from '../src/reasons/term-weighting';

/**
 * The search terms of a research summary (the per-reader OpenAlex query): the summary's own noun
 * phrases kept whole, without the words every abstract uses or the words of a biography, and without
 * names of people and institutions.
 */

describe('summarySearchTerms', () => {
  it('keeps the multiword phrases of a computational chemistry summary', () => {
    const terms = summarySearchTerms(
      'My research focuses on graph neural networks for molecular property prediction and drug discovery. ' +
        'We develop novel deep learning models that combine geometric deep learning with quantum chemistry data.',
    );
    expect(terms).toEqual([
      'graph neural networks',
      'molecular property prediction',
      'drug discovery',
      'geometric deep learning',
      'quantum chemistry',
    ]);
  });

  it('leaves out the biography (title, institution, name) of a biology summary', () => {
    const terms = summarySearchTerms(
      'Dr. Li is an associate professor at the School of Life Sciences, Peking University. Her research ' +
        'interests include single-cell RNA sequencing data analysis, gene regulatory networks and the ' +
        'epigenetic regulation of hematopoietic stem cells.',
    );
    expect(terms).toEqual([
      'single-cell RNA sequencing',
      'gene regulatory networks',
      'epigenetic regulation',
      'hematopoietic stem cells',
    ]);
  });

  it('finds the narrow topics of a humanities summary, at most `limit` of them', () => {
    const summary =
      'I study the social history of late imperial China, especially Qing dynasty local gazetteers, ' +
      'lineage organizations and rural credit markets, using digital humanities methods.';
    const terms = summarySearchTerms(summary);
    expect(terms).toEqual([
      'social history',
      'late imperial china',
      'qing dynasty local gazetteers',
      'lineage organizations',
      'rural credit markets',
      'digital humanities',
    ]);
    expect(summarySearchTerms(summary, { limit: 3 })).toHaveLength(3);
  });

  it('prefers the rarer terms when a weighting is given, and finds nothing in a summary of generic words', () => {
    const summary = 'Research interests: protein folding, machine learning, and cryo-electron microscopy.';
    // A corpus where machine learning is everywhere and cryo-electron microscopy rare.
    const corpus = [
      ...Array.from({ length: 20 }, (_, i) => `machine learning study ${i}`),
      'protein folding dynamics',
      'protein folding machine learning',
      'cryo-electron microscopy of membrane proteins',
    ];
    const terms = summarySearchTerms(summary, { limit: 2, weighting: idfOf(corpus) });
    expect(terms).toEqual(['protein folding', 'cryo-electron microscopy']);
    expect(summarySearchTerms('We propose a novel framework that achieves state-of-the-art performance.')).toEqual([]);
    expect(summarySearchTerms('')).toEqual([]);
  });
});
