import { RESEARCH_FIELDS } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import { RESEARCH_STRINGS } from '../strings';
import {
  hasResearchProfile,
  parseStoredResearchFields,
  researchFieldLabel,
  sortFieldIds,
  toggleFieldId,
} from './research-fields';

describe('parseStoredResearchFields', () => {
  it('reads ids, English and Chinese labels into ids in the order of the 21 fields', () => {
    expect(parseStoredResearchFields('computer-science, Materials Science，生物学')).toEqual({
      ids: ['materials-science', 'biology', 'computer-science'],
      unknown: [],
    });
  });

  it('keeps names outside the 21 fields as given, once, and drops empty parts and duplicates', () => {
    expect(parseStoredResearchFields('chemistry,,Quantum Widgets, chemistry ,quantum widgets')).toEqual({
      ids: ['chemistry'],
      unknown: ['Quantum Widgets'],
    });
  });

  it('reads an empty profile as no fields', () => {
    expect(parseStoredResearchFields('')).toEqual({ ids: [], unknown: [] });
    expect(parseStoredResearchFields(' , ')).toEqual({ ids: [], unknown: [] });
  });
});

describe('field selection and its counter', () => {
  it('ticks and unticks one field, keeping the order of the 21 fields', () => {
    const ticked = toggleFieldId(['physics-astronomy'], 'biology');
    expect(ticked).toEqual(['biology', 'physics-astronomy']);
    expect(toggleFieldId(ticked, 'physics-astronomy')).toEqual(['biology']);
    expect(toggleFieldId([], 'literature')).toEqual(['literature']);
  });

  it('can select all 21 fields and counts them', () => {
    const all = RESEARCH_FIELDS.reduce<string[]>((ids, field) => toggleFieldId(ids, field.id), []);
    expect(all).toHaveLength(21);
    expect(RESEARCH_STRINGS.research.selectedCount(all.length)).toBe('已选择 21 个领域');
    expect(RESEARCH_STRINGS.research.selectedCount(0)).toBe('已选择 0 个领域');
  });

  it('sortFieldIds drops anything that is not a field id', () => {
    expect(sortFieldIds(['history', 'Quantum Widgets', 'arts'])).toEqual(['arts', 'history']);
  });
});

describe('researchFieldLabel', () => {
  it('shows known ids in Chinese and unknown names as given', () => {
    expect(researchFieldLabel('computer-science')).toBe('计算机科学');
    expect(researchFieldLabel('Quantum Widgets')).toBe('Quantum Widgets');
  });
});

describe('hasResearchProfile', () => {
  it('is true with an English research direction or with fields, false with neither', () => {
    expect(hasResearchProfile({ research_summary_en: 'Robust learning.', research_fields: '' })).toBe(true);
    expect(hasResearchProfile({ research_summary_en: '', research_fields: 'biology' })).toBe(true);
    expect(hasResearchProfile({ research_summary_en: '  \n', research_fields: ' , ' })).toBe(false);
  });
});
