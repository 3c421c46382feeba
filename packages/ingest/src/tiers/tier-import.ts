import fs from 'node:fs/promises';
import type { IngestRepositories, JournalKeyRow, NewJournalRow, TierSystem } from '@radar/db';
import { type DecodeWarning, decodeBytes } from '../adapters/decode';
import { normalizeJournalTitle } from '../text/identifiers';
import { parseTierTable, type TierRow, type TierTable } from './tier-table';

/**
 * Imports a journal tier table and maps papers to tiers: journals match by ISSN (print or electronic),
 * then by normalised title; papers get their journal's tier (papers.jcr_tier). Re-importing updates
 * existing journals and papers. Several files with the same label (SCImago's per-subject exports of
 * one year) combine to each journal's best tier; a file with another label (a newer year) replaces it.
 *
 * Each tier records its system and year (journals.tier_system, tier_year): a SCImago export is 'scimago'
 * (year from its header), any other table 'imported' (year from its label's four digits, when any). An
 * operator's import applies to every journal it names; the scheduled SCImago refresh passes
 * `keepSystems: ['imported']`, so a table an institution imported (JCR, 中科院分区) is never replaced by it.
 */

export interface TierImportOptions {
  /** The system the tiers are recorded under; from the table's format when left out. */
  system?: TierSystem;
  /** The table's year; from its label when left out. */
  year?: number | undefined;
  /** Journals whose current tier is of one of these systems keep it (and are counted as kept). */
  keepSystems?: readonly TierSystem[];
  onProgress?: (done: number, total: number) => void;
}

/** The four-digit year in a label ("scimago-2024", "jcr-2025"); undefined when it has none. */
export function tierYearOfLabel(label: string): number | undefined {
  const match = /(?:^|\D)((?:19|20)\d{2})(?:\D|$)/.exec(label);
  return match?.[1] ? Number(match[1]) : undefined;
}

export interface TierImportSummary {
  label: string;
  format: TierTable['format'];
  rows: number;
  journalsAdded: number;
  journalsUpdated: number;
  journalsUnchanged: number;
  /** Journals left with their tier because it is of a kept system (keepSystems). */
  journalsKept: number;
  rejects: TierTable['rejects'];
  warnings: string[];
  /** Papers newly linked to a journal by title. */
  papersLinked: number;
  /** Papers whose tier changed. */
  papersRetiered: number;
}

interface PendingJournal extends Omit<JournalKeyRow, 'id'> {
  id: number | undefined;
  publisher: string | null;
  changed: boolean;
}

/** What a tier import writes through: the journals, and the papers' ANALYZE after a retiering. */
export type TierImportRepositories = Pick<IngestRepositories, 'journals' | 'papers'>;

export async function importTierTableFile(
  repositories: TierImportRepositories,
  filePath: string,
  options: { label?: string | undefined; onProgress?: (done: number, total: number) => void } = {},
): Promise<TierImportSummary> {
  const warnings: DecodeWarning[] = [];
  const text = decodeBytes(await fs.readFile(filePath), { warnings });
  const table = parseTierTable(text, { label: options.label, fileName: filePath });
  const summary = await importTierTable(repositories, table, { onProgress: options.onProgress });
  summary.warnings.push(...warnings.map((warning) => `${warning.reason}: ${warning.detail ?? ''}`));
  return summary;
}

