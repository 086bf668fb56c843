/**
 * A command hook from a big host vs a small one: the same engine and hook (`true`) in a Node
 * process holding 1 GiB of touched memory and in one holding 50 MiB, the hook forked directly
 * and by the spawner helper (src/backends/spawner.ts). Each figure comes from fresh host
 * processes (host-size-child.ts); the four kinds of host take turns, round by round.
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { summarize } from '../stats.js';
import type { BenchOptions, Row } from '../harness.js';
import { scratch } from '../fixtures.js';

const run = promisify(execFile);
const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'host-size-child.js');

async function host(mib: number, mode: 'direct' | 'spawner', runs: number, cwd: string): Promise<{ samples: number[]; rssMiB: number }> {
  const { stdout } = await run(process.execPath, [CHILD, String(mib), mode, String(runs), cwd], {
    maxBuffer: 1024 * 1024,
    timeout: 300_000,
  });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as { samples: number[]; rssMiB: number };
}

export async function hostSizeSuite(opts: BenchOptions): Promise<Row[]> {
  const dir = scratch('host-size');
  try {
    const rounds = opts.quick ? 2 : 5;
    const runs = opts.quick ? 10 : 40;
    const kinds = [
      { mib: 1024, mode: 'direct' as const },
      { mib: 50, mode: 'direct' as const },
      { mib: 1024, mode: 'spawner' as const },
      { mib: 50, mode: 'spawner' as const },
    ];
    const got = kinds.map(() => ({ samples: [] as number[], rss: [] as number[] }));
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < kinds.length; k++) {
        const j = (k + r) % kinds.length;
        const res = await host(kinds[j]!.mib, kinds[j]!.mode, runs, dir.root);
        got[j]!.samples.push(...res.samples);
        got[j]!.rss.push(res.rssMiB);
      }
    }
    const s = got.map((g) => summarize(g.samples));
    const rss = got.map((g) => Math.max(...g.rss));
    const row = (name: string, a: number, b: number, goal?: number): Row => {
      const ratio = s[a]!.median / s[b]!.median;
      return {
        suite: 'host size',
        name,
        unit: 'ms',
        value: s[a]!.median,
        summary: s[a],
        baseline: { name: `${kinds[b]!.mode}, ${kinds[b]!.mib} MiB held`, value: s[b]!.median, summary: s[b] },
        ratio,
        ratioNote: 'of baseline',
        notes: [
          `host RSS ${rss[a]} MiB vs ${rss[b]} MiB (the engine's own ~100 MiB included)${goal ? `; goal ≤ ${goal}×: ${ratio <= goal ? 'met' : `missed by ${((ratio / goal - 1) * 100).toFixed(0)} %`}` : ''}`,
        ],
      };
    };
    return [
      row('command hook, host holding 1 GiB vs 50 MiB, direct spawn', 0, 1),
      row('command hook, host holding 1 GiB vs 50 MiB, through the spawner', 2, 3, 1.2),
      row('host holding 1 GiB: spawner vs direct spawn', 2, 0),
      row('host holding 50 MiB: spawner vs direct spawn', 3, 1),
    ];
  } finally {
    dir.cleanup();
  }
}
