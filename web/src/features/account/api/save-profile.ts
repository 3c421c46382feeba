import { getProfileUpdateTarget, type ProfileUpdate } from '../utils/profile-update';
import { confirmResearchProfile } from './confirm-research-profile';
import { updateUser } from './update-user';

/** Saves a profile change through the call spec section 5 names for it (confirm or patch). */
export async function saveProfile(update: ProfileUpdate): Promise<void> {
  if (getProfileUpdateTarget(update) === 'confirm') await confirmResearchProfile(update);
  else await updateUser(update);
}
