/**
 * An error an operator can fix, whose message says how (bad config, unreachable database or Redis,
 * DATA_DIR in use). Entry points print it as one line instead of a stack trace; any other error is a
 * bug and keeps its stack.
 */
export class ActionableError extends Error {
  override name = 'ActionableError';
}

/** One line for an actionable error; the stack for anything else. */
export function describeStartupFailure(error: unknown): string {
  if (error instanceof ActionableError) return error.message;
  const { code, path: filePath, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (filePath && (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')) {
    const reason = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'is a directory' }[code];
    return `cannot read ${filePath}: ${reason}`;
  }
  if ((code === 'EADDRINUSE' || code === 'EACCES') && syscall === 'listen') {
    return `cannot listen on the configured HOST/PORT (${code}). Stop the other process or set PORT.`;
  }
  return (error as Error | undefined)?.stack ?? String(error);
}
