/**
 * 加载更多 on the recommendation lists (beyond the spec): the page asks again with the ids it shows in
 * `exclude_ids` and appends what comes back. These are the rules both pages share: the appended list
 * (each id once), the query that asks for the next items, and whether to offer the button.
 */

/**
 * At most this many ids go in `exclude_ids` (the API refuses more: RECOMMENDATION_PAGING.maxShown in
 * @radar/shared, a zod module the app does not import at run time). A list this long offers no more.
 */
export const MAX_SHOWN_IDS = 500;

/** The items of the first answer and of every appended one, in the order they came, each id once. */
export function appendPages<T extends { id: string }>(pages: readonly (readonly T[])[]): T[] {
  const seen = new Set<string>();
  const items: T[] = [];
  for (const page of pages) {
    for (const item of page) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
  }
  return items;
}

/** The query that asks for the items after `shownIds` (nothing for the first answer). */
export function excludeIdsQuery(shownIds: readonly string[]): { exclude_ids?: string } {
  return shownIds.length > 0 ? { exclude_ids: shownIds.join(',') } : {};
}

/**
 * What the list's foot shows: 'more' (the button 加载更多), 'end' (没有更多了, once something was appended)
 * or 'none'. Only an answer that says `has_more: true` offers more, so a backend that answers only the
 * spec's fields (no has_more, and no exclude_ids either: it would answer the same items again) shows no
 * button. An appended answer that brought nothing new ends the list too (a backend that says has_more
 * but ignores exclude_ids), and so does a list of MAX_SHOWN_IDS items.
 */
export function loadMoreState(
  pages: ReadonlyArray<{ ids: readonly string[]; hasMore: boolean | undefined }>,
): 'more' | 'end' | 'none' {
  const last = pages.at(-1);
  if (!last) return 'none';
  const isAppended = pages.length > 1;
  const earlier = new Set(pages.slice(0, -1).flatMap((page) => page.ids));
  const shown = new Set([...earlier, ...last.ids]);
  const broughtNothing = isAppended && last.ids.every((id) => earlier.has(id));
  if (last.hasMore === true && !broughtNothing && shown.size < MAX_SHOWN_IDS) return 'more';
  return isAppended ? 'end' : 'none';
}
