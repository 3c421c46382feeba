import type { UserRepository, UserRow } from '@radar/db';
import { mapResearchFields, type UserUpdate } from '@radar/shared';
import { errors } from '../../errors';
import type { SourceActivationRequests } from '../../services/source-activation';

export class UserService {
  constructor(
    private readonly users: UserRepository,
    /** Asked after a save that names research fields, so the fields' content sources start now. */
    private readonly sources?: SourceActivationRequests,
    /**
     * Asked after a save that changes what the profile vector is made from (the research summary, or
     * the pasted text it was drafted from), so the next recommendation ranks by the new text.
     */
    private readonly profileVector?: { refreshAfterSave(user: UserRow): Promise<boolean> },
  ) {}

  /** Applies a profile patch. Research fields must all be known here; unknown ones are a 400. */
  async updateProfile(user: UserRow, update: UserUpdate): Promise<UserRow> {
    let researchFields: string[] | undefined;
    if (update.research_fields !== undefined) {
      const { ids, unmapped } = mapResearchFields(update.research_fields);
      if (unmapped.length) {
        throw errors.validation(`未知的研究领域：${unmapped.join('、')}`, { research_fields: unmapped });
      }
      researchFields = ids;
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
    if (researchFields) await this.sources?.afterProfileSaved(researchFields);
    const profileTextChanged =
      (update.research_summary_en !== undefined && update.research_summary_en !== user.researchSummaryEn) ||
      (update.research_description !== undefined && update.research_description !== user.researchDescription);
    if (profileTextChanged) await this.profileVector?.refreshAfterSave(updated);
    return updated;
  }
}
