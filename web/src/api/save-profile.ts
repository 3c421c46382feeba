import { getProfileUpdateTarget, type ProfileUpdate } from '@/lib/profile-update';
import { confirmResearchProfile } from './confirm-research-profile';
import { updateUser } from './update-user';

/** Saves a profile change through the call that takes it (confirm or patch: getProfileUpdateTarget). */
export async function saveProfile(update: ProfileUpdate): Promise<void> {
  if (getProfileUpdateTarget(update) === 'confirm') await confirmResearchProfile(update);
  else await updateUser(update);
}
