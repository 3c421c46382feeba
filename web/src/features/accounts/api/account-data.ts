import { API_PATHS, type EmailChangeStartedResponse, type UserResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** GET /api/auth/user/export/: everything stored for the signed-in user, as one JSON document. */
export function exportMyData(): Promise<unknown> {
  return api.get<unknown>(API_PATHS.exportUserData);
}

/** POST /api/auth/user/delete/: deletes the account and its data once the password matches. */
export function deleteMyAccount(password: string): Promise<{ message: string }> {
  return api.post<{ message: string }>(API_PATHS.deleteUser, { password });
}

/** POST /api/auth/user/email/: checks the password and mails a code to the new address. */
export function startEmailChange(newEmail: string, password: string): Promise<EmailChangeStartedResponse> {
  return api.post<EmailChangeStartedResponse>(API_PATHS.changeEmail, { new_email: newEmail, password });
}

/** POST /api/auth/user/email/confirm/: the mailed code; answers the user with the new address. */
export function confirmEmailChange(code: string): Promise<UserResponse> {
  return api.post<UserResponse>(API_PATHS.confirmEmailChange, { code });
}
