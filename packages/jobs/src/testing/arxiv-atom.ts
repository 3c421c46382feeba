/** A paper to write into a generated arXiv API answer. */
export interface ArxivAtomPaper {
  /** New-style arXiv id without version, e.g. `2611.00042`. */
  id: string;
  title: string;
  abstract: string;
  categories: string[];
  /** ISO date-time of the first version. */
  published: string;
  authors: string[];
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * An arXiv API answer (Atom, the format of export.arxiv.org/api/query and of files imported with
 * `pnpm radar ingest arxiv --file`) holding the given papers: test input built from labelled or
 * synthetic data, in the shape of the real answers in ../shared/fixtures/real/arxiv.
 */
export function arxivAtomFeed(papers: readonly ArxivAtomPaper[]): string {
  const entries = papers.map((paper) => {
    const [primary] = paper.categories;
    return `  <entry>
    <id>http://arxiv.org/abs/${paper.id}v1</id>
    <title>${escapeXml(paper.title)}</title>
    <updated>${paper.published}</updated>
    <link href="https://arxiv.org/abs/${paper.id}v1"/>
    <link href="https://arxiv.org/pdf/${paper.id}v1"/>
    <summary>${escapeXml(paper.abstract)}</summary>
${paper.categories.map((term) => `    <category term="${escapeXml(term)}" scheme="http://arxiv.org/schemas/atom"/>`).join('\n')}
    <published>${paper.published}</published>
    <arxiv:primary_category term="${escapeXml(primary ?? '')}"/>
${paper.authors.map((name) => `    <author>\n      <name>${escapeXml(name)}</name>\n    </author>`).join('\n')}
  </entry>`;
  });
  return `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">
  <id>https://arxiv.org/api/generated</id>
  <title>arXiv Query: generated test input</title>
  <updated>${papers[0]?.published ?? '2026-11-23T00:00:00Z'}</updated>
  <opensearch:itemsPerPage>${papers.length}</opensearch:itemsPerPage>
  <opensearch:totalResults>${papers.length}</opensearch:totalResults>
  <opensearch:startIndex>0</opensearch:startIndex>
${entries.join('\n')}
</feed>
`;
}
