import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { changePassword } from '../api/change-password';
import { endOtherSessions } from '../api/end-other-sessions';
import { endSession } from '../api/end-session';
import { getSessions, SESSIONS_QUERY_KEY } from '../api/get-sessions';

/** The account's active logins. */
export function useSessions() {
  return useQuery({ queryKey: SESSIONS_QUERY_KEY, queryFn: ({ signal }) => getSessions({ signal }) });
}

/**
 * Ending sessions (one, all others, or by a password change) reloads the list, after a failure too (a
 * device ended meanwhile from elsewhere answers 404, and the list should stop showing it).
 */
function useSessionsMutation<Input, Output>(
  mutationFn: (input: Input) => Promise<Output>,
  onDone: (output: Output) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (output) => onDone(output),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}

export const useEndSession = (onDone: (message: string) => void) =>
  useSessionsMutation(endSession, (answer) => onDone(answer.message));

export const useEndOtherSessions = (onDone: (message: string) => void) =>
  useSessionsMutation(
    () => endOtherSessions(),
    (answer) => onDone(answer.message),
  );

export const useChangePassword = (onDone: (message: string) => void) =>
  useSessionsMutation(changePassword, (answer) => onDone(answer.message));
