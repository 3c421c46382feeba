import { API_PATHS, type RegisterRequest, type registerResponseSchema } from '@radar/shared';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError, api, CLIENT_ERROR_MESSAGES, REQUEST_TIMEOUTS } from '@/lib/api-client';

export type RegisterResponse = z.infer<typeof registerResponseSchema>;

/** POST /api/auth/register/ with its longer time-out (15 s: the server sends a mail). */
async function register(body: RegisterRequest): Promise<RegisterResponse> {
  const raw = await api.post<unknown>(API_PATHS.register, body, { timeoutMs: REQUEST_TIMEOUTS.register });
  // An answer that is not a JSON object is "unparseable".
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
