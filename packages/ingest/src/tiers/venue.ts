import { isBiorxivDoi } from '../text/identifiers';
import type { JournalRef, PaperDraft } from '../types';

/**
 * The venue a paper is stored under. Most come from the source (journal, feed title, arXiv); a
 * bioRxiv or medRxiv DOI (10.1101/2020.01.01.123456) overrides it, whatever the source, so a saved
 * bioRxiv feed imported as a journal feed does not create a journal called "bioRxiv Subject
 * Collection: Neuroscience" and its papers stay preprints (no tier). The server is the one the venue,
 * landing page or PDF link names; when none does, the venue says both.
 */
export function paperVenue(draft: PaperDraft, doi: string | undefined): JournalRef | undefined {
  if (!isBiorxivDoi(doi)) return draft.journal;
  const hints = [draft.journal?.name, draft.url, draft.pdfUrl].filter(Boolean).join(' ');
  const name = /medrxiv/i.test(hints) ? 'medRxiv' : /biorxiv/i.test(hints) ? 'bioRxiv' : 'bioRxiv/medRxiv';
  return { name, issns: [], isPreprintServer: true };
}
