import { describe, expect, it } from 'vitest';
import { CrossLingualTexts } from '../src/cross-lingual-texts';
import { draftEnglishDirection, englishSearchPhrases, glossChinese } from '../src/offline/chinese-gloss';
import { sharedTermsInAnyLanguage } from '../src/reasons';
import { idfOf } from '../src/reasons/term-weighting';

/**
 * One Chinese text path: a Chinese word reaches the same English in the profile draft, the embedding
 * text, every search and the reasons, and a profile keeps the Chinese text its draft came from.
 */

const BIOLOGIST_PAGE = `王静，生命科学学院研究员。
研究方向：肠道菌群与宿主免疫、炎症性肠病的发病机制、肠道干细胞再生。
课题组利用小鼠遗传模型和单细胞测序研究肠上皮修复。`;
const SUMMARY =
  'Research interests: gut microbiota, inflammatory bowel disease, intestinal stem cell, single-cell sequencing.';

describe('search: one glossary, every English a word is written as', () => {
  it('searches a curated term as each of its names', () => {
    const [word] = englishSearchPhrases('肠道菌群') ?? [];
    expect(word?.[0]).toBe(glossChinese('肠道菌群').terms[0]?.en);
    expect(word).toEqual(expect.arrayContaining(['gut microbiota', 'gut microbiome']));
  });

  it('searches a dictionary word as its near-synonyms (肠道: intestines or gut)', () => {
    const [word] = englishSearchPhrases('肠道') ?? [];
    expect(word).toEqual(expect.arrayContaining(['intestines', 'gut']));
  });

  it('keeps each word of a longer term as one group, all of which must match', () => {
    const words = englishSearchPhrases('肠道菌群代谢') ?? [];
    expect(words).toHaveLength(2);
    expect(words[1]).toContain('metabolism');
  });

  it('adds the British spelling of an American gloss', () => {
    const [word] = englishSearchPhrases('肿瘤') ?? [];
    expect(word).toEqual(expect.arrayContaining(['tumor', 'tumour']));
  });

  it('is null for a term with a word it cannot gloss, and for a term without Chinese', () => {
    expect(englishSearchPhrases('graph')).toBeNull();
  });

  it('searches a compound no dictionary has whole as the glossed pieces it is made of, all required', () => {
    // 膝 + 骨关节炎: the compound's pieces, each a word that must match.
    const knee = englishSearchPhrases('膝骨关节炎') ?? [];
    expect(knee).toHaveLength(2);
    expect(knee[0]).toContain('knee');
    expect(knee[1]).toContain('osteoarthritis');
  });

  it('leaves out a bound morpheme of the compound (制 in 甲醇制丙酮, written as "-to-" in English)', () => {
    const words = englishSearchPhrases('甲醇制丙酮') ?? [];
    expect(words).toHaveLength(2);
    // CC-CEDICT's "methanol CH3OH": the formula is not part of the phrase papers write.
    expect(words[0]).toContain('methanol');
    expect(words[1]).toContain('acetone');
  });

  it('is null when a piece of the compound has no gloss at all', () => {
    // 丂 is a character CC-CEDICT does not list.
    expect(englishSearchPhrases('膝骨丂炎')).toBeNull();
  });

  it('adds the plural English writes irregularly, for a search that takes words as prefixes', () => {
    const [word] = englishSearchPhrases('电池') ?? [];
    expect(word).toEqual(expect.arrayContaining(['battery', 'batteries']));
    const [adverb] = englishSearchPhrases('经常') ?? [];
    expect(adverb?.some((phrase) => phrase.endsWith('lies'))).toBe(false);
  });
});

describe('reasons: what a Chinese item shares with an English summary', () => {
  const weighting = idfOf([SUMMARY]);

  it('names the shared terms in Chinese and English', () => {
    const terms = sharedTermsInAnyLanguage(
      SUMMARY,
      '炎症性肠病治疗研究取得新进展。研究揭示肠道菌群的作用。',
      weighting,
    );
    expect(terms).toEqual(
      expect.arrayContaining(['炎症性肠病（inflammatory bowel disease）', '肠道菌群（gut microbiota）']),
    );
  });

  it('names nothing when only a word of another sense is shared (solar cell and stem cell)', () => {
    expect(sharedTermsInAnyLanguage(SUMMARY, '新型钙钛矿太阳能电池效率创纪录', weighting)).toEqual([]);
  });

  it('names an interest typed in Chinese by the words an English paper contains', () => {
    const terms = sharedTermsInAnyLanguage(
      '肠道菌群与免疫',
      'The gut microbiota shapes mucosal immunity in mice.',
      idfOf(['The gut microbiota shapes mucosal immunity in mice.']),
    );
    expect(terms[0]).toBe('肠道菌群（gut microbiota）');
  });
});

describe('a profile keeps the Chinese text its summary was drafted from', () => {
  const texts = new CrossLingualTexts({ multilingual: false });

  it('embeds the draft with the glossed research content of the pasted page', () => {
    const draft = draftEnglishDirection(BIOLOGIST_PAGE);
    expect(draft).not.toBeNull();
    const text = texts.profile(draft?.summary ?? '', BIOLOGIST_PAGE);
    expect(text.startsWith(draft?.summary ?? '')).toBe(true);
    expect(text.length).toBeGreaterThan((draft?.summary ?? '').length);
    expect(text).toContain('inflammatory bowel disease');
    // The page's biography and institution are not research content.
    expect(text).not.toMatch(/researcher|school of life sciences/i);
  });

  it('embeds a summary rewritten for another direction alone', () => {
    expect(texts.profile('Research interests: galaxy formation, dark matter halos.', BIOLOGIST_PAGE)).toBe(
      'Research interests: galaxy formation, dark matter halos.',
    );
  });

  it('embeds no profile without a summary, whatever was pasted', () => {
    expect(texts.profile('', BIOLOGIST_PAGE)).toBe('');
  });

  it('keeps the page as written beside the summary for a multilingual endpoint', () => {
    const multilingual = new CrossLingualTexts({ multilingual: true });
    expect(multilingual.profile(SUMMARY, BIOLOGIST_PAGE)).toBe(`${SUMMARY}\n${BIOLOGIST_PAGE.trim()}`);
  });
});
