import type { UserRow } from '@radar/db';
import type { UserResponse } from '@radar/shared';

/** The User of the data model, as every endpoint returns it. */
export function presentUser(user: UserRow): UserResponse {
  const username = user.username;
  return {
    id: user.id,
    email: user.email,
    username,
    name: username || user.email.split('@')[0] || user.email,
    research_description: user.researchDescription,
    research_name: user.researchName,
    research_email: user.researchEmail,
    research_institution: user.researchInstitution,
    research_position: user.researchPosition,
    research_fields: [...user.researchFields, ...user.researchFieldsUnmapped].join(','),
    research_summary_en: user.researchSummaryEn,
  };
}
