/**
 * Ten parallel 100 ms command hooks (PostToolUse runs its hooks in parallel) under
 * maxConcurrentHooks = 10 and = 2. The wall time must show the bound: about
 * ⌈10 / limit⌉ × 100 ms. The peak of engine.concurrency.active is sampled every 2 ms.
 */
import { performance } from 'node:perf_hooks';
import { createHookEngine, loadConfig } from 'agent-hooks';
import { interleaveAll, type BenchOptions, type Row } from '../harness.js';
import { summarize } from '../stats.js';
import { preToolUseInput, scratch } from '../fixtures.js';

const HOOKS = 10;
const HOOK_MS = 100;

export async function concurrencySuite(opts: BenchOptions): Promise<Row[]> {
  const dir = scratch('concurrency');
  try {
    // A comment makes each command unique: identical hooks would be deduplicated into one.
    const hooks = Array.from({ length: HOOKS }, (_, i) => ({ type: 'command', command: `sleep ${HOOK_MS / 1000} # hook ${i}` }));
    const config = await loadConfig({
      cwd: dir.root,
      discover: false,
      settingsFiles: [JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Bash', hooks }] } })],
    });
    if (config.hooks.length !== HOOKS) throw new Error(`concurrency suite: expected ${HOOKS} hooks, got ${config.hooks.length}`);
    const input = { ...preToolUseInput(dir.root), tool_response: { stdout: '', exit_code: 0 } };
    const limits = [10, 2];
    const peaks = limits.map(() => 0);
    const engines = limits.map((limit) =>
      createHookEngine({ hooks: config.hooks, projectDir: dir.root, cwd: dir.root, maxConcurrentHooks: limit }),
    );
    const sides = engines.map((engine, i) => async () => {
      let peak = 0;
      const sampler = setInterval(() => {
        peak = Math.max(peak, engine.concurrency.active);
      }, 2);
      const t0 = performance.now();
      const d = await engine.run('PostToolUse', input);
      const ms = performance.now() - t0;
      clearInterval(sampler);
      peaks[i] = Math.max(peaks[i]!, peak);
      if (d.hooks.length !== HOOKS || d.hooks.some((h) => h.outcome !== 'success')) {
        throw new Error(`concurrency suite: hooks failed: ${JSON.stringify(d.hooks.filter((h) => h.outcome !== 'success').slice(0, 2))}`);
      }
      return ms;
    });
    const samples = await interleaveAll(sides, { warmup: 1, runs: opts.quick ? 3 : 10 });
    for (const e of engines) await e.close();
    return limits.map((limit, i) => {
      const s = summarize(samples[i]!);
      const ideal = Math.ceil(HOOKS / limit) * HOOK_MS;
      // The bound shows when no more than `limit` ran at once and the waves add up.
      const pass = peaks[i]! <= limit && s.min >= ideal;
      return {
        suite: 'concurrency',
        name: `10 × 100 ms hooks, maxConcurrentHooks = ${limit}`,
        unit: 'ms',
        value: s.median,
        summary: s,
        baseline: { name: `ideal ⌈10/${limit}⌉×100`, value: ideal },
        ratio: s.median / ideal,
        ratioNote: 'of ideal',
        bar: { text: `peak ≤ ${limit}, wall ≥ ${ideal} ms`, pass },
        notes: [
          `peak concurrency ${peaks[i]}; per-wave overhead ${((s.median - ideal) / Math.ceil(HOOKS / limit)).toFixed(1)} ms (spawn of sh + sleep)`,
        ],
      };
    });
  } finally {
    dir.cleanup();
  }
}
