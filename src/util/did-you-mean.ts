/** "Did you mean" hints: the closest of a set of known names to a misspelled one. */

function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Closest candidate: same name ignoring case, else within max(2, len/3) edits. */
export function closest(word: string, candidates: readonly string[], maxDistance?: number): string | undefined {
  const lower = word.toLowerCase();
  const sameCase = candidates.find((c) => c.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  const limit = maxDistance ?? Math.max(2, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDist = Infinity;
  for (const c of candidates) {
    // Length difference is a lower bound of the distance; skips hopeless (and huge) keys cheaply.
    if (Math.abs(c.length - word.length) > limit) continue;
    const d = levenshtein(lower, c.toLowerCase());
    if (d <= limit && d < bestDist) {
      best = c;
      bestDist = d;
    }
  }
  return best;
}
