import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from './api-client';

/**
 * Puts the server's per-field messages (`error.fields`, e.g. `{ password: ['密码过于简单，请使用更复杂的密码'] }`)
 * on the form's fields, for the rules only the server checks. `fields` lists the form fields that have
 * the server's names. Returns whether any message was placed, so the caller shows a form-level message
 * otherwise.
 */
export function setServerFieldErrors<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  fields: readonly Path<Values>[],
): boolean {
  if (!isApiError(error)) return false;
  const messages = error.fields;
  if (!messages) return false;
  let placed = false;
  for (const field of fields) {
    const message = messages[field]?.[0];
    if (!message) continue;
    setError(field, { type: 'server', message }, { shouldFocus: !placed });
    placed = true;
  }
  return placed;
}
