import { describe, expect, it } from 'vitest';
import { type AnalysisResult, buildProfileFromAnalysis, readAnalysisResult, replaceAtForm } from './ai-profile';

const RESULT: AnalysisResult = {
  name: 'Jane M. Okafor',
  email: 'jokafor (at) cs.stanford.edu',
  institution: 'Stanford University',
  position: 'Associate Professor',
  research_fields: ['computer-science', 'mathematics'],
  research_summary_en: 'Trustworthy machine learning under distribution shift.',
};

describe('replaceAtForm', () => {
  it.each([
    ['jokafor (at) cs.stanford.edu', 'jokafor@cs.stanford.edu'],
    ['jokafor(AT)cs.stanford.edu', 'jokafor@cs.stanford.edu'],
    ['jokafor ( at ) cs.stanford.edu', 'jokafor@cs.stanford.edu'],
    ['jokafor@cs.stanford.edu', 'jokafor@cs.stanford.edu'],
    ['', ''],
  ])('%j -> %j', (input, expected) => {
    expect(replaceAtForm(input)).toBe(expected);
  });
});

describe('buildProfileFromAnalysis (spec section 5)', () => {
  it("keeps name, institution and position when the extracted e-mail is the account's (any case)", () => {
    expect(buildProfileFromAnalysis(RESULT, 'JOkafor@CS.Stanford.edu')).toEqual({
      research_name: 'Jane M. Okafor',
      research_email: 'jokafor@cs.stanford.edu',
      research_institution: 'Stanford University',
      research_position: 'Associate Professor',
      research_fields: ['computer-science', 'mathematics'],
      research_summary_en: 'Trustworthy machine learning under distribution shift.',
    });
  });

  it("clears those three when the page is someone else's, and still saves e-mail, fields and summary", () => {
    expect(buildProfileFromAnalysis(RESULT, 'student@stanford.edu')).toEqual({
      research_name: '',
      research_email: 'jokafor@cs.stanford.edu',
      research_institution: '',
      research_position: '',
      research_fields: ['computer-science', 'mathematics'],
      research_summary_en: 'Trustworthy machine learning under distribution shift.',
    });
  });

  it('clears them when no e-mail was found', () => {
    const profile = buildProfileFromAnalysis({ ...RESULT, email: '' }, 'jokafor@cs.stanford.edu');
    expect(profile).toMatchObject({ research_name: '', research_institution: '', research_position: '' });
    expect(profile.research_email).toBe('');
  });
});

describe('readAnalysisResult', () => {
  const payload = { ...RESULT, source: 'offline', model: 'offline-rules', notices: [] };

  it('reads result_data directly or nested under result', () => {
    expect(readAnalysisResult(payload)).toEqual(RESULT);
    expect(readAnalysisResult({ result: payload })).toEqual(RESULT);
  });

  it('trims values and accepts comma-separated fields', () => {
    expect(
      readAnalysisResult({ research_summary_en: ' Ecology. ', research_fields: 'biology, ,earth-sciences' }),
    ).toEqual({
      name: '',
      email: '',
      institution: '',
      position: '',
      research_fields: ['biology', 'earth-sciences'],
      research_summary_en: 'Ecology.',
    });
  });

  it.each([
    ['null', null],
    ['a string', 'done'],
    ['an empty object', {}],
    ['all values empty', { name: ' ', email: '', research_fields: [], research_summary_en: '' }],
    ['an empty nested result', { result: { research_fields: [] } }],
  ])('is null (empty) for %s', (_label, value) => {
    expect(readAnalysisResult(value)).toBeNull();
  });
});
