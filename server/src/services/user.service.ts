import type { UserRepository, UserRow } from '@radar/db';
import { type ResearchFieldId, toResearchFieldId, type UserUpdate } from '@radar/shared';
import { errors } from '../errors';

/** Splits the web app's comma-separated form (or a list) into trimmed, non-empty names. */
export function splitResearchFields(value: string | string[]): string[] {
  const parts = Array.isArray(value) ? value : value.split(/[,，]/);
  return parts.map((part) => part.trim()).filter(Boolean);
}

export class UserService {
  constructor(private readonly users: UserRepository) {}

  /** Applies a profile patch. Research fields must all be known here; unknown ones are a 400. */
  async updateProfile(user: UserRow, update: UserUpdate): Promise<UserRow> {
    let researchFields: ResearchFieldId[] | undefined;
    if (update.research_fields !== undefined) {
      const names = splitResearchFields(update.research_fields);
      const unknown = names.filter((name) => !toResearchFieldId(name));
      if (unknown.length) {
        throw errors.validation(`未知的研究领域：${unknown.join('、')}`, { research_fields: unknown });
      }
      researchFields = [...new Set(names.map((name) => toResearchFieldId(name) as ResearchFieldId))];
    }
    const changes = {
      username: update.username,
      researchDescription: update.research_description,
      researchName: update.research_name,
      researchEmail: update.research_email,
      researchInstitution: update.research_institution,
      researchPosition: update.research_position,
      researchSummaryEn: update.research_summary_en,
      ...(researchFields ? { researchFields, researchFieldsUnmapped: [] } : {}),
    };
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    if (Object.keys(defined).length === 0) return user;
    const updated = await this.users.update(user.id, defined);
    if (!updated) throw errors.notFound();
    return updated;
  }
}
