#!/usr/bin/env node
// A/B of two builds in CPU instructions, for a machine shared with other work: valgrind's
// callgrind counts the instructions a process executes, which does not move with the load the
// way wall and CPU time do (docs/performance.md, "Comparing two builds"). V8 runs single-threaded
// (`--single-threaded`) so that compiler and GC threads do not make the count drift from run to
// run. In-process rows are per operation: (count after n operations − count after none) / n.
// Process rows count the whole `node` process (a hook it spawns is another process, not traced).
//
//   node scripts/bench-instructions.mjs --against ../old-checkout [--runs 3] [--only fn,dispatch]
//
// Both checkouts must be built (`npm run build`). Needs valgrind; not part of `npm run bench`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { against: { type: 'string' }, runs: { type: 'string', default: '3' }, only: { type: 'string' } },
});
if (!values.against) {
  process.stderr.write('usage: node scripts/bench-instructions.mjs --against <other checkout> [--runs N] [--only a,b]\n');
  process.exit(2);
}
const SIDES = [
  { name: 'other', root: resolve(values.against) },
  { name: 'this', root: resolve(new URL('..', import.meta.url).pathname) },
];
const RUNS = Number(values.runs);
const only = values.only?.split(',');

const tmp = mkdtempSync(join(tmpdir(), 'agent-hooks-instr-'));
const home = join(tmp, 'home');
const emptyHome = join(tmp, 'empty-home');
const cwd = join(tmp, 'cwd');
for (const d of [join(home, '.claude'), emptyHome, cwd]) mkdirSync(d, { recursive: true });
const oneHook = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } };
writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify(oneHook));
const settingsFile = join(tmp, 'one-hook.json');
writeFileSync(settingsFile, JSON.stringify(oneHook));
const payload = JSON.stringify({
  session_id: 's',
  transcript_path: '',
  cwd,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
  permission_mode: 'default',
  tool_use_id: 't1',
});

/** In-process workloads: a module body run with `n` operations; `api` is the side's dist/index.js. */
const IN_PROCESS = {
  'fn-hook': {
    title: '1 matching function hook, per event',
    body: `const e = api.createHookEngine({ projectDir: ${JSON.stringify(cwd)}, spawner: false });
      e.register({ event: 'PreToolUse', matcher: 'Bash', fn: () => ({}) });
      const input = { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's', cwd: ${JSON.stringify(cwd)}, transcript_path: '' };
      for (let i = 0; i < n; i++) await e.run('PreToolUse', input);
      await e.close?.();`,
    n: 10000,
  },
  'no-match': {
    title: 'no match among 1,000 hooks, per event',
    body: `const e = api.createHookEngine({ projectDir: ${JSON.stringify(cwd)}, spawner: false });
      for (let i = 0; i < 1000; i++) e.register({ event: 'PreToolUse', matcher: 'Tool' + i, fn: () => ({}) });
      const input = { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's', cwd: ${JSON.stringify(cwd)}, transcript_path: '' };
      await e.run('PreToolUse', input);
      for (let i = 0; i < n; i++) await e.run('PreToolUse', input);
      await e.close?.();`,
    n: 50000,
  },
  registrations: {
    title: '10,000 registrations then the first run, per registration',
    body: `const e = api.createHookEngine({ projectDir: ${JSON.stringify(cwd)}, spawner: false });
      for (let i = 0; i < n; i++) e.register({ event: 'PreToolUse', matcher: 'Tool' + i, fn: () => ({}) });
      await e.run('PreToolUse', { tool_name: 'Bash', tool_input: {}, session_id: 's', cwd: ${JSON.stringify(cwd)}, transcript_path: '' });
      await e.close?.();`,
    n: 10000,
  },
};

