import { isApiError } from '@/lib/api-client';
import { RESEARCH_STRINGS } from '../strings';

/** The step of the AI dialog that failed: sending the text, asking for the task's status, saving the result. */
export type GenerationStep = 'submit' | 'status' | 'save';

const { errors } = RESEARCH_STRINGS;

/**
 * The dialog's error text: 403 and 5xx have their own texts; a failed save always
 * says how to go on; otherwise the API client's text (validation, rate limit, network, time-out) or
 * the step's own failure text.
 */
export function describeGenerationError(error: unknown, step: GenerationStep): string {
  if (step === 'save') return errors.saveFailed;
  if (!isApiError(error)) return step === 'submit' ? errors.submitFailed : errors.statusFailed;
  if (error.status === 403) return errors.forbidden;
  if (error.status !== null && error.status >= 500) return errors.serverError;
  // A task that is gone (404) or an answer we could not read: the status query itself failed.
  if (step === 'status' && (error.status === 404 || error.code === 'UNKNOWN_ERROR')) return errors.statusFailed;
  return error.message;
}
