import { describe, expect, it } from 'vitest';
import {
  type AnalysisResult,
  buildProfileFromAnalysis,
  readAnalysisResult,
  replaceAtForm,
  reportAnalysis,
  withoutDraftSummary,
} from './ai-profile';

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

describe('buildProfileFromAnalysis', () => {
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
    expect(readAnalysisResult(payload)).toEqual({ ...RESULT, source: 'offline' });
    expect(readAnalysisResult({ result: payload })).toEqual({ ...RESULT, source: 'offline' });
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

describe('an analysis that produced no summary or no field (issue 18)', () => {
  const historian = {
    name: '陈思远',
    email: 'chensiyuan@fudan.edu.cn',
    institution: '复旦大学历史学系',
    position: '教授、博士生导师',
    research_fields: [],
    research_summary_en: '',
    source: 'offline' as const,
  };

  it('leaves an empty summary and empty fields out of the confirm call, so the stored ones are kept', () => {
    const profile = buildProfileFromAnalysis(historian, 'chensiyuan@fudan.edu.cn');
    expect(profile).toEqual({
      research_name: '陈思远',
      research_email: 'chensiyuan@fudan.edu.cn',
      research_institution: '复旦大学历史学系',
      research_position: '教授、博士生导师',
    });
  });

  it('reports what was and was not produced, and why a personal value was not saved', () => {
    const label = (id: string) => (id === 'history' ? '历史学' : id);
    expect(reportAnalysis({ ...historian, research_fields: ['history'] }, 'student@fudan.edu.cn', label)).toEqual([
      { key: 'summary', value: null, reason: 'not-found' },
      { key: 'fields', value: '历史学', reason: null },
      { key: 'name', value: null, reason: 'not-own-page' },
      { key: 'position', value: null, reason: 'not-own-page' },
      { key: 'institution', value: null, reason: 'not-own-page' },
    ]);
    expect(reportAnalysis({ ...historian, position: '' }, 'chensiyuan@fudan.edu.cn', label)).toEqual([
      { key: 'summary', value: null, reason: 'not-found' },
      { key: 'fields', value: null, reason: 'not-found' },
      { key: 'name', value: '陈思远', reason: null },
      { key: 'position', value: null, reason: 'not-found' },
      { key: 'institution', value: '复旦大学历史学系', reason: null },
    ]);
  });

  it("reads the result's source when the server gives one, and works without it", () => {
    expect(readAnalysisResult({ ...historian, name: 'x' })?.source).toBe('offline');
    expect(readAnalysisResult({ name: 'x', source: 'something-else' })?.source).toBeUndefined();
  });
});

describe('a glossed English draft (research_direction_origin, issue 20)', () => {
  const draft = { ...RESULT, research_summary_en: 'Research interests: graph neural network.' };

  it('reads the marker only as the one known value, and only with a summary', () => {
    expect(
      readAnalysisResult({ ...draft, research_direction_origin: 'offline-gloss' })?.research_direction_origin,
    ).toBe('offline-gloss');
    expect(readAnalysisResult({ ...draft, research_direction_origin: 'something-else' })).not.toHaveProperty(
      'research_direction_origin',
    );
    expect(
      readAnalysisResult({ ...draft, research_summary_en: '', research_direction_origin: 'offline-gloss' }),
    ).not.toHaveProperty('research_direction_origin');
  });

  it('leaves the draft out of what is saved at once and reports it as waiting for a check', () => {
    const result: AnalysisResult = { ...draft, research_direction_origin: 'offline-gloss' };
    expect(withoutDraftSummary(result).research_summary_en).toBe('');
    expect(buildProfileFromAnalysis(withoutDraftSummary(result), 'x@y.z')).not.toHaveProperty('research_summary_en');
    expect(reportAnalysis(result, 'x@y.z', (id) => id)[0]).toEqual({ key: 'summary', value: null, reason: 'draft' });
    // Without the marker (a spec-only backend) the summary is an ordinary one, saved at once.
    expect(withoutDraftSummary(draft)).toBe(draft);
  });
});
