import { z } from 'zod';

/**
 * Queue names and job payloads. Producers (server) and processors (worker) import these so a payload
 * can never drift between the two sides. Payloads carry ids, never secrets.
 */
export const QUEUE_NAMES = {
  maintenance: 'maintenance',
} as const;

export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export const maintenanceJobSchema = z.object({
  /** Which housekeeping task to run. */
  task: z.enum(['purge-expired-auth-records']),
});
export type MaintenanceJob = z.infer<typeof maintenanceJobSchema>;

export const JOB_PAYLOAD_SCHEMAS = {
  [QUEUE_NAMES.maintenance]: maintenanceJobSchema,
} as const satisfies Record<QueueName, z.ZodType>;
