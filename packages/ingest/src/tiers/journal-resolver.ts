import type { JournalRepository, JournalRow } from '@radar/db';
import { normalizeJournalTitle } from '../text/identifiers';
import { cleanInline, truncateText } from '../text/text';
import type { JournalRef } from '../types';

const toResolved = (row: JournalRow): ResolvedJournal => ({ id: row.id, title: row.title, tier: row.tier });

export interface ResolvedJournal {
  id: number;
  title: string;
  tier: number | null;
}

/**
 * Finds the journal row of a paper's venue by ISSN (print or electronic), else by normalised title,
 * creating a row without tier when the journal is new, so a later tier import reaches its papers.
 * Preprint servers get no row. Results are cached for the run.
 */
export class JournalResolver {
  private readonly cache = new Map<string, ResolvedJournal | undefined>();

  constructor(private readonly journals: JournalRepository) {}

  async resolve(ref: JournalRef | undefined): Promise<ResolvedJournal | undefined> {
    if (ref?.matchOnly) return this.match(ref);
    if (!ref || ref.isPreprintServer) return undefined;
    const name = truncateText(cleanInline(ref.name), 500);
    const titleNormalized = normalizeJournalTitle(name);
    if (!titleNormalized && ref.issns.length === 0) return undefined;
    const cacheKey = `${ref.issns.join(',')}|${titleNormalized}`;
    if (this.cache.has(cacheKey)) return this.cache.get(cacheKey);
    const resolved = await this.lookup(name, titleNormalized, ref);
    this.cache.set(cacheKey, resolved);
    return resolved;
  }

  /** A journal already known under one of the ref's names (a tiered one first); never creates a row. */
  private async match(ref: JournalRef): Promise<ResolvedJournal | undefined> {
    const names = [ref.isPreprintServer ? '' : ref.name, ...(ref.alternativeNames ?? [])];
    for (const titleNormalized of new Set(names.map((name) => normalizeJournalTitle(cleanInline(name))))) {
      if (!titleNormalized) continue;
      const cacheKey = `match|${titleNormalized}`;
      if (!this.cache.has(cacheKey)) {
        const rows = await this.journals.findByTitleNormalized(titleNormalized);
        const row = rows.find((candidate) => candidate.tier !== null) ?? rows[0];
        this.cache.set(cacheKey, row ? toResolved(row) : undefined);
      }
      const found = this.cache.get(cacheKey);
      if (found) return found;
    }
    return undefined;
  }

  private async lookup(name: string, titleNormalized: string, ref: JournalRef): Promise<ResolvedJournal | undefined> {
    const [issn, eissn] = ref.issns;
    const byIssn = await this.journals.findByIssns(ref.issns);
    if (byIssn[0]) return toResolved(byIssn.find((row) => row.tier !== null) ?? byIssn[0]);
    if (titleNormalized) {
      const byTitle = await this.journals.findByTitleNormalized(titleNormalized);
      // A title match is trusted only when the stored journal's ISSNs do not say it is another journal.
      const match = byTitle.find((row) => ref.issns.length === 0 || (!row.issn && !row.eissn));
      if (match) {
        if (ref.issns.length) await this.journals.fillIssns(match.id, issn, eissn);
        return toResolved(match);
      }
    }
    if (!name) return undefined;
    const created = await this.journals.create({
      title: name,
      titleNormalized,
      issn: issn ?? null,
      eissn: eissn ?? null,
      publisher: ref.publisher ? truncateText(cleanInline(ref.publisher), 300) : null,
    });
    if (created) return toResolved(created);
    // A concurrent run created it first.
    const again = await this.journals.findByIssns(ref.issns);
    return again[0] ? toResolved(again[0]) : undefined;
  }
}
