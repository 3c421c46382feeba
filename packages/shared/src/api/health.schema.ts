import { z } from 'zod';

const componentStatus = z.enum(['ok', 'error']);

export const healthResponseSchema = z.object({
  /** ok: all good; degraded: usable but mail is failing; unavailable (503): database or queue down. */
  status: z.enum(['ok', 'degraded', 'unavailable']),
  /** The app's version; this and the database's versions only for the operator token (OPERATOR_TOKEN). */
  version: z.string().optional(),
  /** embedded: PGlite in this process (and BullMQ on it unless REDIS_URL is set); external: DATABASE_URL. */
  mode: z.enum(['embedded', 'external']),
  database: z.object({
    status: componentStatus,
    server_version: z.string().optional(),
    pgvector_version: z.string().optional(),
    error: z.string().optional(),
  }),
  queue: z.object({
    status: componentStatus,
    backend: z.enum(['redis', 'postgres']),
    worker: z.enum(['in-process', 'separate']),
    error: z.string().optional(),
  }),
  mail: z.object({
    status: componentStatus,
    transport: z.enum(['smtp', 'outbox']),
    error: z.string().optional(),
  }),
});

export type HealthResponse = z.infer<typeof healthResponseSchema>;
