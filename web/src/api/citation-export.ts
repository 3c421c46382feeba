import { API_PATHS, type ArticleLibraryList, apiPath, type CitationFormat } from '@radar/shared';
import { api, type DownloadedFile } from '@/lib/api-client';

/*
 * Citation files (BibTeX, RIS, CSL-JSON) of one paper or of the library: beyond the spec, so every
 * screen offers them only when GET /api/config/ names `citation_export` (useCanExportCitations).
 * Exported from paper cards on every screen and from /library, hence here and not in a feature.
 */

/** The menu's names of the formats, in menu order. */
export const CITATION_FORMAT_LABELS: Record<CitationFormat, string> = {
  bibtex: 'BibTeX',
  ris: 'RIS',
  csljson: 'CSL-JSON',
};

const EXTENSIONS: Record<CitationFormat, string> = { bibtex: 'bib', ris: 'ris', csljson: 'json' };

/**
 * Hands the file to the browser's download (an object URL on a link clicked at once). The API needs
 * the bearer token, so a plain link to it cannot download.
 */
function saveFile(file: DownloadedFile, fallbackName: string) {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.contentType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** GET /articles/{id}/export/?format=: downloads one paper's citation file. */
export async function downloadPaperCitation(id: string, format: CitationFormat): Promise<void> {
  const file = await api.download(apiPath(API_PATHS.articleExport, { id }), { query: { format } });
  saveFile(file, `radar-paper-${id}.${EXTENSIONS[format]}`);
}

/** GET /articles/library/export/?format=&list=: downloads the favourites, the saved papers or both. */
export async function downloadLibraryCitations(list: ArticleLibraryList, format: CitationFormat): Promise<void> {
  const file = await api.download(API_PATHS.articleLibraryExport, { query: { format, list } });
  saveFile(file, `radar-${list}.${EXTENSIONS[format]}`);
}
