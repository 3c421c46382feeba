import type { RegisterRequest, registerResponseSchema } from '@radar/shared';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError, api, CLIENT_ERROR_MESSAGES, REQUEST_TIMEOUTS } from '@/lib/api-client';

export type RegisterResponse = z.infer<typeof registerResponseSchema>;

/** POST /api/auth/register/ (spec section 7) with the 15 s time-out of spec section 9. */
export async function register(body: RegisterRequest): Promise<RegisterResponse> {
  const raw = await api.post<unknown>('/api/auth/register/', body, { timeoutMs: REQUEST_TIMEOUTS.register });
  // An answer that is not a JSON object is "unparseable" (spec section 8).
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ApiError({ status: 201, code: 'UNKNOWN_ERROR', message: CLIENT_ERROR_MESSAGES.UNKNOWN_ERROR });
  }
  const record = raw as Record<string, unknown>;
  return {
    message: typeof record.message === 'string' ? record.message : '',
    // The contract does not show the success answer: without an address in it, the one registered is meant.
    email: typeof record.email === 'string' && record.email !== '' ? record.email : body.email,
    resend_available_in: typeof record.resend_available_in === 'number' ? record.resend_available_in : 0,
  };
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
