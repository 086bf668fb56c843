/**
 * Output flood: a hook writes 500 MiB to stdout. Each measurement runs in a fresh Node
 * process (flood-child.ts) so earlier suites leave no garbage in the figure; the engine
 * and a bare spawn that reads and drops the same stream alternate.
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { summarize } from '../stats.js';
import type { BenchOptions, Row } from '../harness.js';
import { scratch } from '../fixtures.js';

const run = promisify(execFile);
const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'flood-child.js');
const MiB = 1024 * 1024;
/** 500 MiB: a little more than the 500 MB of the bar. */
const FLOOD_BYTES = 500 * MiB;

interface ChildResult {
  mode: string;
  ms: number;
  throughputMiBs: number;
  rssBeforeMiB: number;
  rssGrowthMiB: number;
  heapGrowthMiB: number;
  arrayBuffersGrowthMiB: number;
  highWaterMark: boolean;
  outcome: string;
  truncated: boolean;
}

async function measure(mode: Mode, cwd: string): Promise<ChildResult> {
  const { stdout } = await run(process.execPath, ['--expose-gc', CHILD, mode, String(FLOOD_BYTES), cwd], {
    maxBuffer: 1024 * 1024,
    timeout: 300_000,
  });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as ChildResult;
}

/** How the hook is forked: by the library's spawner helper (up), by the engine's own process, or a bare spawn. */
type Mode = 'spawner' | 'direct' | 'bare';

const LABEL: Record<Exclude<Mode, 'bare'>, string> = {
  spawner: 'library host, hook forked by its spawner helper (the default, once the helper is up)',
  direct: 'hook forked by the engine itself (the CLI; a library host until its helper is up)',
};

export async function floodSuite(opts: BenchOptions): Promise<Row[]> {
  const dir = scratch('flood');
  try {
    const results: Record<Mode, ChildResult[]> = { spawner: [], direct: [], bare: [] };
    const reps = opts.quick ? 1 : 3;
    const modes: Mode[] = ['spawner', 'direct', 'bare'];
    for (let i = 0; i < reps; i++) {
      // The order rotates per round, so no mode always runs after another.
      for (let k = 0; k < modes.length; k++) {
        const mode = modes[(i + k) % modes.length] as Mode;
        results[mode].push(await measure(mode, dir.root));
      }
    }
    const bare = results.bare;
    const bareGrowth = summarize(bare.map((r) => r.rssGrowthMiB));
    const bareTime = summarize(bare.map((r) => r.ms));
    const rows: Row[] = [];
    for (const mode of ['spawner', 'direct'] as const) {
      const engine = results[mode];
      const growth = summarize(engine.map((r) => r.rssGrowthMiB));
      const capped = engine.every((r) => r.truncated && r.outcome === 'success');
      rows.push({
        suite: 'flood',
        name: `500 MiB to stdout: engine RSS growth, ${LABEL[mode]}`,
        unit: 'MiB',
        value: growth.median,
        summary: growth,
        baseline: { name: 'bare spawn, data dropped', value: bareGrowth.median, summary: bareGrowth },
        ratio: bareGrowth.median > 0 ? growth.median / bareGrowth.median : undefined,
        ratioNote: 'of bare',
        // The bar says 20 MB: 20 × 10^6 bytes = 19.07 MiB.
        bar: { text: '≤ 20 MB (19.07 MiB) growth (max), capped', pass: (growth.max * MiB) / 1e6 <= 20 && capped },
        notes: [
          `max growth ${growth.max.toFixed(1)} MiB over ${reps} run(s); stdout capped: ${capped ? 'yes' : 'NO'}; heap growth ${summarize(engine.map((r) => r.heapGrowthMiB)).median.toFixed(1)} MiB; ` +
            `baseline RSS ${summarize(engine.map((r) => r.rssBeforeMiB)).median.toFixed(0)} MiB; ` +
            `throughput ${summarize(engine.map((r) => r.throughputMiBs)).median.toFixed(0)} MiB/s (bare ${summarize(bare.map((r) => r.throughputMiBs)).median.toFixed(0)} MiB/s)`,
        ],
        extra: { engine, bare },
      });
      const time = summarize(engine.map((r) => r.ms));
      rows.push({
        suite: 'flood',
        name: `500 MiB to stdout: time to drain, ${mode === 'spawner' ? 'spawner helper' : 'forked by the engine'}`,
        unit: 'ms',
        value: time.median,
        summary: time,
        baseline: { name: 'bare spawn, data dropped', value: bareTime.median, summary: bareTime },
        ratio: time.median / bareTime.median,
        ratioNote: 'of bare',
      });
    }
    return rows;
  } finally {
    dir.cleanup();
  }
}
