import { API_PATHS, type resendCodeResponseSchema } from '@radar/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { verificationStatusQueryKey } from './get-verification-status';

export type ResendCodeResponse = z.infer<typeof resendCodeResponseSchema>;

/** POST /api/auth/resend-verification-code/. */
async function resendVerificationCode(body: { email: string }): Promise<ResendCodeResponse> {
  return api.post(API_PATHS.resendVerificationCode, body);
}

export function useResendVerificationCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendVerificationCode,
    // A new code has a new expiry and a fresh set of attempts.
    onSettled: (_data, _error, body) =>
      queryClient.invalidateQueries({ queryKey: verificationStatusQueryKey(body.email) }),
  });
}
