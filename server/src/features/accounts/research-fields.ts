import { toResearchFieldId } from '@radar/shared';

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
