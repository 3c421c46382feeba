import { startTransition, useEffect, useState } from 'react';

/** Cards of a recommendation list in its first commit: more than a 1280x800 window shows. */
const FIRST_STAGE_SIZE = 4;

/**
 * A list rendered in two steps when it first appears: its first `firstCount` items, then, in a
 * transition the browser may interrupt to paint, all of them. Rendering 20 cards with MUI was a large
 * part of the time between a list's answer and its first painted card on a busy 2-core machine, and the
 * reader sees the top of the list first either way. Later changes (加载更多, an item leaving) render at
 * once. `isComplete` says when every item is in the document (the lists' `data-complete`, for tests).
 */
export function useStagedList<T>(items: readonly T[], firstCount = FIRST_STAGE_SIZE) {
  const [isFirstStage, setIsFirstStage] = useState(true);
  // Once after mounting, whatever the length: a short list that 加载更多 lengthens shows it all at once.
  useEffect(() => startTransition(() => setIsFirstStage(false)), []);
  const isComplete = !isFirstStage || items.length <= firstCount;
  return { shown: isComplete ? items : items.slice(0, firstCount), isComplete };
}
