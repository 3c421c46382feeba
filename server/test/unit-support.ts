import { Writable } from 'node:stream';
import type { UserRow } from '@radar/db';
import pino, { type Logger } from 'pino';

/*
 * Support for the server's unit tests (*.unit.test.ts, `pnpm test:fast`): a service built over in-memory
 * repositories, where the service's own rule is the point. What the repositories' SQL does (limits checked
 * in the statement, races, both engines) stays with the integration tests beside each feature.
 */

/** A reader as the repositories return one; fields a test does not name take the database's defaults. */
export function userRow(overrides: Partial<UserRow> = {}): UserRow {
  const at = new Date('2026-11-01T00:00:00Z');
  return {
    id: '00000000-0000-4000-8000-000000000001',
    email: 'reader@example.edu',
    passwordHash: null,
    isEmailVerified: true,
    username: '',
    researchDescription: '',
    researchName: '',
    researchEmail: '',
    researchInstitution: '',
    researchPosition: '',
    researchFields: [],
    researchFieldsUnmapped: [],
    researchSummaryEn: '',
    profileEmbedding: null,
    profileEmbeddingModelId: null,
    profileEmbeddedAt: null,
    learnedEmbedding: null,
    learnedEmbeddingModelId: null,
    learnedAt: null,
    learningResetAt: null,
    tokenVersion: 0,
    lastLoginAt: null,
    disabledAt: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

/** A real pino logger whose lines the test reads back (parsed), to check what was logged and what was not. */
export function capturingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}
