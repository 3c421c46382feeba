/**
 * Which of a reader's interests a signal teaches (issue 23). With several interests, the learned
 * profile and the classifier order only the research summary's candidates; trained on every 👍 they pull
 * the summary's slots toward the other interests' papers, which then fill two interests' slots while
 * the summary's own topic falls below its quota (docs/benchmarks.md, "Issue 23: quotas by label"). So
 * a signal teaches the interest its item is most similar to (cosine), the summary on a tie, and the
 * summary learns from its own signals only. With no other interest every signal is the summary's.
 */
export function signalsOfSummary<Signal>(
  summary: readonly number[],
  otherInterests: readonly (readonly number[])[],
  signals: readonly Signal[],
  vectorOf: (signal: Signal) => readonly number[],
): Signal[] {
  const others = otherInterests.filter((vector) => vector.length === summary.length);
  if (others.length === 0) return [...signals];
  return signals.filter((signal) => {
    const vector = vectorOf(signal);
    if (vector.length !== summary.length) return true;
    const toSummary = cosine(summary, vector);
    return others.every((other) => !(cosine(other, vector) > toSummary));
  });
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA > 0 && normB > 0 ? dot / Math.sqrt(normA * normB) : 0;
}
