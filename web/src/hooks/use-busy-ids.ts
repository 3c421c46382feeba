import { useState } from 'react';

/** Which items have a request under way, so their cards can disable the buttons meanwhile. */
export function useBusyIds() {
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());

  const setBusy = (id: string, busy: boolean) =>
    setBusyIds((current) => {
      const next = new Set(current);
      if (busy) next.add(id);
      else next.delete(id);
      return next;
    });

  return { setBusy, isBusy: (id: string) => busyIds.has(id) };
}
