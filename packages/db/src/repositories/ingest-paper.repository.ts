import { and, asc, eq, gt, gte, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { papers } from '../schema';
import { insertColumns } from './columnar-insert';
import { runInOneTrip, setLocal } from './one-trip';
import type { NewPaperRow, PaperRow } from './paper.repository';

/** Columns dedupe and merging look at (no vector, no search document). */
const PAPER_FIELDS = {
  id: papers.id,
  title: papers.title,
  authors: papers.authors,
  authorIdentities: papers.authorIdentities,
  abstract: papers.abstract,
  journalId: papers.journalId,
  journalName: papers.journalName,
  jcrTier: papers.jcrTier,
  doi: papers.doi,
  arxivId: papers.arxivId,
  url: papers.url,
  urlNormalized: papers.urlNormalized,
  pdfUrl: papers.pdfUrl,
  publishedAt: papers.publishedAt,
  keywords: papers.keywords,
  researchFields: papers.researchFields,
  llmSummary: papers.llmSummary,
  titleAuthorKey: papers.titleAuthorKey,
  sourceIds: papers.sourceIds,
  source: papers.source,
  isDemo: papers.isDemo,
  /** A reader's own-works upload no one else sees: an import never rewrites a row, a public source replaces it. */
  privateTo: papers.privateTo,
};

export type PaperFields = Pick<PaperRow, keyof typeof PAPER_FIELDS>;

export interface DedupeKeys {
  dois: string[];
  arxivId?: string | undefined;
  urlNormalized?: string | undefined;
  titleAuthorKey?: string | undefined;
}

/** The keys of many papers at once (bulk ingest: one lookup per chunk of a file). */
export interface DedupeKeySets {
  dois: string[];
  arxivIds: string[];
  urlsNormalized: string[];
  titleAuthorKeys: string[];
}

/** A PostgreSQL text array literal ('{"a","b\\"c"}'): elements quoted, backslash and quote escaped. */
const textArrayLiteral = (values: readonly string[]) =>
  `{${values.map((value) => `"${value.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;

export interface SummaryCandidate {
  id: number;
  title: string;
  abstract: string;
}

/** Paper writes of the ingestion pipeline: dedupe lookups, inserts, merges, embeddings, summaries. */
export class IngestPaperRepository {
  constructor(private readonly db: Database) {}

  /** Every paper sharing any of the keys (the caller picks the best match by key priority). */
  async findDedupeCandidates(keys: DedupeKeys): Promise<PaperFields[]> {
    const conditions = [
      keys.dois.length ? inArray(sql`lower(${papers.doi})`, keys.dois) : undefined,
      // The preprint DOI a journal record named (migration 0015 indexes it).
      keys.dois.length ? inArray(sql`lower(${papers.sourceIds}->>'preprintDoi')`, keys.dois) : undefined,
      keys.arxivId ? eq(papers.arxivId, keys.arxivId) : undefined,
      keys.urlNormalized ? eq(papers.urlNormalized, keys.urlNormalized) : undefined,
      keys.titleAuthorKey ? eq(papers.titleAuthorKey, keys.titleAuthorKey) : undefined,
    ].filter((condition) => condition !== undefined);
    if (conditions.length === 0) return [];
    return (
      this.db
        .select(PAPER_FIELDS)
        .from(papers)
        .where(or(...conditions))
        // Ordered by an expression, so the planner never walks the primary key filtering every row: the
        // partial DOI index has no statistics, the OR is estimated at hundreds of rows, and with LIMIT
        // that walk looked cheaper (150 ms at 100k papers instead of 0.3 ms; docs/benchmarks.md).
        .orderBy(sql`${papers.id} + 0`)
        .limit(20)
    );
  }

  /**
   * Every paper sharing any key of any paper of a chunk, in id order: the union of what
   * findDedupeCandidates answers for each of them (the caller picks each paper's candidates from it).
   */
  async findDedupeCandidatesOfMany(keys: DedupeKeySets): Promise<PaperFields[]> {
    // `= ANY(array)`: one array per key kind, where IN lists would send and parse one value per key
    // (4,000 for a chunk of 1,000 papers); the same index scans.
    const anyOf = (values: string[]) => sql`ANY(${textArrayLiteral(values)}::text[])`;
    const conditions = [
      keys.dois.length ? sql`lower(${papers.doi}) = ${anyOf(keys.dois)}` : undefined,
      keys.dois.length ? sql`lower(${papers.sourceIds}->>'preprintDoi') = ${anyOf(keys.dois)}` : undefined,
      keys.arxivIds.length ? sql`${papers.arxivId} = ${anyOf(keys.arxivIds)}` : undefined,
      keys.urlsNormalized.length ? sql`${papers.urlNormalized} = ${anyOf(keys.urlsNormalized)}` : undefined,
      keys.titleAuthorKeys.length ? sql`${papers.titleAuthorKey} = ${anyOf(keys.titleAuthorKeys)}` : undefined,
    ].filter((condition) => condition !== undefined);
    if (conditions.length === 0) return [];
    // Through the indexes, never a sequential scan: during a bulk import the table has no statistics
    // (PGlite has no autovacuum; PostgreSQL's comes minutes behind), the OR of four arrays of 1,000 keys
    // is then estimated at most of the table, and the planner scanned all of it for every chunk, which
    // made an import quadratic (100 ms a chunk at 100,000 papers in PGlite against 12 ms through the
    // indexes; docs/benchmarks.md, tenth session). The setting and the query go in one message (one
    // round trip, the setting ending with it), the rows as one JSON array, read the same way whatever
    // the driver's type parsers.
    const columns = Object.values(PAPER_FIELDS).map((column) => sql`${sql.identifier(column.name)}`);
    const [, answer] = await runInOneTrip(this.db, [
      ...setLocal({ enable_seqscan: 'off' }),
      sql`SELECT coalesce(json_agg(row_to_json(found) ORDER BY found.id), '[]') AS rows
          FROM (SELECT ${sql.join(columns, sql`, `)} FROM ${papers} WHERE ${or(...conditions)}) AS found`,
    ]);
    const rows = (answer?.[0]?.rows ?? []) as Record<string, unknown>[];
    return rows.map(
      (row) =>
        Object.fromEntries(
          Object.entries(PAPER_FIELDS).map(([key, column]) => [key, row[column.name] ?? null]),
        ) as PaperFields,
    );
  }

  /**
   * Inserts rows in one statement, a parameter per column (insertColumns); returns their ids in the
   * order of `rows`. A unique key held by another row fails the whole statement, and nothing of it is
   * stored.
   */
  async insertMany(rows: NewPaperRow[]): Promise<number[]> {
    return (await insertColumns(this.db, papers, rows, papers.id)) as number[];
  }

  async insert(row: NewPaperRow): Promise<number> {
    const [created] = await this.db.insert(papers).values(row).returning({ id: papers.id });
    if (!created) throw new Error('paper insert returned no row');
    return created.id;
  }

  /**
   * Links the rows sharing `titleAuthorKey` to the best of them and moves user states to it
   * (radar.link_paper_duplicates, migration 0010); returns the canonical id.
   */
  async linkDuplicates(titleAuthorKey: string): Promise<number | undefined> {
    const result = await this.db.execute<{ canonical: string | number | null }>(
      sql`select radar.link_paper_duplicates(${titleAuthorKey}) as canonical`,
    );
    const canonical = result.rows[0]?.canonical;
    return canonical === null || canonical === undefined ? undefined : Number(canonical);
  }

  async update(id: number, set: Partial<NewPaperRow>): Promise<void> {
    await this.db
      .update(papers)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(papers.id, id));
  }

  /**
   * Papers with an abstract whose summary is missing or was made by another model or language
   * (`summaryKey`), in id order after `afterId`: only the given ids, or those added since `createdSince`.
   */
  async listNeedingSummary(options: {
    summaryKey: string;
    ids?: number[] | undefined;
    createdSince?: Date | undefined;
    afterId: number;
    limit: number;
  }): Promise<SummaryCandidate[]> {
    return this.db
      .select({ id: papers.id, title: papers.title, abstract: papers.abstract })
      .from(papers)
      .where(
        and(
          ne(papers.abstract, ''),
          or(isNull(papers.llmSummary), isNull(papers.llmSummaryModel), ne(papers.llmSummaryModel, options.summaryKey)),
          gt(papers.id, options.afterId),
          options.ids ? inArray(papers.id, options.ids.length ? options.ids : [-1]) : undefined,
          options.createdSince ? gte(papers.createdAt, options.createdSince) : undefined,
        ),
      )
      .orderBy(asc(papers.id))
      .limit(options.limit);
  }

  async setSummary(id: number, summary: string, summaryKey: string): Promise<void> {
    await this.db.update(papers).set({ llmSummary: summary, llmSummaryModel: summaryKey }).where(eq(papers.id, id));
  }

  async deleteDemo(): Promise<number> {
    const rows = await this.db.delete(papers).where(eq(papers.isDemo, true)).returning({ id: papers.id });
    return rows.length;
  }
}
