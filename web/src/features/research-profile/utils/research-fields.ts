import { RESEARCH_FIELDS, type ResearchFieldId, toResearchFieldId, type UserResponse } from '@radar/shared';

export type StoredResearchFields = {
  /** Known fields, in the order of the 21 fields. */
  ids: ResearchFieldId[];
  /** Names that are not among the 21 fields, kept as given. */
  unknown: string[];
};

const LABEL_BY_ID = new Map<string, string>(RESEARCH_FIELDS.map((field) => [field.id, field.labelZh]));

/**
 * Reads the profile's comma-separated `research_fields` (ids, or English or Chinese labels from older
 * clients) into the 21 field ids plus the names that are not among them.
 */
export function parseStoredResearchFields(value: string): StoredResearchFields {
  const found = new Set<ResearchFieldId>();
  const unknown: string[] = [];
  for (const part of value.split(/[,，]/)) {
    const name = part.trim();
    if (!name) continue;
    const id = toResearchFieldId(name);
    if (id) found.add(id);
    else if (!unknown.some((kept) => kept.toLowerCase() === name.toLowerCase())) unknown.push(name);
  }
  return { ids: sortFieldIds([...found]), unknown };
}

/** The 21 fields' order, so a selection reads the same however it was ticked. */
export function sortFieldIds(ids: readonly string[]): ResearchFieldId[] {
  return RESEARCH_FIELDS.map((field) => field.id).filter((id) => ids.includes(id));
}

/** Ticks or unticks one field. */
export function toggleFieldId(ids: readonly string[], id: ResearchFieldId): ResearchFieldId[] {
  return sortFieldIds(ids.includes(id) ? ids.filter((item) => item !== id) : [...ids, id]);
}

/** The chip text of a stored field: the Chinese label of a known id, an unknown name as given. */
export function researchFieldLabel(idOrName: string): string {
  return LABEL_BY_ID.get(idOrName) ?? idOrName;
}

/** Whether the profile has research info: an English research direction or at least one field. */
export function hasResearchProfile(user: Pick<UserResponse, 'research_summary_en' | 'research_fields'>): boolean {
  return user.research_summary_en.trim() !== '' || user.research_fields.split(/[,，]/).some((part) => part.trim());
}
