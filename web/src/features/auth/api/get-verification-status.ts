import { API_PATHS, type VerificationStatusResponse } from '@radar/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type VerificationStatus = VerificationStatusResponse;

/** GET /api/auth/verification-status/?email=. */
async function getVerificationStatus(
  email: string,
  options: { signal?: AbortSignal } = {},
): Promise<VerificationStatus> {
  const raw = await api.get<Partial<VerificationStatus> | null>(API_PATHS.verificationStatus, {
    query: { email },
    signal: options.signal,
  });
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? Math.max(0, value) : 0);
  return {
    remaining_time: number(raw?.remaining_time),
    remaining_attempts: number(raw?.remaining_attempts),
    has_verification_code: raw?.has_verification_code === true,
    resend_available_in: number(raw?.resend_available_in),
  };
}

export const verificationStatusQueryKey = (email: string) => ['auth', 'verification-status', email] as const;

function verificationStatusQueryOptions(email: string) {
  return queryOptions({
    queryKey: verificationStatusQueryKey(email),
    queryFn: ({ signal }) => getVerificationStatus(email, { signal }),
    // The countdowns run locally from one answer; a fresh answer is fetched after each verify or resend.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Enabled once `email` looks like an address (the endpoint refuses anything without '@'). */
export function useVerificationStatus(email: string) {
  return useQuery({ ...verificationStatusQueryOptions(email), enabled: email.includes('@') });
}
