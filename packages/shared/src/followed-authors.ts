/*
 * Followed authors' limits and reason line, without zod: /papers shows them before anything there validates a
 * form, so its first cards need not load the schemas (followed-author.schema.ts holds those).
 */

/** Limits of followed authors (chosen here: docs/decisions.md "Followed authors"). */
export const FOLLOWED_AUTHOR_LIMITS = {
  /** Authors one reader follows at most. */
  perReader: 50,
  /** Papers of the /papers section at most (and of its folded namesakes). */
  sectionPapers: 10,
  /**
   * Papers the section shows before 展开: on a phone's first screen the recommendations must still
   * show below it (three one-line entries and the folded lines fit under the settings card).
   */
  sectionFirstScreen: 3,
  /** Authors a paper can list (the stored list is cut there too). */
  authorIndexMax: 499,
} as const;

/**
 * The reason line of a paper listed for authors the reader follows (/papers' section 关注的作者, the
 * digest mail, the Atom feed, robot pushes): the followed names as the paper gives them, and a warning
 * when every one of them matched by name alone.
 */
export function followedAuthorReasonText(
  authors: readonly { name: string; match: string; evidence?: string | undefined }[],
): string {
  const names = [...new Set(authors.map((author) => author.name))].join('、');
  const nameOnly = authors.length > 0 && authors.every((author) => author.match === 'name');
  if (!nameOnly) return `关注的作者：${names}`;
  const evidence = authors.find((author) => author.evidence)?.evidence;
  if (evidence === 'field') return `关注的作者：${names}（按姓名匹配，与关注时的论文同一研究领域）`;
  if (evidence === 'coauthor') return `关注的作者：${names}（按姓名匹配，与关注时的论文有共同作者）`;
  return `关注的作者：${names}（按姓名匹配，可能是同名作者）`;
}
