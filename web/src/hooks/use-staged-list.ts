import { startTransition, useEffect, useState } from 'react';

/** Cards of a recommendation list in its first commit: more than a 1280x800 window shows. */
export const FIRST_STAGE_SIZE = 4;

/**
 * A list rendered in two steps when it first appears: its first `firstCount` items, then, in a
 * transition the browser may interrupt to paint, all of them. Rendering 20 cards with MUI took most of
 * the time between a list's answer and its first painted card on a busy 2-core machine; the reader
 * sees the top of the list first either way. Later changes (加载更多, an item leaving) render at once.
 * `isComplete` tells tests and assistive code when every item is in the document.
 */
export function useStagedList<T>(items: readonly T[], firstCount = FIRST_STAGE_SIZE) {
  const [limit, setLimit] = useState(firstCount);
  const isComplete = items.length <= limit;
  useEffect(() => {
    if (!isComplete) startTransition(() => setLimit(Number.POSITIVE_INFINITY));
  }, [isComplete]);
  return { shown: isComplete ? items : items.slice(0, limit), isComplete };
}
