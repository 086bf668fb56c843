/**
 * A small benchmark harness. Why not tinybench or mitata: both run one task's iterations
 * in a block, while every figure here is a ratio whose two sides must share the machine's
 * noise, so the sides are interleaved pair by pair (A B, B A, A B, …) and the ratio is the
 * median of the per-pair ratios. Most rows also measure processes, memory and wall time,
 * which neither library models.
 */
import { execFileSync } from 'node:child_process';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pairedRatio, summarize, type Summary } from './stats.js';

export interface BenchOptions {
  quick: boolean;
}

/** What a row is judged against (a quality bar, docs/performance.md), when it has one. */
export interface Bar {
  /** As the bar is stated, e.g. "≤ 1.10× bare spawn". */
  text: string;
  pass: boolean;
}

export interface Row {
  /** Suite id (command, dispatch, …) and row label. */
  suite: string;
  name: string;
  unit: string;
  /** The figure: a median unless `kind` says otherwise. */
  value: number;
  summary?: Summary;
  baseline?: { name: string; value: number; summary?: Summary };
  /** value ÷ baseline (paired rows: median of per-pair ratios). */
  ratio?: number;
  ratioNote?: string;
  bar?: Bar;
  notes?: string[];
  /** Extra machine-readable figures for results.json. */
  extra?: Record<string, unknown>;
}

export interface Sides {
  a: number[];
  b: number[];
}

/**
 * Run measurements interleaved, one round at a time: each call returns one sample (a
 * duration or any figure); warm-up rounds are discarded. The order rotates every round
 * so that no side always runs first.
 */
export async function interleaveAll(
  sides: ReadonlyArray<() => Promise<number>>,
  opts: { warmup: number; runs: number },
): Promise<number[][]> {
  const out: number[][] = sides.map(() => []);
  const n = sides.length;
  for (let i = 0; i < opts.warmup + opts.runs; i++) {
    const round: number[] = new Array<number>(n);
    for (let k = 0; k < n; k++) {
      // Rotate the order every round: with two sides, A B, B A, A B, …
      const j = (k + i) % n;
      round[j] = await sides[j]!();
    }
    if (i >= opts.warmup)
      round.forEach((v, j) => {
        out[j]!.push(v);
      });
  }
  return out;
}

export async function interleave(
  a: () => Promise<number>,
  b: () => Promise<number>,
  opts: { warmup: number; runs: number },
): Promise<Sides> {
  const [sa, sb] = (await interleaveAll([a, b], opts)) as [number[], number[]];
  return { a: sa, b: sb };
}

/** Wall time of one async call, in ms. */
export async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Mean µs per call over a batch of `n` sequential awaited calls (for sub-µs operations). */
export function batchUs(fn: () => Promise<unknown> | unknown, n: number): () => Promise<number> {
  return async () => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    return ((performance.now() - t0) * 1000) / n;
  };
}

/**
 * How many sequential calls of `fn` take about `targetMs` (doubling from 16, then scaled):
 * batches long enough that timer resolution and loop overhead vanish, short enough that
 * many batches fit in the time budget. Doubles as warm-up.
 */
export async function calibrateBatch(fn: () => Promise<unknown> | unknown, targetMs: number): Promise<number> {
  let n = 16;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    const ms = performance.now() - t0;
    if (ms >= targetMs / 2 || n >= 1 << 22) return Math.max(1, Math.round((n * targetMs) / Math.max(ms, 1e-3)));
    n *= 2;
  }
}

/** A paired row: figure = median of side A, baseline = median of side B, ratio = median per-pair ratio. */
export function pairedRow(base: Omit<Row, 'value' | 'summary' | 'baseline' | 'ratio'> & { baselineName: string }, sides: Sides): Row {
  const { baselineName, ...rest } = base;
  const sa = summarize(sides.a);
  const sb = summarize(sides.b);
  return {
    ...rest,
    value: sa.median,
    summary: sa,
    baseline: { name: baselineName, value: sb.median, summary: sb },
    ratio: pairedRatio(sides.a, sides.b),
  };
}

export interface MachineInfo {
  cpuModel: string;
  nproc: number;
  memTotalGiB: number;
  memFreeGiB: number;
  node: string;
  platform: string;
  kernel: string;
  loadavg: number[];
}

export function machineInfo(): MachineInfo {
  let kernel = '';
  try {
    kernel = execFileSync('uname', ['-sr'], { encoding: 'utf8' }).trim();
  } catch {
    kernel = process.platform;
  }
  return {
    cpuModel: cpus()[0]?.model?.trim() ?? 'unknown',
    nproc: cpus().length,
    memTotalGiB: round(totalmem() / 2 ** 30, 1),
    memFreeGiB: round(freemem() / 2 ** 30, 1),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    kernel,
    loadavg: loadavg().map((l) => round(l, 2)),
  };
}

export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** A figure with 3 significant digits (at least one decimal below 100), or '—'. */
export function fmt(x: number | undefined, unit = ''): string {
  if (x === undefined || !Number.isFinite(x)) return '—';
  const abs = Math.abs(x);
  const s = abs >= 100 ? x.toFixed(0) : abs >= 10 ? x.toFixed(1) : abs >= 1 ? x.toFixed(2) : x.toFixed(3);
  return unit ? `${s} ${unit}` : s;
}

/** The printed table: one line per row, bars marked ok / MISS. */
export function formatTable(rows: readonly Row[]): string {
  const header = ['suite', 'row', 'figure', 'p10–p90', 'baseline', 'ratio', 'bar', ''];
  const lines = rows.map((r) => [
    r.suite,
    r.name,
    fmt(r.value, r.unit),
    r.summary && r.summary.n > 1 ? `${fmt(r.summary.p10)}–${fmt(r.summary.p90)}` : '',
    r.baseline ? `${fmt(r.baseline.value, r.unit)} ${r.baseline.name}` : '',
    r.ratio !== undefined ? `${fmt(r.ratio)}×${r.ratioNote ? ` ${r.ratioNote}` : ''}` : '',
    r.bar?.text ?? '',
    r.bar ? (r.bar.pass ? 'ok' : 'MISS') : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const out = [line(header), line(widths.map((w) => '-'.repeat(w)))];
  for (const l of lines) out.push(line(l));
  const notes = rows.flatMap((r) => (r.notes ?? []).map((n) => `  ${r.suite} / ${r.name}: ${n}`));
  if (notes.length) out.push('', 'notes:', ...notes);
  return `${out.join('\n')}\n`;
}
