/**
 * Long loops in a process that also serves (embedded mode's HTTP server, the database's answers of a
 * pipeline) call the returned function often; it gives the event loop a turn (setImmediate, so I/O
 * callbacks run) once `everyMs` have passed since the last turn, and otherwise returns at once.
 */
export function createYielder(everyMs = 20): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < everyMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    last = performance.now();
  };
}

export type Yielder = () => Promise<void>;
