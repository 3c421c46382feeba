/**
 * Recommendations drawn from each of a reader's interests in proportion to its quota, so that a dominant
 * topic cannot crowd the others out: every interest ranks its own candidates, and the list is filled
 * slot by slot from the interest furthest below its share (fewest picks for its quota; the earlier
 * interest on a tie, so the research summary leads). An item two interests found counts for the one
 * that picks it first; an interest that runs out of candidates leaves its slots to the others.
 */

export interface InterestList<Item> {
  /** The interest's key (stable across calls). */
  key: string;
  /** Its weight (> 0): its share of the list is quota / sum of quotas. */
  quota: number;
  /** Its candidates, best first. */
  items: readonly Item[];
}

export interface InterleavedItem<Item> {
  item: Item;
  /** The interest it was drawn for. */
  key: string;
}

export function interleaveByQuota<Item>(
  lists: readonly InterestList<Item>[],
  topK: number,
  idOf: (item: Item) => number,
): InterleavedItem<Item>[] {
  const taken = new Set<number>();
  const picks = lists.map(() => 0);
  const next = lists.map(() => 0);
  const result: InterleavedItem<Item>[] = [];
  const advance = (index: number) => {
    const list = lists[index] as InterestList<Item>;
    while ((next[index] as number) < list.items.length && taken.has(idOf(list.items[next[index] as number] as Item)))
      next[index] = (next[index] as number) + 1;
    return (next[index] as number) < list.items.length;
  };
  while (result.length < topK) {
    let best = -1;
    let bestLoad = Number.POSITIVE_INFINITY;
    for (let index = 0; index < lists.length; index++) {
      const quota = Math.max((lists[index] as InterestList<Item>).quota, Number.MIN_VALUE);
      if (!advance(index)) continue;
      // The share this interest would have after one more pick: the lowest is furthest below its quota.
      const load = ((picks[index] as number) + 1) / quota;
      if (load < bestLoad) {
        best = index;
        bestLoad = load;
      }
    }
    if (best < 0) break;
    const list = lists[best] as InterestList<Item>;
    const item = list.items[next[best] as number] as Item;
    taken.add(idOf(item));
    picks[best] = (picks[best] as number) + 1;
    result.push({ item, key: list.key });
  }
  return result;
}
