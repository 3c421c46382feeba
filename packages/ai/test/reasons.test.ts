import fs from 'node:fs';
import path from 'node:path';
import { sharedFixturesDir } from '@radar/db/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { LsaEmbeddingProvider } from '../src/builtin/builtin-embedders';
import { fitLsaModel } from '../src/builtin/lsa-model';
import { termCounts } from '../src/builtin/text-features';
import { idfOf, sharedFields, type TermWeighting, vocabularyWeighting } from '../src/reasons';
import { sharedProfileTerms } from '../src/reasons/shared-terms';
import { type LabelledDocument, readLabelledCsv } from '../src/testing/labelled-set';

/**
 * Why a recommendation is shown: the profile terms a paper shares with the research summary (real
 * arXiv abstracts and written examples) and the research fields it names (the Chinese sentence:
 * packages/recommend/test/reason-text.test.ts).
 */

const comparable = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');

/** Every shown term is written in the document, and each of its words and word pairs is a term of both texts. */
function expectSharedByBoth(terms: string[], profile: string, document: string) {
  const profileTerms = termCounts(profile);
  const documentTerms = termCounts(document);
  for (const term of terms) {
    expect(comparable(document), term).toContain(comparable(term));
    const parts = [...termCounts(term).keys()];
    expect(parts.length, term).toBeGreaterThan(0);
    for (const part of parts) {
      expect(profileTerms.has(part), `${term}: '${part}' in the profile`).toBe(true);
      expect(documentTerms.has(part), `${term}: '${part}' in the document`).toBe(true);
    }
  }
}

/** No shown term is part of another shown term ('neural network' and 'network'). */
function expectNoContainedTerms(terms: string[]) {
  const stems = terms.map((term) => ` ${[...termCounts(term).keys()].filter((key) => !key.includes(' ')).join(' ')} `);
  for (let a = 0; a < terms.length; a++) {
    for (let b = 0; b < terms.length; b++) {
      if (a !== b)
        expect((stems[b] as string).includes(stems[a] as string), `${terms[a]} within ${terms[b]}`).toBe(false);
    }
  }
}

// Unrelated abstracts, so that idf over the texts tells common words from telling ones.
const BACKGROUND = [
  'Surface codes for quantum error correction: we present decoders that reduce the logical error rate.',
  'Coral reef monitoring with underwater drones and image classification of bleaching events.',
  'Monetary policy shocks and household consumption: evidence from a panel of European countries.',
  'A survey of transformer language models for code completion and program repair.',
];

/** Idf over the texts of a test and the background abstracts. */
const weigh = (...texts: string[]) => idfOf([...texts, ...BACKGROUND]);

