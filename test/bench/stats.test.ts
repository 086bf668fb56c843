import { describe, expect, it } from 'vitest';
import { median, pairedRatio, quantile, summarize } from '../../bench/stats.js';
import { formatTable, interleaveAll } from '../../bench/harness.js';

describe('bench statistics', () => {
  it('median and quantiles interpolate between ranks and ignore input order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(quantile([10, 0], 0.1)).toBeCloseTo(1);
    expect(Number.isNaN(median([]))).toBe(true);
    expect(summarize([5, 1, 9])).toMatchObject({ n: 3, median: 5, min: 1, max: 9 });
  });

  it('the paired ratio is the median of per-pair ratios', () => {
    // The machine slows down for the last pairs (noise hitting both sides); A stays 1.1 × B, except one outlier.
    const b = [10, 10, 10, 20, 20];
    const a = [11, 11, 50, 22, 22];
    expect(pairedRatio(a, b)).toBeCloseTo(1.1);
    expect(pairedRatio([1, 2], [0, 1])).toBe(2); // a zero baseline is skipped, not infinite
  });

  it('interleaving rotates the order every round and drops warm-up rounds', async () => {
    const order: string[] = [];
    const side = (name: string, value: number) => async () => {
      order.push(name);
      return value;
    };
    const out = await interleaveAll([side('a', 1), side('b', 2)], { warmup: 1, runs: 2 });
    expect(order).toEqual(['a', 'b', 'b', 'a', 'a', 'b']);
    expect(out).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it('the table marks missed bars and lists notes', () => {
    const text = formatTable([
      { suite: 's', name: 'fast', unit: 'µs', value: 0.5, bar: { text: '≤ 1 µs', pass: true } },
      {
        suite: 's',
        name: 'slow',
        unit: 'µs',
        value: 7,
        baseline: { name: 'floor', value: 1 },
        ratio: 7,
        bar: { text: '≤ 5 µs', pass: false },
        notes: ['why'],
      },
    ]);
    expect(text).toMatch(/fast .*0\.500 µs.*ok/);
    expect(text).toMatch(/slow .*7\.00 µs.*1\.00 µs floor.*7\.00×.*MISS/);
    expect(text).toContain('s / slow: why');
  });
});
