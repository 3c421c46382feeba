import { describe, expect, it } from 'vitest';
import { unmatchedChineseLast } from '../src/cross-language';

/**
 * Chinese items against an English summary through glosses: an item sharing no whole glossary term with
 * the summary (a solar cell against a biologist's stem cells) goes after those that share one.
 */

const SUMMARY = 'Research interests: stem cell differentiation, single-cell sequencing, cell fate.';
const ITEMS = [
  { id: 1, text: '新型钙钛矿太阳能电池效率创纪录' },
  { id: 2, text: 'Solar cells reach a new efficiency record' },
  { id: 3, text: '干细胞分化研究取得新进展：单细胞测序揭示细胞命运' },
  { id: 4, text: '经济学院发布通货膨胀研究报告' },
  { id: 5, text: 'Stem cell differentiation mapped by single-cell sequencing' },
];

describe('unmatchedChineseLast', () => {
  it('moves Chinese items without a shared term after the rest, keeping both groups in order', () => {
    const order = unmatchedChineseLast(ITEMS, (item) => item.text, SUMMARY, { multilingual: false });
    expect(order.map((item) => item.id)).toEqual([2, 3, 5, 1, 4]);
  });

  it('keeps every place with a multilingual endpoint or a Chinese summary, and for items without text', () => {
    const ids = ITEMS.map((item) => item.id);
    expect(
      unmatchedChineseLast(ITEMS, (item) => item.text, SUMMARY, { multilingual: true }).map((item) => item.id),
    ).toEqual(ids);
    expect(
      unmatchedChineseLast(ITEMS, (item) => item.text, '干细胞分化与单细胞测序', { multilingual: false }).map(
        (item) => item.id,
      ),
    ).toEqual(ids);
    expect(
      unmatchedChineseLast(ITEMS, () => undefined, SUMMARY, { multilingual: false }).map((item) => item.id),
    ).toEqual(ids);
  });
});
