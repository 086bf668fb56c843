/**
 * Timeout precision: hooks whose descendants hold stdout open, timeout 1 s. The figure is
 * how long engine.run() takes to return; afterwards /proc is searched for any process of
 * the hook's tree (every command line carries a unique token), at return and 1 s later.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createHookEngine, loadConfig } from 'agent-hooks';
import { summarize } from '../stats.js';
import type { BenchOptions, Row } from '../harness.js';
import { preToolUseInput, scratch } from '../fixtures.js';

/** Live processes whose command line contains `token` (zombies have an empty cmdline). */
export function processesWith(token: string): number[] {
  const found: number[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'latin1');
      if (cmdline.includes(token)) found.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

const VARIANTS = [
  { name: 'grandchild holds stdout, hook waits', script: (t: string) => `sleep ${t} & wait`, expect: 'timeout' },
  { name: 'grandchild escaped with setsid holds stdout', script: (t: string) => `setsid sleep ${t} & wait`, expect: 'timeout' },
  { name: 'hook exits, grandchild holds stdout', script: (t: string) => `sleep ${t} &`, expect: 'success' },
];

/** The leftover search must be able to see a process: look for one we started ourselves. */
async function selfCheck(): Promise<void> {
  const token = `${randomInt(40, 90)}.${randomInt(100000, 999999)}`;
  const child = spawn('sleep', [token], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  const seen = processesWith(token);
  child.kill('SIGKILL');
  if (!seen.includes(child.pid!))
    throw new Error(`timeout suite: /proc search did not find pid ${child.pid} (found ${seen.join(',') || 'nothing'})`);
}

export async function timeoutSuite(opts: BenchOptions): Promise<Row[]> {
  if (process.platform !== 'linux') throw new Error('timeout suite: needs /proc (Linux)');
  const dir = scratch('timeout');
  const rows: Row[] = [];
  try {
    await selfCheck();
    const input = preToolUseInput(dir.root);
    const reps = opts.quick ? 1 : 3;
    for (const v of VARIANTS) {
      const times: number[] = [];
      let leftAtReturn = 0;
      let leftAfter = 0;
      const outcomes = new Set<string>();
      for (let r = 0; r < reps; r++) {
        // A sleep duration nobody else uses doubles as the tree's marker in /proc.
        const token = `${randomInt(40, 90)}.${randomInt(100000, 999999)}`;
        const config = await loadConfig({
          cwd: dir.root,
          discover: false,
          settingsFiles: [
            JSON.stringify({
              hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: v.script(token), timeout: 1 }] }] },
            }),
          ],
        });
        const engine = createHookEngine({ hooks: config.hooks, projectDir: dir.root, cwd: dir.root });
        const t0 = performance.now();
        const decision = await engine.run('PreToolUse', input);
        times.push(performance.now() - t0);
        const atReturn = processesWith(token);
        leftAtReturn += atReturn.length;
        outcomes.add(decision.hooks[0]?.outcome ?? 'none');
        await engine.close();
        await sleep(1000);
        const after = processesWith(token);
        leftAfter += after.length;
        // Whatever the engine left behind, the bench started it: clean it up.
        for (const pid of after) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
      const s = summarize(times);
      const pass = s.max <= 1200 && leftAtReturn === 0 && leftAfter === 0 && outcomes.size === 1 && outcomes.has(v.expect);
      rows.push({
        suite: 'timeout',
        name: `timeout 1 s: ${v.name}`,
        unit: 'ms',
        value: s.median,
        summary: s,
        baseline: { name: 'timeout', value: 1000 },
        ratio: s.median / 1000,
        ratioNote: 'of timeout',
        bar: { text: '≤ 1.2 s (max), no process left', pass },
        notes: [
          `max ${s.max.toFixed(0)} ms over ${reps} run(s); outcome ${[...outcomes].join('/')} (expected ${v.expect}); processes left: ${leftAtReturn} at return, ${leftAfter} after 1 s`,
        ],
        extra: { leftAtReturn, leftAfter, outcomes: [...outcomes], samples: times },
      });
    }
    return rows;
  } finally {
    dir.cleanup();
  }
}
