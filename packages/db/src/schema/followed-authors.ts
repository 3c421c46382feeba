import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, radar, updatedAt } from './columns';
import { papers } from './content';
import { ownerColumn } from './users';

/**
 * Authors a reader follows (migration 0025), taken from a paper's author list: the name, its key
 * (radar.author_name_key), and the ORCID iD, OpenAlex id and affiliation the paper's source gave, if any.
 * `person_key` keeps one row per person: the ORCID iD, else the OpenAlex id, else name key and affiliation.
 */
export const followedAuthors = radar.table(
  'followed_authors',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: ownerColumn(),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    orcid: text('orcid'),
    openalexId: text('openalex_id'),
    affiliation: text('affiliation'),
    /** The paper the reader followed them from. */
    paperId: bigint('paper_id', { mode: 'number' }).references(() => papers.id, { onDelete: 'set null' }),
    personKey: text('person_key').generatedAlwaysAs(
      sql`CASE WHEN "orcid" IS NOT NULL THEN 'o:' || "orcid" WHEN "openalex_id" IS NOT NULL THEN 'a:' || "openalex_id" ELSE 'n:' || "name_key" || '@' || lower(coalesce("affiliation", '')) END`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('followed_authors_user_id_idx').on(t.userId, t.id),
    uniqueIndex('followed_authors_user_person_key').on(t.userId, t.personKey),
  ],
);
