import { RESEARCH_FIELDS, type ResearchFieldId } from '@radar/shared';
import { stemWord } from '../builtin/text-features';

/**
 * Research fields of the profile that a document names, shown beside the shared terms. Only the
 * English label words count, as whole words ("chemistry", "earth sciences"; a label "A & B" by either
 * part). Fields whose label words papers mostly use in another sense are never matched: "the
 * literature", "history of", "memory management", "state of the art", "feature engineering",
 * "technology", "multidisciplinary".
 */
const AMBIGUOUS_FIELDS = new Set<ResearchFieldId>([
  'literature',
  'history',
  'management',
  'arts',
  'engineering-technology',
  'multidisciplinary',
]);

const stemmedWords = (text: string) => (text.toLowerCase().match(/[a-z]+/g) ?? []).map(stemWord);

/** Each field's label parts as stem sequences: 'Physics & Astronomy' -> [['physic'], ['astronomy']]. */
const FIELD_PHRASES = new Map<string, { labelZh: string; phrases: string[] }>(
  RESEARCH_FIELDS.filter((field) => !AMBIGUOUS_FIELDS.has(field.id)).map((field) => [
    field.id,
    {
      labelZh: field.labelZh,
      phrases: field.label.split('&').map((part) => ` ${stemmedWords(part).join(' ')} `),
    },
  ]),
);

/** The Chinese labels of the fields among `fieldIds` (in that order) that the document names. */
export function sharedFields(fieldIds: string[], documentText: string): string[] {
  const words = ` ${stemmedWords(documentText).join(' ')} `;
  const labels: string[] = [];
  for (const id of fieldIds) {
    const field = FIELD_PHRASES.get(id);
    if (!field || labels.includes(field.labelZh)) continue;
    if (field.phrases.some((phrase) => words.includes(phrase))) labels.push(field.labelZh);
  }
  return labels;
}
