import { API_PATHS } from '@radar/shared';
import { createApiClient } from '@/lib/api-client';

/**
 * POST /api/auth/logout/ with the token being logged out: ends its session on the server. Sent with
 * that token explicitly (the local session is already cleared, and a new login must not be the one
 * ended), and a 401 changes nothing here: the session had already ended.
 */
export async function logoutOnServer(token: string): Promise<void> {
  const client = createApiClient({ getToken: () => token, onUnauthorized: () => {} });
  await client.post(API_PATHS.logout);
}
