import type { PaperView } from '@radar/db';
import type { Paper } from '@radar/shared';

/** The DOI as a link, for papers whose source gave no page of their own. */
export const doiLink = (doi: string) => `https://doi.org/${doi}`;

/** The Paper of spec section 3, as recommendations and article search return it. */
export function presentPaper(paper: PaperView): Paper {
  const year = paper.publishedAt ? Number(paper.publishedAt.slice(0, 4)) : null;
  return {
    id: String(paper.id),
    title: paper.title,
    authors: paper.authors,
    abstract: paper.abstract,
    date: paper.publishedAt,
    year: year !== null && Number.isFinite(year) ? year : null,
    journal: paper.journalName,
    keywords: paper.keywords,
    url: paper.url || (paper.doi ? doiLink(paper.doi) : ''),
    doi: paper.doi,
    pdf_url: paper.pdfUrl,
    jcr: paper.jcrTier,
    llm_summary: paper.llmSummary,
    is_favorited: paper.isFavorited,
    is_saved: paper.isSaved,
    created_at: paper.createdAt.toISOString(),
    updated_at: paper.updatedAt.toISOString(),
  };
}
