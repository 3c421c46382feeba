import { useCallback, useEffect, useState } from 'react';
import { msUntilNextTick, secondsUntil } from '@/lib/countdown';

/**
 * Whole seconds until `deadline` (epoch ms), re-rendering each time the value changes (countdowns tick
 * each second); 0 without a deadline or once it has passed. It counts towards a
 * deadline rather than decrementing a number, so a throttled background tab shows the right value
 * when it wakes up.
 */
export function useSecondsUntil(deadline: number | null): number {
  // Only a re-render trigger: the value is read from the clock at render, so a new deadline shows
  // its true value at once instead of one computed against the time of the previous tick.
  const [, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (deadline === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const current = Date.now();
      setNow(current);
      const wait = msUntilNextTick(deadline, current);
      // A few ms late, so the tick lands after the boundary and not just before it.
      if (wait > 0) timer = setTimeout(tick, wait + 5);
    };
    tick();
    return () => clearTimeout(timer);
  }, [deadline]);

  return deadline === null ? 0 : secondsUntil(deadline, Date.now());
}

export type Countdown = {
  /** Whole seconds left; 0 when stopped or finished. */
  seconds: number;
  isRunning: boolean;
  /** (Re)starts from `seconds`; 0 or less stops it. */
  start: (seconds: number) => void;
  stop: () => void;
};

/** A countdown started on demand, e.g. with the `remaining_seconds` of a 429. */
export function useCountdown(): Countdown {
  const [deadline, setDeadline] = useState<number | null>(null);
  const seconds = useSecondsUntil(deadline);
  const start = useCallback((from: number) => setDeadline(from > 0 ? Date.now() + from * 1000 : null), []);
  const stop = useCallback(() => setDeadline(null), []);
  return { seconds, isRunning: seconds > 0, start, stop };
}