describe('shared profile terms', () => {
  const profile =
    'We develop graph neural networks for molecular property prediction and drug discovery, ' +
    'using message passing on molecular graphs and transformer architectures for protein sequences.';
  const document =
    'Graph Neural Networks for Molecular Property Prediction. We benchmark message passing graph neural ' +
    'networks on molecular property prediction tasks and study a transformer architecture for molecules.';
  const weighting = weigh(document, profile);

  it('names whole phrases in place of their words, most telling first', () => {
    const terms = sharedProfileTerms(profile, document, weighting, 5);
    expect(terms).toEqual([
      'graph neural networks',
      'molecular property prediction',
      'message passing',
      'transformer architecture',
    ]);
    expectSharedByBoth(terms, profile, document);
    expectNoContainedTerms(terms);
    // The default is three terms.
    expect(sharedProfileTerms(profile, document, weighting)).toEqual(terms.slice(0, 3));
  });

  it('spells a term as both texts contain it when they can ("architecture" is in "architectures")', () => {
    const [profileText, documentText] = [
      'Transformer architectures for Networks of proteins.',
      'A transformer architecture for protein networks.',
    ];
    const terms = sharedProfileTerms(profileText, documentText, weigh(profileText, documentText));
    expect([...terms].sort()).toEqual(['networks', 'protein', 'transformer architecture']);
    expectSharedByBoth(terms, profileText, documentText);
  });

  it('keeps acronyms as written', () => {
    const [profileText, documentText] = [
      'Fine-tuning LLMs for clinical NLP.',
      'We study fine-tuning of LLMs on clinical notes.',
    ];
    const terms = sharedProfileTerms(profileText, documentText, weigh(profileText, documentText));
    expect([...terms].sort()).toEqual(['LLMs', 'clinical', 'fine-tuning']);
  });

  it('never names a term only one text contains', () => {
    const [profileText, documentText] = [
      'Quantum error correction with surface codes.',
      'An error analysis of variational quantum circuits.',
    ];
    const terms = sharedProfileTerms(profileText, documentText, weigh(profileText, documentText));
    // Both words are shared, the phrases are not.
    expect([...terms].sort()).toEqual(['error', 'quantum']);
    expect(sharedProfileTerms(profile, 'Coral reef monitoring with drones.', weighting)).toEqual([]);
  });

  it('leaves out words every abstract uses, and terms the weighting does not know', () => {
    const [profileText, documentText] = [
      'A novel framework that demonstrates state-of-the-art performance on several datasets.',
      'Our novel framework demonstrates state-of-the-art performance on benchmark datasets.',
    ];
    expect(sharedProfileTerms(profileText, documentText, weigh(profileText, documentText))).toEqual([]);
    const onlyProtein: TermWeighting = { weight: (term) => (term === 'protein' ? 2 : undefined) };
    expect(sharedProfileTerms('protein folding dynamics', 'Protein folding dynamics in cells.', onlyProtein)).toEqual([
      'protein',
    ]);
  });

  it('leaves out the keyword a reason already names', () => {
    const terms = sharedProfileTerms(profile, document, weighting, 3, { excluding: 'graph neural network' });
    expect(terms).toEqual(['molecular property prediction', 'message passing', 'transformer architecture']);
  });

  it('skips LaTeX commands', () => {
    const [profileText, documentText] = [
      'Circuit complexity of $\\mathsf{TC}^0$ transformers.',
      'Transformers lie in $\\mathsf{TC}^0$ under circuit complexity bounds.',
    ];
    const terms = sharedProfileTerms(profileText, documentText, weigh(profileText, documentText));
    expect(terms).not.toContain('mathsf');
    expect(terms).toContain('circuit complexity');
  });

  it('names Chinese terms as whole runs both texts contain', () => {
    const chineseProfile = '我的研究方向是图神经网络与蛋白质结构预测，也关注药物发现。';
    const chineseDocument = '基于图神经网络的蛋白质结构预测方法研究';
    const chineseWeighting = idfOf([
      chineseDocument,
      chineseProfile,
      '量子纠错码的译码方法研究',
      '珊瑚礁白化的遥感监测',
    ]);
    const terms = sharedProfileTerms(chineseProfile, chineseDocument, chineseWeighting);
    expect([...terms].sort()).toEqual(['图神经网络', '蛋白质结构预测']);
    for (const term of terms) {
      expect(chineseProfile).toContain(term);
      expect(chineseDocument).toContain(term);
    }
    // '研究' is shared too, but says nothing.
    expect(sharedProfileTerms('研究方向：量子计算', '量子计算的研究进展', chineseWeighting)).toEqual(['量子计算']);
    // An English summary shares nothing with a Chinese title.
    expect(sharedProfileTerms(profile, chineseDocument, chineseWeighting)).toEqual([]);
  });

  it('gives each profile its own terms when profiles alternate (the last profile read is kept)', () => {
    const other = 'Coral reef monitoring with drones and underwater acoustic sensors.';
    const reef = 'Drones map coral reef bleaching; acoustic sensors count fish.';
    const first = sharedProfileTerms(profile, document, weighting, 5);
    const reefTerms = sharedProfileTerms(other, reef, weigh(other, reef));
    expect(reefTerms.length).toBeGreaterThan(0);
    expect(sharedProfileTerms(profile, document, weighting, 5)).toEqual(first);
    expect(sharedProfileTerms(other, document, weighting, 5)).toEqual([]);
    expect(sharedProfileTerms(other, reef, weigh(other, reef))).toEqual(reefTerms);
  });

  it('gives nothing for an empty profile, an empty document or a limit of 0', () => {
    expect(sharedProfileTerms('', document, weighting)).toEqual([]);
    expect(sharedProfileTerms('  \n ', document, weighting)).toEqual([]);
    expect(sharedProfileTerms(profile, '', weighting)).toEqual([]);
    expect(sharedProfileTerms(profile, document, weighting, 0)).toEqual([]);
  });
});

