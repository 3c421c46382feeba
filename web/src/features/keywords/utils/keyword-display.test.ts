import { describe, expect, it } from 'vitest';
import { describeAlert, unfollowedSuggestions } from './keyword-display';

describe('describeAlert', () => {
  it('names the frequency when alerts are on, and says they are off otherwise', () => {
    expect(describeAlert({ alert_enabled: true, alert_frequency: 'daily' })).toBe('每天提醒');
    expect(describeAlert({ alert_enabled: true, alert_frequency: 'weekly' })).toBe('每周提醒');
    expect(describeAlert({ alert_enabled: false, alert_frequency: 'weekly' })).toBe('提醒已关闭');
  });
});

describe('unfollowedSuggestions', () => {
  const suggestion = (name: string) => ({ name, score: 1, source: 'similar_papers' as const });

  it('leaves out suggestions the user follows, ignoring case and spaces, in their order', () => {
    const suggestions = [suggestion('Graph Neural Network'), suggestion('分子'), suggestion('protein')];
    expect(unfollowedSuggestions(suggestions, [{ name: ' graph neural network' }])).toEqual([
      suggestion('分子'),
      suggestion('protein'),
    ]);
    expect(unfollowedSuggestions(suggestions, [])).toEqual(suggestions);
  });
});
