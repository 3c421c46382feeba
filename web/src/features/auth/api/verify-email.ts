import { API_PATHS, type VerifyEmailRequest } from '@radar/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { verificationStatusQueryKey } from './get-verification-status';
import { type AuthSession, readAuthSession } from './read-session';

/** POST /api/auth/verify-email/: on success the account is verified and signed in. */
async function verifyEmail(body: VerifyEmailRequest): Promise<AuthSession> {
  return readAuthSession(await api.post<unknown>(API_PATHS.verifyEmail, body));
}

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    // A wrong code uses up an attempt: the status (attempts left) is read again.
    onError: (_error, body) => queryClient.invalidateQueries({ queryKey: verificationStatusQueryKey(body.email) }),
  });
}
