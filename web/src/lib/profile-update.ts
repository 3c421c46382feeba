import type { ResearchConfirmRequest, UserUpdate } from '@radar/shared';

/** A change to the profile, as the account page and the AI dialog make it. */
export type ProfileUpdate = ResearchConfirmRequest & Pick<UserUpdate, 'username' | 'research_description'>;

/** Fields only the confirm call saves (it also recomputes the profile vector). */
export const RESEARCH_CONFIRM_FIELDS = [
  'research_name',
  'research_email',
  'research_institution',
  'research_position',
  'research_fields',
  'research_summary_en',
] as const satisfies readonly (keyof ResearchConfirmRequest)[];

export type ProfileUpdateTarget = 'confirm' | 'patch';

/**
 * An update containing any research-profile field goes to
 * POST /api/auth/research-direction/confirm/, any other update to PATCH /api/auth/user/.
 */
export function getProfileUpdateTarget(update: ProfileUpdate): ProfileUpdateTarget {
  return RESEARCH_CONFIRM_FIELDS.some((field) => update[field] !== undefined) ? 'confirm' : 'patch';
}
