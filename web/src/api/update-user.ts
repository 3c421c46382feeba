import { API_PATHS, type UserResponse, type UserUpdate } from '@radar/shared';
import { api } from '@/lib/api-client';

/** PATCH /api/auth/user/: profile fields other than the research profile (username, research description). */
export function updateUser(body: UserUpdate): Promise<UserResponse> {
  return api.patch<UserResponse>(API_PATHS.user, body);
}
