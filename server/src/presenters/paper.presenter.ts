import type { PaperView } from '@radar/db';
import type { Paper } from '@radar/shared';

/** The DOI as a link, for papers whose source gave no page of their own. */
export const doiLink = (doi: string) => `https://doi.org/${doi}`;

/** The Paper of the data model, as recommendations and article search return it. */
export function presentPaper(paper: PaperView): Paper {
  const year = paper.publishedAt ? Number(paper.publishedAt.slice(0, 4)) : null;
  const url = paper.url || (paper.doi ? doiLink(paper.doi) : '');
  return {
    id: String(paper.id),
    title: paper.title,
    authors: paper.authors,
    abstract: paper.abstract,
    date: paper.publishedAt,
    year: year !== null && Number.isFinite(year) ? year : null,
    journal: paper.journalName,
    keywords: paper.keywords,
    url,
    doi: paper.doi,
    pdf_url: paper.pdfUrl,
    // The second link of a paper published after its preprint; none when the card's link is the preprint.
    preprint_url: paper.preprintUrl && paper.preprintUrl !== url ? paper.preprintUrl : null,
    published_version: paper.journalVersionArrivedAt
      ? {
          journal: paper.journalName,
          doi: paper.doi,
          url: paper.doi ? doiLink(paper.doi) : url,
          arrived_at: paper.journalVersionArrivedAt.toISOString(),
        }
      : null,
    jcr: paper.jcrTier,
    jcr_source: paper.jcrTier === null ? null : paper.jcrSystem,
    jcr_year: paper.jcrTier === null ? null : paper.jcrYear,
    llm_summary: paper.llmSummary,
    is_favorited: paper.isFavorited,
    is_saved: paper.isSaved,
    rating: paper.rating,
    created_at: paper.createdAt.toISOString(),
    updated_at: paper.updatedAt.toISOString(),
  };
}
