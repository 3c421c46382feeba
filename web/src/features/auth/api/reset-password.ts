import type { messageResponseSchema, ResetPasswordRequest } from '@radar/shared';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';

/** POST /api/auth/reset-password/ (spec section 7); ends every earlier session of the account. */
export async function resetPassword(body: ResetPasswordRequest): Promise<z.infer<typeof messageResponseSchema>> {
  return api.post('/api/auth/reset-password/', body);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
