/** Pure statistics for the benchmark harness (no I/O, unit-tested). */

/** The q-quantile (0..1) by linear interpolation between closest ranks; NaN for no samples. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (pos - lo);
}

export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

export interface Summary {
  n: number;
  median: number;
  p10: number;
  p90: number;
  min: number;
  max: number;
}

export function summarize(samples: readonly number[]): Summary {
  return {
    n: samples.length,
    median: median(samples),
    p10: quantile(samples, 0.1),
    p90: quantile(samples, 0.9),
    min: samples.length ? Math.min(...samples) : Number.NaN,
    max: samples.length ? Math.max(...samples) : Number.NaN,
  };
}

/**
 * Median of the per-pair ratios a[i] / b[i]. The two sides of a pair ran back to back, so
 * noise that lasts longer than one pair (another process, frequency scaling) cancels out.
 */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) {
    const bi = b[i] as number;
    if (bi > 0) ratios.push((a[i] as number) / bi);
  }
  return median(ratios);
}
