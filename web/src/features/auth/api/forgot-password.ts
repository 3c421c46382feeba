import { API_PATHS, type messageResponseSchema } from '@radar/shared';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';

/** POST /api/auth/forgot-password/: the same answer whether or not the address has an account. */
async function forgotPassword(body: { email: string }): Promise<z.infer<typeof messageResponseSchema>> {
  return api.post(API_PATHS.forgotPassword, body);
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
