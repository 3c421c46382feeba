/**
 * Runs `work` on every item, at most `limit` at a time (the jobs' readers: one reader's database
 * statements overlap another's mail).
 */
export async function forEachInFlight<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
