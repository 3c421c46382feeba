import { isQueueName, JOB_PAYLOAD_SCHEMAS } from '@radar/shared';

/**
 * A producer handed a payload its queue's schema (JOB_PAYLOAD_SCHEMAS) refuses. A bug in the producer:
 * the job is not added, so no worker ever meets it.
 */
export class InvalidJobPayloadError extends Error {
  override name = 'InvalidJobPayloadError';
}

export type JobPayloadCheck = { success: true; data: unknown } | { success: false; message: string };

/**
 * Parses a job's data with its queue's schema, the one rule both ends apply: producers before `add`
 * (queue-connection's checked Queue), workers before the processor runs (createWorker). A queue outside
 * QUEUE_NAMES (a test's own) has no schema and its data passes as it is.
 */
export function checkJobPayload(queue: string, data: unknown): JobPayloadCheck {
  if (!isQueueName(queue)) return { success: true, data };
  const parsed = JOB_PAYLOAD_SCHEMAS[queue].safeParse(data);
  return parsed.success
    ? { success: true, data: parsed.data }
    : { success: false, message: `invalid ${queue} payload: ${parsed.error.message}` };
}

/** The payload of a job about to be added, parsed; throws InvalidJobPayloadError when its schema refuses it. */
export function parseJobPayload(queue: string, data: unknown): unknown {
  const checked = checkJobPayload(queue, data);
  if (!checked.success) throw new InvalidJobPayloadError(checked.message);
  return checked.data;
}
