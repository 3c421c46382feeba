import type { Keyword } from '@radar/shared';
import { useState } from 'react';

/**
 * The last keyword a dialog was opened for: while the dialog fades out (its keyword is already null)
 * it keeps showing that keyword's name instead of going blank.
 */
export function useLastKeyword(keyword: Keyword | null): Keyword | null {
  const [last, setLast] = useState(keyword);
  if (keyword && keyword !== last) setLast(keyword);
  return keyword ?? last;
}
