/**
 * `npm run bench [-- --quick] [-- --only suite,suite]`: runs every suite, prints one table
 * and writes bench/results.json. BENCH_QUICK=1 is the same as --quick (fewer iterations,
 * every row still measured; for CI).
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { formatTable, machineInfo, round, type BenchOptions, type Row } from './harness.js';
import { commandSuite } from './suites/command.js';
import { dispatchSuite } from './suites/dispatch.js';
import { configLoadSuite } from './suites/config-load.js';
import { timeoutSuite } from './suites/timeout.js';
import { floodSuite } from './suites/flood.js';
import { concurrencySuite } from './suites/concurrency.js';
import { coldStartSuite } from './suites/cold-start.js';
import { matchingSuite } from './suites/matching.js';
import { startupSuite } from './suites/startup.js';
import { hostSizeSuite } from './suites/host-size.js';
import { teamsSuite } from './suites/teams.js';
import { telemetryOffSuite } from './suites/telemetry-off.js';

type Suite = { id: string; title: string; run: (opts: BenchOptions) => Promise<Row[]> };

const SUITES: Suite[] = [
  { id: 'command', title: 'command hook vs bare spawn', run: commandSuite },
  { id: 'dispatch', title: 'in-process dispatch', run: dispatchSuite },
  { id: 'config', title: 'config load of 1,000 hooks', run: configLoadSuite },
  { id: 'timeout', title: 'timeout with a grandchild holding stdout', run: timeoutSuite },
  { id: 'flood', title: '500 MiB output flood', run: floodSuite },
  { id: 'concurrency', title: 'maxConcurrentHooks bound', run: concurrencySuite },
  { id: 'cold', title: 'CLI cold start', run: coldStartSuite },
  { id: 'matching', title: 'linear-time matching and registry', run: matchingSuite },
  { id: 'startup', title: 'dispatch and run with a hook to run', run: startupSuite },
  { id: 'hostsize', title: 'command hook from a 1 GiB host', run: hostSizeSuite },
  { id: 'teams', title: 'telemetry cost; policy server at 1 and 2 instances', run: teamsSuite },
  { id: 'telemetry-off', title: 'telemetry off vs. no telemetry hook-up', run: telemetryOffSuite },
];

async function main(argv: string[]): Promise<number> {
  // `npm run bench | head` closes the pipe: stop quietly.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  const quick = argv.includes('--quick') || process.env.BENCH_QUICK === '1';
  const onlyArg = argv.find((a) => a.startsWith('--only='))?.slice('--only='.length) ?? argv[argv.indexOf('--only') + 1];
  const only = argv.some((a) => a === '--only' || a.startsWith('--only=')) && onlyArg ? new Set(onlyArg.split(',')) : undefined;
  const unknown = only ? [...only].filter((id) => !SUITES.some((s) => s.id === id)) : [];
  if (unknown.length) {
    process.stderr.write(`bench: unknown suite(s) ${unknown.join(', ')}; suites: ${SUITES.map((s) => s.id).join(', ')}\n`);
    return 1;
  }
  const opts: BenchOptions = { quick };
  const machineBefore = machineInfo();
  process.stdout.write(
    `agent-hooks bench (${quick ? 'quick' : 'full'}) on ${machineBefore.cpuModel}, ${machineBefore.nproc} cpu, ` +
      `${machineBefore.memTotalGiB} GiB, node ${machineBefore.node}, load ${machineBefore.loadavg.join(' ')}\n`,
  );
  const t0 = performance.now();
  const rows: Row[] = [];
  const failures: string[] = [];
  for (const suite of SUITES) {
    if (only && !only.has(suite.id)) continue;
    const ts = performance.now();
    process.stdout.write(`  ${suite.id}: ${suite.title} … `);
    try {
      const got = await suite.run(opts);
      const load = loadavg()[0]!;
      for (const r of got) r.extra = { ...r.extra, loadavg1: round(load, 2) };
      rows.push(...got);
      process.stdout.write(`${((performance.now() - ts) / 1000).toFixed(1)} s (load ${load.toFixed(2)})\n`);
    } catch (err) {
      failures.push(`${suite.id}: ${(err as Error)?.stack ?? String(err)}`);
      process.stdout.write('FAILED\n');
    }
  }
  const totalS = (performance.now() - t0) / 1000;
  process.stdout.write(`\n${formatTable(rows)}`);
  const missed = rows.filter((r) => r.bar && !r.bar.pass);
  process.stdout.write(
    `\n${rows.filter((r) => r.bar).length - missed.length}/${rows.filter((r) => r.bar).length} bars met` +
      `${missed.length ? ` (missed: ${missed.map((r) => `${r.suite} / ${r.name}`).join('; ')})` : ''}; ${totalS.toFixed(1)} s\n`,
  );
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'results.json');
  writeFileSync(
    out,
    `${JSON.stringify({ mode: quick ? 'quick' : 'full', date: new Date().toISOString(), durationS: round(totalS, 1), machine: machineBefore, loadavgAfter: machineInfo().loadavg, rows, failures }, null, 2)}\n`,
  );
  process.stdout.write(`results: ${out}\n`);
  for (const f of failures) process.stderr.write(`bench suite failed: ${f}\n`);
  // Missed bars are findings, not failures: the exit code reports only broken suites.
  return failures.length ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
