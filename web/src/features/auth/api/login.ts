import { API_PATHS, type LoginRequest } from '@radar/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { type AuthSession, readAuthSession } from './read-session';

/** POST /api/auth/login/. */
async function login(body: LoginRequest): Promise<AuthSession> {
  return readAuthSession(await api.post<unknown>(API_PATHS.login, body));
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
