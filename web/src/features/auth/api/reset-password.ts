import { API_PATHS, type messageResponseSchema, type ResetPasswordRequest } from '@radar/shared';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';

/** POST /api/auth/reset-password/; ends every earlier session of the account. */
async function resetPassword(body: ResetPasswordRequest): Promise<z.infer<typeof messageResponseSchema>> {
  return api.post(API_PATHS.resetPassword, body);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
