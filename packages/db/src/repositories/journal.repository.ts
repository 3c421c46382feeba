import { and, asc, eq, exists, inArray, isNotNull, isNull, lt, max, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { journals, papers, type TierSystem } from '../schema';

export type { TierSystem } from '../schema';
export type JournalRow = typeof journals.$inferSelect;
export type NewJournalRow = typeof journals.$inferInsert;

/** The fields tier import and paper mapping work with. */
export type JournalKeyRow = Pick<
  JournalRow,
  | 'id'
  | 'title'
  | 'titleNormalized'
  | 'issn'
  | 'eissn'
  | 'tier'
  | 'tierSource'
  | 'tierSystem'
  | 'tierYear'
  | 'researchFields'
>;

/** A journal the OpenAlex tier job looks up. */
export type OpenAlexTierCandidate = Pick<JournalRow, 'id' | 'title' | 'issn' | 'eissn'>;

/** Journals and their tiers; keeps papers.jcr_tier in step with the journal's tier. */
export class JournalRepository {
  constructor(private readonly db: Database) {}

  /** Journals whose print or electronic ISSN is among `issns` (hyphen-free). */
  async findByIssns(issns: string[]): Promise<JournalRow[]> {
    if (issns.length === 0) return [];
    return this.db
      .select()
      .from(journals)
      .where(or(inArray(journals.issn, issns), inArray(journals.eissn, issns)))
      .orderBy(journals.id);
  }

  async findByTitleNormalized(titleNormalized: string): Promise<JournalRow[]> {
    return this.db.select().from(journals).where(eq(journals.titleNormalized, titleNormalized)).orderBy(journals.id);
  }

  /** Inserts a journal; undefined when its ISSN is already taken (a concurrent insert won). */
  async create(row: NewJournalRow): Promise<JournalRow | undefined> {
    const [created] = await this.db.insert(journals).values(row).onConflictDoNothing().returning();
    return created;
  }

  /** Fills ISSNs a journal row lacks; a value another row already holds is left out. */
  async fillIssns(id: number, issn: string | undefined, eissn: string | undefined): Promise<void> {
    const set: Partial<NewJournalRow> = {};
    const taken = await this.findByIssns([issn, eissn].filter((value): value is string => Boolean(value)));
    const free = (value: string | undefined) =>
      value && !taken.some((row) => row.id !== id && (row.issn === value || row.eissn === value)) ? value : undefined;
    const [current] = await this.db.select().from(journals).where(eq(journals.id, id));
    if (!current) return;
    if (!current.issn && free(issn)) set.issn = issn;
    if (!current.eissn && free(eissn) && eissn !== (set.issn ?? current.issn)) set.eissn = eissn;
    if (Object.keys(set).length) await this.db.update(journals).set(set).where(eq(journals.id, id));
  }

  async listKeys(): Promise<JournalKeyRow[]> {
    return this.db
      .select({
        id: journals.id,
        title: journals.title,
        titleNormalized: journals.titleNormalized,
        issn: journals.issn,
        eissn: journals.eissn,
        tier: journals.tier,
        tierSource: journals.tierSource,
        tierSystem: journals.tierSystem,
        tierYear: journals.tierYear,
        researchFields: journals.researchFields,
      })
      .from(journals);
  }

  /** The newest year of the tiers of one system; undefined when no journal has a tier from it. */
  async latestTierYear(system: TierSystem): Promise<number | undefined> {
    const [row] = await this.db
      .select({ year: max(journals.tierYear) })
      .from(journals)
      .where(and(eq(journals.tierSystem, system), isNotNull(journals.tier)));
    return row?.year ?? undefined;
  }

  /**
   * Journals with an ISSN that stored papers reference and that have no tier, or only an OpenAlex one,
   * not looked up in OpenAlex since `checkedBefore`: the OpenAlex tier job's work, oldest first.
   */
  async listOpenAlexTierCandidates(limit: number, checkedBefore: Date): Promise<OpenAlexTierCandidate[]> {
    return this.db
      .select({ id: journals.id, title: journals.title, issn: journals.issn, eissn: journals.eissn })
      .from(journals)
      .where(
        and(
          or(isNotNull(journals.issn), isNotNull(journals.eissn)),
          or(isNull(journals.tier), eq(journals.tierSystem, 'openalex')),
          or(isNull(journals.openalexCheckedAt), lt(journals.openalexCheckedAt, checkedBefore)),
          exists(this.db.select({ one: sql`1` }).from(papers).where(eq(papers.journalId, journals.id))),
        ),
      )
      .orderBy(asc(journals.id))
      .limit(limit);
  }

  /**
   * Stores OpenAlex-derived tiers and marks every looked-up journal as checked, in one transaction. A
   * tier lands only on a journal that still has no tier or an OpenAlex one (a SCImago or imported tier
   * that arrived meanwhile wins). Returns how many journals got a new tier.
   */
  async applyOpenAlexTiers(
    tiers: { id: number; tier: number }[],
    checkedIds: number[],
    year: number,
    checkedAt: Date,
  ): Promise<number> {
    return this.db.transaction(async (tx) => {
      let changed = 0;
      for (const { id, tier } of tiers) {
        const rows = await tx
          .update(journals)
          .set({ tier, tierSource: `openalex-${year}`, tierSystem: 'openalex', tierYear: year })
          .where(
            and(
              eq(journals.id, id),
              or(isNull(journals.tier), eq(journals.tierSystem, 'openalex')),
              or(sql`${journals.tier} IS DISTINCT FROM ${tier}`, sql`${journals.tierYear} IS DISTINCT FROM ${year}`),
            ),
          )
          .returning({ id: journals.id });
        changed += rows.length;
      }
      for (let start = 0; start < checkedIds.length; start += 500) {
        await tx
          .update(journals)
          .set({ openalexCheckedAt: checkedAt })
          .where(inArray(journals.id, checkedIds.slice(start, start + 500)));
      }
      return changed;
    });
  }

  /** Applies a tier table: updates and inserts in one transaction. Returns the ids of new rows in order. */
  async applyTierChanges(
    updates: { id: number; set: Partial<NewJournalRow> }[],
    inserts: NewJournalRow[],
  ): Promise<number[]> {
    return this.db.transaction(async (tx) => {
      for (const update of updates) await tx.update(journals).set(update.set).where(eq(journals.id, update.id));
      const ids: number[] = [];
      for (let start = 0; start < inserts.length; start += 500) {
        const rows = await tx
          .insert(journals)
          .values(inserts.slice(start, start + 500))
          .returning({ id: journals.id });
        ids.push(...rows.map((row) => row.id));
      }
      return ids;
    });
  }

  /** Distinct venue names of papers not linked to a journal row (candidates for title matching). */
  async listUnlinkedPaperJournalNames(): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ name: papers.journalName })
      .from(papers)
      .where(and(isNull(papers.journalId), ne(papers.journalName, '')));
    return rows.map((row) => row.name);
  }

  async linkPapersByJournalName(journalName: string, journalId: number): Promise<number> {
    const rows = await this.db
      .update(papers)
      .set({ journalId })
      .where(and(isNull(papers.journalId), eq(papers.journalName, journalName)))
      .returning({ id: papers.id });
    return rows.length;
  }

  /** Copies each journal's tier onto its papers where it differs. Returns how many papers changed. */
  async refreshPaperTiers(): Promise<number> {
    const result = await this.db.execute(sql`
      UPDATE radar.papers p SET jcr_tier = j.tier, updated_at = now()
      FROM radar.journals j
      WHERE p.journal_id = j.id AND p.jcr_tier IS DISTINCT FROM j.tier`);
    return result.rowCount ?? 0;
  }

  async count(): Promise<{ journals: number; withTier: number }> {
    const [row] = await this.db
      .select({
        journals: sql<number>`count(*)::int`,
        withTier: sql<number>`count(${journals.tier})::int`,
      })
      .from(journals);
    return { journals: row?.journals ?? 0, withTier: row?.withTier ?? 0 };
  }
}
