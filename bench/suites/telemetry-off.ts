/**
 * What the telemetry hook-up costs when telemetry is off, on the in-process row of the dispatch
 * suite (1 matching function hook, PreToolUse). The two sides are two builds of the same
 * library, made here with esbuild from dist/ with identical settings: one as shipped, one with
 * the hook-up taken out (observeRun() in dist/telemetry/observe.js replaced by the identity),
 * so the only difference between them is the telemetry code path. Many interleaved rounds; the
 * figure is the median of per-round ratios with its interquartile range, and a 95 % interval of
 * that median from the order statistics (no normality assumed).
 */
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { batchUs, calibrateBatch, interleaveAll, pairedRow, round, type BenchOptions, type Row } from '../harness.js';
import { preToolUseInput } from '../fixtures.js';
import { quantile } from '../stats.js';

// bench/dist/suites → the package root.
const ROOT = join(import.meta.dirname, '..', '..', '..');

type Lib = typeof import('agent-hooks');

async function bundle(outfile: string, withoutHookup: boolean): Promise<Lib> {
  await build({
    entryPoints: [join(ROOT, 'dist', 'index.js')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.10',
    banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
    external: ['pg', '@opentelemetry/*'],
    logLevel: 'warning',
    plugins: [
      {
        name: 'telemetry-hookup',
        setup(b) {
          b.onLoad({ filter: /[\\/]dist[\\/]telemetry[\\/]observe\.js$/ }, (args) => {
            let src = readFileSync(args.path, 'utf8');
            if (withoutHookup) {
              if (!src.includes('export function observeRun('))
                throw new Error('telemetry-off bench: observeRun not found in dist/telemetry/observe.js');
              src =
                src.replace('export function observeRun(', 'function observeRunAsShipped(') +
                '\nexport function observeRun(run) { return run; }\n';
            }
            return { contents: src, loader: 'js' };
          });
        },
      },
    ],
  });
  return (await import(pathToFileURL(outfile).href)) as Lib;
}

function noop(): undefined {
  return undefined;
}

export async function telemetryOffSuite(opts: BenchOptions): Promise<Row[]> {
  // Inside the package, so the external optional peers resolve from its node_modules.
  const dir = join(ROOT, 'bench', 'dist', `telemetry-off-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  // Off the way a user has it: no AGENT_HOOKS_ENABLE_TELEMETRY, no audit sinks.
  delete process.env.AGENT_HOOKS_ENABLE_TELEMETRY;
  // Two copies of each build, loaded and interleaved A B B A: a copy's speed depends on when it
  // was loaded and JIT-compiled (the control row shows by how much), which this order balances.
  const order = [false, true, true, false];
  const libs: Lib[] = [];
  for (const [i, without] of order.entries())
    libs.push(await bundle(join(dir, `copy-${i}-${without ? 'absent' : 'shipped'}.mjs`), without));
  const cwd = process.cwd();
  const input = preToolUseInput(cwd);
  const engines = libs.map((lib) => {
    const e = lib.createHookEngine({ projectDir: cwd, cwd });
    e.register({ event: 'PreToolUse', matcher: 'Bash', name: 'one', fn: noop });
    return e;
  });
  for (const e of engines) {
    const d = await e.run('PreToolUse', input);
    if (d.hooks.length !== 1) throw new Error(`telemetry-off: expected 1 matched hook, got ${d.hooks.length}`);
  }
  const fire = engines.map((e) => () => e.run('PreToolUse', input));
  const targetMs = opts.quick ? 10 : 20;
  // Every side gets the same batch size, so a round compares equal numbers of events.
  let n = 0;
  for (const f of fire) n += await calibrateBatch(f, targetMs);
  n = Math.round(n / fire.length);
  const runs = opts.quick ? 60 : 400;
  const [s1, a1, a2, s2] = (await interleaveAll(
    fire.map((f) => batchUs(f, n)),
    { warmup: 10, runs },
  )) as [number[], number[], number[], number[]];
  // Per round, the mean of a build's two copies.
  const off = s1.map((x, i) => (x + s2[i]!) / 2);
  const without = a1.map((x, i) => (x + a2[i]!) / 2);
  for (const e of engines) await e.close();
  rmSync(dir, { recursive: true, force: true });

  const spread = (a: number[], b: number[]) => {
    const r = a.map((x, i) => x / b[i]!).sort((x, y) => x - y);
    // 95 % interval of the median from order statistics: ranks n/2 ± 1.96·√n/2.
    const half = (1.96 * Math.sqrt(r.length)) / 2;
    return {
      p25: quantile(r, 0.25),
      p75: quantile(r, 0.75),
      lo: r[Math.max(0, Math.floor(r.length / 2 - half))]!,
      hi: r[Math.min(r.length - 1, Math.ceil(r.length / 2 + half))]!,
    };
  };
  const pct = (r: number) => `${r >= 1 ? '+' : ''}${round((r - 1) * 100, 2)} %`;
  const describe = (ratio: number, s: ReturnType<typeof spread>) =>
    `median ratio ${pct(ratio)}, IQR ${pct(s.p25)} … ${pct(s.p75)}, 95 % interval of the median ${pct(s.lo)} … ${pct(s.hi)}`;
  const row = pairedRow(
    {
      suite: 'telemetry-off',
      name: '1 matching function hook, telemetry off',
      unit: 'µs',
      baselineName: 'same build, telemetry hook-up taken out',
      ratioNote: 'of without',
    },
    { a: off, b: without },
  );
  const s = spread(off, without);
  // The control: two identical builds of the shipped library. Its ratio is what two separately
  // loaded copies differ by on this machine at this moment (JIT, code placement, load from others).
  const control = pairedRow(
    {
      suite: 'telemetry-off',
      name: 'control: shipped copy 2 vs. shipped copy 1',
      unit: 'µs',
      baselineName: 'shipped copy 1',
      ratioNote: 'of copy 1',
    },
    { a: s2, b: s1 },
  );
  const c = spread(s2, s1);
  row.bar = { text: '≤ 1 % over no hook-up (upper end of the 95 % interval of the median ratio)', pass: s.hi <= 1.01 };
  row.notes = [
    `${runs} interleaved rounds of ${n} events per copy, 2 copies per build (A B B A): ${describe(row.ratio!, s)}`,
    `A/A control (the shipped build's two copies): ${describe(control.ratio!, c)}; a difference inside the control's spread is noise`,
  ];
  row.extra = {
    rounds: runs,
    batch: n,
    ratioP25: s.p25,
    ratioP75: s.p75,
    ratioCi95: [s.lo, s.hi],
    controlRatio: control.ratio,
    controlCi95: [c.lo, c.hi],
  };
  control.notes = [`${describe(control.ratio!, c)}`];
  return [row, control];
}
