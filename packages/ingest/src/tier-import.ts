import fs from 'node:fs/promises';
import { type Database, type JournalKeyRow, JournalRepository, type NewJournalRow, PaperRepository } from '@radar/db';
import { type DecodeWarning, decodeBytes } from './decode';
import { normalizeJournalTitle } from './identifiers';
import { parseTierTable, type TierRow, type TierTable } from './tier-table';

/**
 * Imports a journal tier table and maps papers to tiers: journals match by ISSN (print or electronic),
 * then by normalised title; papers get their journal's tier (papers.jcr_tier). Re-importing updates
 * existing journals and papers. Several files with the same label (SCImago's per-subject exports of
 * one year) combine to each journal's best tier; a file with another label (a newer year) replaces it.
 */

export interface TierImportSummary {
  label: string;
  format: TierTable['format'];
  rows: number;
  journalsAdded: number;
  journalsUpdated: number;
  journalsUnchanged: number;
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

export async function importTierTableFile(
  db: Database,
  filePath: string,
  options: { label?: string | undefined; onProgress?: (done: number, total: number) => void } = {},
): Promise<TierImportSummary> {
  const warnings: DecodeWarning[] = [];
  const text = decodeBytes(await fs.readFile(filePath), { warnings });
  const table = parseTierTable(text, { label: options.label, fileName: filePath });
  const summary = await importTierTable(db, table, options.onProgress);
  summary.warnings.push(...warnings.map((warning) => `${warning.reason}: ${warning.detail ?? ''}`));
  return summary;
}

export async function importTierTable(
  db: Database,
  table: TierTable,
  onProgress?: (done: number, total: number) => void,
): Promise<TierImportSummary> {
  const repository = new JournalRepository(db);
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
  const apply = (journal: PendingJournal, row: TierRow) => {
    // Same table (same label): keep the best tier across its rows; another table replaces the tier.
    const tier =
      journal.tierSource === table.label && journal.tier !== null ? Math.min(journal.tier, row.tier) : row.tier;
    let changed = false;
    if (journal.tier !== tier || journal.tierSource !== table.label) {
      journal.tier = tier;
      journal.tierSource = table.label;
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
        publisher: row.publisher ?? null,
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
        issn: journal.issn,
        eissn: journal.eissn,
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
      publisher: journal.publisher,
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
  if (papersRetiered > 0) await new PaperRepository(db).analyze();

  return {
    label: table.label,
    format: table.format,
    rows: table.rows.length + table.rejects.length,
    journalsAdded: inserts.length,
    journalsUpdated: updates.length,
    journalsUnchanged: unchanged,
    rejects: table.rejects,
    warnings: [],
    papersLinked,
    papersRetiered,
  };
}
