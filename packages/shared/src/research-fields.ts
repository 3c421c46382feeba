/**
 * The 21 research fields of the product. The id is the contract value stored in
 * `users.research_fields` and sent by the web app; `label` is the English label the AI and older
 * clients may send instead (mapped back to the id on save); `labelZh` is what the UI shows.
 */
export const RESEARCH_FIELDS = [
  { id: 'materials-science', label: 'Materials Science', labelZh: '材料科学' },
  { id: 'biology', label: 'Biology', labelZh: '生物学' },
  { id: 'engineering-technology', label: 'Engineering & Technology', labelZh: '工程技术' },
  { id: 'management', label: 'Management', labelZh: '管理学' },
  { id: 'earth-sciences', label: 'Earth Sciences', labelZh: '地球科学' },
  { id: 'medicine', label: 'Medicine', labelZh: '医学' },
  { id: 'mathematics', label: 'Mathematics', labelZh: '数学' },
  { id: 'education', label: 'Education', labelZh: '教育学' },
  { id: 'agricultural-forestry', label: 'Agricultural & Forestry', labelZh: '农林科学' },
  { id: 'philosophy', label: 'Philosophy', labelZh: '哲学' },
  { id: 'chemistry', label: 'Chemistry', labelZh: '化学' },
  { id: 'computer-science', label: 'Computer Science', labelZh: '计算机科学' },
  { id: 'physics-astronomy', label: 'Physics & Astronomy', labelZh: '物理与天文学' },
  { id: 'environmental-ecology', label: 'Environmental & Ecology', labelZh: '环境与生态学' },
  { id: 'multidisciplinary', label: 'Multidisciplinary', labelZh: '多学科交叉' },
  { id: 'psychology', label: 'Psychology', labelZh: '心理学' },
  { id: 'economics', label: 'Economics', labelZh: '经济学' },
  { id: 'sociology', label: 'Sociology', labelZh: '社会学' },
  { id: 'arts', label: 'Arts', labelZh: '艺术学' },
  { id: 'history', label: 'History', labelZh: '历史学' },
  { id: 'literature', label: 'Literature', labelZh: '文学' },
] as const;

export type ResearchFieldId = (typeof RESEARCH_FIELDS)[number]['id'];

export const RESEARCH_FIELD_IDS: readonly ResearchFieldId[] = RESEARCH_FIELDS.map((field) => field.id);

export function isResearchFieldId(value: string): value is ResearchFieldId {
  return (RESEARCH_FIELD_IDS as readonly string[]).includes(value);
}

const normalise = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9\u4e00-\u9fff]+/g, ' ')
    .trim();

const FIELD_BY_NORMALISED_NAME = new Map<string, ResearchFieldId>(
  RESEARCH_FIELDS.flatMap((field) => [
    [normalise(field.id), field.id],
    [normalise(field.label), field.id],
    [normalise(field.labelZh), field.id],
  ]),
);

/**
 * Maps an id, English label or Chinese label to a field id, so research-field text reaches the database
 * as ids. Returns undefined for unknown text, which callers keep as is.
 */
export function toResearchFieldId(text: string): ResearchFieldId | undefined {
  return FIELD_BY_NORMALISED_NAME.get(normalise(text));
}

/** Splits the web app's comma-separated form (or a list) into trimmed, non-empty names. */
function splitResearchFields(value: string | string[]): string[] {
  const parts = Array.isArray(value) ? value : value.split(/[,，]/);
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** Maps field names to ids; names that are not among the 21 fields are kept as given. */
export function mapResearchFields(value: string | string[]): { ids: string[]; unmapped: string[] } {
  const ids: string[] = [];
  const unmapped: string[] = [];
  for (const name of splitResearchFields(value)) {
    const id = toResearchFieldId(name);
    if (id) {
      if (!ids.includes(id)) ids.push(id);
    } else if (!unmapped.some((kept) => kept.toLowerCase() === name.toLowerCase())) {
      unmapped.push(name);
    }
  }
  return { ids, unmapped };
}
