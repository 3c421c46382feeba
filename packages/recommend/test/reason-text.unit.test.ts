import { recommendationReasonSchema } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import { explainRecommendation, MAX_REASON_CHARS } from '../src/reason-text';

/** The Chinese sentence of a reason, from what drove the recommendation (moved from packages/ai). */

describe('the reason sentence', () => {
  const parse = (reason: ReturnType<typeof explainRecommendation>) => {
    expect(recommendationReasonSchema.parse(reason)).toEqual(reason);
    expect(reason.text.length).toBeLessThanOrEqual(MAX_REASON_CHARS);
    for (const term of reason.terms) expect(reason.text).toContain(term.length > 30 ? term.slice(0, 30) : term);
    return reason;
  };

  it('saved: names the saved paper, its title cut at 40 characters', () => {
    expect(
      parse(explainRecommendation({ driver: 'saved', terms: ['x'], savedTitle: 'Protein folding\n with diffusion' })),
    ).toEqual({
      kind: 'saved',
      text: '与你收藏的《Protein folding with diffusion》相似',
      terms: [],
    });
    const long = 'A very long title about graph neural networks for molecular property prediction';
    expect(parse(explainRecommendation({ driver: 'saved', terms: [], savedTitle: long })).text).toBe(
      `与你收藏的《${long.slice(0, 40)}…》相似`,
    );
  });

  it('saved: names what the reader did with the liked paper (收藏, 稍后读, 👍, own work, read)', () => {
    const text = (savedSignal: 'favorite' | 'saved' | 'rated' | 'authored' | 'read') =>
      parse(explainRecommendation({ driver: 'saved', terms: [], savedTitle: 'T', savedSignal })).text;
    expect(text('favorite')).toBe('与你收藏的《T》相似');
    expect(text('saved')).toBe('与你稍后读的《T》相似');
    expect(text('rated')).toBe('与你点赞的《T》相似');
    expect(text('authored')).toBe('与你的作品《T》相似');
    expect(text('read')).toBe('与你读过的《T》相似');
  });

  it('keyword: names the keyword, then the shared terms; the keyword is not named twice', () => {
    expect(
      parse(
        explainRecommendation({
          driver: 'keyword',
          keyword: 'graph neural network',
          terms: ['Graph Neural Network', 'message passing', 'drug discovery'],
        }),
      ),
    ).toEqual({
      kind: 'keyword',
      text: '匹配你的关键词「graph neural network」；与研究方向共有：message passing、drug discovery',
      terms: ['graph neural network', 'message passing', 'drug discovery'],
    });
    expect(parse(explainRecommendation({ driver: 'keyword', keyword: '图神经网络', terms: [] }))).toEqual({
      kind: 'keyword',
      text: '匹配你的关键词「图神经网络」',
      terms: ['图神经网络'],
    });
  });

  it('terms: names the shared terms and fields, as many as fit', () => {
    expect(
      parse(
        explainRecommendation({ driver: 'terms', terms: ['protein', 'diffusion models', 'protein'], fields: ['化学'] }),
      ),
    ).toEqual({
      kind: 'terms',
      text: '与你的研究方向共有：protein、diffusion models；同属领域：化学',
      terms: ['protein', 'diffusion models'],
    });
    const many = Array.from({ length: 8 }, (_, i) => `a rather long shared phrase ${i}`);
    const reason = parse(explainRecommendation({ driver: 'terms', terms: many }));
    expect(reason.terms).toEqual(many.slice(0, reason.terms.length));
    expect(reason.terms.length).toBeGreaterThanOrEqual(1);
    expect(reason.terms.length).toBeLessThan(many.length);
    expect(parse(explainRecommendation({ driver: 'terms', terms: [], fields: ['医学'] }))).toEqual({
      kind: 'terms',
      text: '与你的研究领域相同：医学',
      terms: [],
    });
  });

  it('profile, and every driver without its detail, falls back to what is known', () => {
    const profile = { kind: 'profile', text: '与你的研究方向整体相近', terms: [] };
    expect(parse(explainRecommendation({ driver: 'profile', terms: ['ignored'] }))).toEqual(profile);
    expect(parse(explainRecommendation({ driver: 'terms', terms: [] }))).toEqual(profile);
    expect(parse(explainRecommendation({ driver: 'saved', terms: [], savedTitle: ' ' }))).toEqual(profile);
    expect(parse(explainRecommendation({ driver: 'keyword', terms: ['protein'] }))).toEqual({
      kind: 'terms',
      text: '与你的研究方向共有：protein',
      terms: ['protein'],
    });
  });

  it('interest: names the other interest the card was drawn for, then the terms it shares with it', () => {
    expect(
      parse(explainRecommendation({ driver: 'interest', terms: ['coral', 'reef'], interestName: '珊瑚礁' })),
    ).toEqual({
      kind: 'interest',
      text: '来自你的研究兴趣「珊瑚礁」；共有：coral、reef',
      terms: ['coral', 'reef'],
    });
    expect(parse(explainRecommendation({ driver: 'interest', terms: [], interestName: '收藏的珊瑚' })).text).toBe(
      '来自你的研究兴趣「收藏的珊瑚」',
    );
  });
});