export async function importTierTable(
  repositories: TierImportRepositories,
  table: TierTable,
  options: TierImportOptions = {},
): Promise<TierImportSummary> {
  const { onProgress } = options;
  const system: TierSystem = options.system ?? (table.format === 'scimago' ? 'scimago' : 'imported');
  const year = options.year ?? tierYearOfLabel(table.label) ?? null;
  const keep = new Set<TierSystem>(options.keepSystems ?? []);
  const repository = repositories.journals;
  const existing = await repository.listKeys();
  const journals: PendingJournal[] = existing.map((row) => ({ ...row, publisher: null, changed: false }));
  const byIssn = new Map<string, PendingJournal[]>();
  const byTitle = new Map<string, PendingJournal[]>();
  const index = (journal: PendingJournal) => {
    for (const issn of [journal.issn, journal.eissn]) {
      if (issn) byIssn.set(issn, [...(byIssn.get(issn) ?? []), journal]);
    }
    byTitle.set(journal.titleNormalized, [...(byTitle.get(journal.titleNormalized) ?? []), journal]);
  };
  for (const journal of journals) index(journal);

  let unchanged = 0;
  let kept = 0;
  const apply = (journal: PendingJournal, row: TierRow) => {
    const sameTable = journal.tierSource === table.label;
    if (journal.tier !== null && journal.tierSystem && keep.has(journal.tierSystem)) {
      kept++;
      // The kept tier's table named no subject areas: this table's areas still tell the journal's fields.
      if (journal.researchFields.length === 0 && row.fields.length > 0) {
        journal.researchFields = row.fields;
        journal.changed = true;
      }
      return;
    }
    // Same table (same label): keep the best tier across its rows; another table replaces the tier.
    const tier = sameTable && journal.tier !== null ? Math.min(journal.tier, row.tier) : row.tier;
    let changed = false;
    if (
      journal.tier !== tier ||
      journal.tierSource !== table.label ||
      journal.tierSystem !== system ||
      journal.tierYear !== year
    ) {
      journal.tier = tier;
      journal.tierSource = table.label;
      journal.tierSystem = system;
      journal.tierYear = year;
      changed = true;
    }
    const issns = row.issns.filter((issn) => !byIssn.has(issn) || byIssn.get(issn)?.includes(journal));
    const issn = issns.find((value) => value !== journal.eissn);
    if (!journal.issn && issn) {
      journal.issn = issn;
      byIssn.set(issn, [...(byIssn.get(issn) ?? []), journal]);
      changed = true;
    }
    const eissn = issns.find((issn) => issn !== journal.issn);
    if (!journal.eissn && eissn) {
      journal.eissn = eissn;
      byIssn.set(eissn, [...(byIssn.get(eissn) ?? []), journal]);
      changed = true;
    }
    if (!journal.publisher && row.publisher) journal.publisher = row.publisher;
    // Subject areas: the rows of one table add up (SCImago lists a journal in each subject's export);
    // another table's areas replace them. A table without areas leaves them as they are.
    if (row.fields.length > 0) {
      const fields = sameTable ? [...new Set([...journal.researchFields, ...row.fields])] : row.fields;
      if (fields.length !== journal.researchFields.length || fields.some((f, i) => f !== journal.researchFields[i])) {
        journal.researchFields = fields;
        changed = true;
      }
    }
    if (changed) journal.changed = true;
    else unchanged++;
  };

  let done = 0;
  for (const row of table.rows) {
    const matches = new Set<PendingJournal>();
    for (const issn of row.issns) for (const journal of byIssn.get(issn) ?? []) matches.add(journal);
    if (matches.size === 0 && row.title) {
      // By title only when the stored journal has no ISSN that says it is a different journal.
      const key = normalizeJournalTitle(row.title);
      for (const journal of byTitle.get(key) ?? []) {
        if (row.issns.length === 0 || (!journal.issn && !journal.eissn)) matches.add(journal);
      }
    }
    if (matches.size > 0) {
      for (const journal of matches) apply(journal, row);
    } else {
      const journal: PendingJournal = {
        id: undefined,
        title: row.title || row.issns[0] || 'unknown journal',
        titleNormalized: normalizeJournalTitle(row.title),
        issn: row.issns[0] ?? null,
        eissn: row.issns[1] ?? null,
        tier: row.tier,
        tierSource: table.label,
        tierSystem: system,
        tierYear: year,
        publisher: row.publisher ?? null,
        researchFields: row.fields,
        changed: true,
      };
      journals.push(journal);
      index(journal);
    }
    onProgress?.(++done, table.rows.length);
  }

  const updates = journals
    .filter((journal) => journal.id !== undefined && journal.changed)
    .map((journal) => ({
      id: journal.id as number,
      set: {
        tier: journal.tier,
        tierSource: journal.tierSource,
        tierSystem: journal.tierSystem,
        tierYear: journal.tierYear,
        issn: journal.issn,
        eissn: journal.eissn,
        researchFields: journal.researchFields,
        ...(journal.publisher ? { publisher: journal.publisher } : {}),
      } satisfies Partial<NewJournalRow>,
    }));
  const inserts: NewJournalRow[] = journals
    .filter((journal) => journal.id === undefined)
    .map((journal) => ({
      title: journal.title,
      titleNormalized: journal.titleNormalized,
      issn: journal.issn,
      eissn: journal.eissn,
      tier: journal.tier,
      tierSource: journal.tierSource,
      tierSystem: journal.tierSystem,
      tierYear: journal.tierYear,
      publisher: journal.publisher,
      researchFields: journal.researchFields,
    }));
  const insertedIds = await repository.applyTierChanges(updates, inserts);
  journals
    .filter((journal) => journal.id === undefined)
    .forEach((journal, position) => {
      journal.id = insertedIds[position];
    });

  // Papers whose venue name matches a journal now known (no ISSN was given for them).
  let papersLinked = 0;
  const titleIndex = new Map<string, PendingJournal>();
  for (const journal of journals)
    if (journal.tier !== null && journal.id !== undefined) titleIndex.set(journal.titleNormalized, journal);
  for (const name of await repository.listUnlinkedPaperJournalNames()) {
    const journal = titleIndex.get(normalizeJournalTitle(name));
    if (journal?.id !== undefined) papersLinked += await repository.linkPapersByJournalName(name, journal.id);
  }
  const papersRetiered = await repository.refreshPaperTiers();
  if (papersRetiered > 0) await repositories.papers.analyze();

  return {
    label: table.label,
    format: table.format,
    rows: table.rows.length + table.rejects.length,
    journalsAdded: inserts.length,
    journalsUpdated: updates.length,
    journalsUnchanged: unchanged,
    journalsKept: kept,
    rejects: table.rejects,
    warnings: [],
    papersLinked,
    papersRetiered,
  };
}
