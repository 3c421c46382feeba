import { index, integer, jsonb, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, radar, updatedAt } from './columns';
import { ownerColumn } from './users';

export const asyncTaskStatus = radar.enum('async_task_status', ['pending', 'processing', 'completed', 'failed']);

/**
 * User-visible background work (the research-direction analysis a user waits for). The BullMQ job is the
 * mechanism; this row is what the owner polls, so it survives queue cleanup and backend changes.
 */
export const asyncTasks = radar.table(
  'async_tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerColumn(),
    kind: text('kind').notNull(),
    status: asyncTaskStatus('status').notNull().default('pending'),
    /** 0-100, reported by the worker. */
    progress: integer('progress').notNull().default(0),
    input: jsonb('input').notNull().default({}),
    resultData: jsonb('result_data'),
    errorMessage: text('error_message'),
    attempts: integer('attempts').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('async_tasks_user_created_idx').on(t.userId, t.createdAt)],
);

export type AsyncTaskStatus = (typeof asyncTaskStatus.enumValues)[number];
