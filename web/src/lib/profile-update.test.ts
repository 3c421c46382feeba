import { describe, expect, it } from 'vitest';
import { getProfileUpdateTarget, RESEARCH_CONFIRM_FIELDS } from './profile-update';

describe('getProfileUpdateTarget', () => {
  it.each(RESEARCH_CONFIRM_FIELDS)('an update with %s goes to the confirm call', (field) => {
    expect(getProfileUpdateTarget({ [field]: '' })).toBe('confirm');
    expect(getProfileUpdateTarget({ username: 'li', research_description: 'text', [field]: 'x' })).toBe('confirm');
  });

  it('other updates go to the patch on the user', () => {
    expect(getProfileUpdateTarget({ username: 'li' })).toBe('patch');
    expect(getProfileUpdateTarget({ research_description: 'pasted homepage text' })).toBe('patch');
    expect(getProfileUpdateTarget({})).toBe('patch');
  });

  it('a field present but undefined does not count', () => {
    expect(getProfileUpdateTarget({ research_name: undefined, username: 'li' })).toBe('patch');
  });
});