/** Whole-process workloads: argv after `node`, with the environment and stdin they need. */
const PROCESSES = {
  node: { title: 'node -e 0', args: () => ['-e', '0'] },
  'dispatch-none': {
    title: 'dispatch --agent claude, nothing to run',
    args: (root) => [binOf(root), 'dispatch', '--agent', 'claude'],
    env: { HOME: emptyHome },
    input: payload,
  },
  'dispatch-one': {
    title: 'dispatch --agent claude, 1 user-level command hook',
    args: (root) => [binOf(root), 'dispatch', '--agent', 'claude'],
    env: { HOME: home },
    input: payload,
  },
  'run-one': {
    title: 'run PreToolUse --settings <1 command hook>',
    args: (root) => [binOf(root), 'run', 'PreToolUse', '--settings', settingsFile, '--tool', 'Bash', '--input', '{"command":"ls"}'],
    env: { HOME: emptyHome },
  },
};

/** The package's executable under `root` (its name changed from bin.js to bin.cjs; either side may be older). */
function binOf(root) {
  return join(root, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).bin['agent-hooks']);
}

function instructions(args, { env = {}, input = '' } = {}) {
  // Fixed seeds: V8 randomises hash seeds and its RNG per process, which moved a count by a few
  // million instructions from run to run; with them the same run counts the same to ~0.01 %.
  const node = [process.execPath, '--single-threaded', '--random-seed=1', '--hash-seed=1'];
  const r = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', ...node, ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  const m = /Collected : (\d+)/.exec(r.stderr ?? '');
  if (!m) throw new Error(`valgrind gave no count (exit ${r.status}): ${(r.error?.message ?? r.stderr ?? '').slice(-500)}`);
  return Number(m[1]);
}

function inProcessArgs(root, body, n) {
  const api = JSON.stringify(`file://${join(root, 'dist/index.js')}`);
  return ['--input-type=module', '-e', `const api = await import(${api}); const n = ${n};\n${body}`];
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(1)} M` : x >= 1e3 ? `${(x / 1e3).toFixed(1)} k` : x.toFixed(0));

const rows = [];
try {
  for (const [key, w] of Object.entries(IN_PROCESS)) {
    if (only && !only.includes(key)) continue;
    const per = { other: [], this: [] };
    // Sides alternate within a round so that whatever drifts between rounds hits both.
    for (let r = 0; r < RUNS; r++)
      for (const side of r % 2 ? [...SIDES].reverse() : SIDES) {
        const zero = instructions(inProcessArgs(side.root, w.body, 0));
        const full = instructions(inProcessArgs(side.root, w.body, w.n));
        per[side.name].push((full - zero) / w.n);
      }
    rows.push({ key, title: w.title, other: median(per.other), this: median(per.this), spread: per });
  }
  for (const [key, w] of Object.entries(PROCESSES)) {
    if (only && !only.includes(key)) continue;
    const per = { other: [], this: [] };
    for (let r = 0; r < RUNS; r++)
      for (const side of r % 2 ? [...SIDES].reverse() : SIDES) per[side.name].push(instructions(w.args(side.root), w));
    rows.push({ key, title: w.title, other: median(per.other), this: median(per.this), spread: per });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const width = Math.max(...rows.map((r) => r.title.length));
process.stdout.write(
  `instructions (median of ${RUNS}; valgrind callgrind, node --single-threaded --random-seed=1 --hash-seed=1 ${process.version})\n`,
);
process.stdout.write(`${'workload'.padEnd(width)}  ${'other'.padStart(9)}  ${'this'.padStart(9)}  this ÷ other  (runs: other | this)\n`);
for (const r of rows) {
  const runs = `${r.spread.other.map(fmt).join(' ')} | ${r.spread.this.map(fmt).join(' ')}`;
  process.stdout.write(
    `${r.title.padEnd(width)}  ${fmt(r.other).padStart(9)}  ${fmt(r.this).padStart(9)}  ${(r.this / r.other).toFixed(3).padStart(11)}×  (${runs})\n`,
  );
}
process.stdout.write(`other: ${SIDES[0].root}\nthis:  ${SIDES[1].root}\n`);