describe('term weighting', () => {
  it('idf over texts: rarer terms weigh more, unknown terms have no weight', () => {
    const weighting = idfOf(['graph learning', 'graph theory', 'protein folding']);
    expect(weighting.weight('protein')).toBeCloseTo(Math.log(4 / 2) + 1, 10);
    expect(weighting.weight('graph')).toBeCloseTo(Math.log(4 / 3) + 1, 10);
    expect(weighting.weight('graph learning')).toBeCloseTo(Math.log(4 / 2) + 1, 10);
    expect(weighting.weight('quantum')).toBeUndefined();
    expect(idfOf([]).weight('graph')).toBeUndefined();
  });

  it("a fitted vocabulary's idf, term by term", () => {
    const weighting = vocabularyWeighting({ terms: ['graph', 'protein'], idf: Float32Array.from([1.5, 3]) });
    expect(weighting.weight('protein')).toBe(3);
    expect(weighting.weight('graph')).toBe(1.5);
    expect(weighting.weight('quantum')).toBeUndefined();
  });
});

const DEV_SET = path.join(sharedFixturesDir(), 'eval/arxiv_cs_4class_balanced_800.csv');
const hasDevSet = fs.existsSync(DEV_SET);
if (!hasDevSet) console.warn(`skipping the shared-terms checks on real abstracts: ${DEV_SET} is absent`);

describe.runIf(hasDevSet)('shared terms of real arXiv abstracts and their nearest neighbours', () => {
  let documents: LabelledDocument[];
  let builtin: TermWeighting;
  /** 40 profiles across the four categories, each with its three nearest papers by the built-in embedder. */
  let pairs: { profile: number; neighbours: number[] }[];

  beforeAll(async () => {
    documents = await readLabelledCsv(DEV_SET);
    const texts = documents.map((document) => document.text);
    const state = await fitLsaModel(texts, { dimension: 32 });
    builtin = vocabularyWeighting(state.vocabulary);
    const vectors = await new LsaEmbeddingProvider(state).embed(texts);
    const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);
    pairs = Array.from({ length: 40 }, (_, k) => {
      const profile = k * 20;
      const query = vectors[profile] as number[];
      const neighbours = vectors
        .map((vector, index) => ({ index, similarity: cosine(query, vector) }))
        .filter(({ index }) => comparable(texts[index] as string) !== comparable(texts[profile] as string))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, 3)
        .map(({ index }) => index);
      return { profile, neighbours };
    });
  }, 60_000);

  it.each([
    ['the built-in model idf', () => builtin],
    ['idf over the candidates', undefined],
  ] as const)('names real shared terms with %s', (_, weightingOf) => {
    let withTerms = 0;
    let total = 0;
    for (const { profile, neighbours } of pairs) {
      const profileText = (documents[profile] as LabelledDocument).text;
      const weighting =
        weightingOf?.() ?? idfOf(neighbours.map((index) => (documents[index] as LabelledDocument).text));
      for (const index of neighbours) {
        const documentText = (documents[index] as LabelledDocument).text;
        const terms = sharedProfileTerms(profileText, documentText, weighting);
        expect(terms.length).toBeLessThanOrEqual(3);
        expectSharedByBoth(terms, profileText, documentText);
        expectNoContainedTerms(terms);
        total++;
        if (terms.length) withTerms++;
      }
    }
    // Nearest neighbours nearly always share a telling term.
    expect(withTerms / total).toBeGreaterThanOrEqual(0.9);
  });

  it('names what two papers on pseudorandomness in cryptography share', () => {
    const byTitle = (title: string) => documents.find((document) => document.title === title) as LabelledDocument;
    const terms = sharedProfileTerms(
      byTitle('Ideal Pseudorandom Codes').text,
      byTitle('Cloning Games, Black Holes and Cryptography').text,
      builtin,
    );
    expect(terms).toContain('pseudorandom');
    expect(terms).toContain('encryption');
  });
});

describe('shared research fields', () => {
  it('names the profile fields whose label words the document uses, in Chinese', () => {
    expect(
      sharedFields(
        ['chemistry', 'medicine', 'biology'],
        'Machine learning for computational chemistry and precision Medicine.',
      ),
    ).toEqual(['化学', '医学']);
    expect(sharedFields(['physics-astronomy', 'earth-sciences'], 'Radio astronomy and earth science data.')).toEqual([
      '物理与天文学',
      '地球科学',
    ]);
    expect(sharedFields(['computer-science'], 'Computer vision for science.')).toEqual([]);
  });

  it('matches whole words only, and never labels papers use in another sense', () => {
    expect(sharedFields(['chemistry'], 'High-throughput biochemistry assays.')).toEqual([]);
    expect(
      sharedFields(
        ['arts', 'literature', 'history', 'management', 'engineering-technology'],
        'State of the art results from the literature on the history of memory management and feature engineering.',
      ),
    ).toEqual([]);
    expect(sharedFields(['not-a-field', 'chemistry', 'chemistry'], 'Green chemistry.')).toEqual(['化学']);
  });
});
