/**
 * `dispatch` and `run` with a hook to run, against the floor of running it without us:
 * `node -e 0` followed by the hook itself (`sh -c true`), in one round each, interleaved.
 * Two reference rows, not goals: a minimal Node dispatcher, and a fresh Node that only spawns
 * the hook. Also dispatch in a trusted project whose settings reference 50 scripts of 1 MB each
 * (hooks of another event), against the same trusted project without them, and against the
 * same 50 hooks with one-line scripts: what the trust gate costs per event for scripts (and
 * hooks) the event does not run. The scripts are made more than a
 * second before the first dispatch, as a real session's are: src/trust/hash.ts does not cache
 * the hash of a file changed within the last second.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleave, interleaveAll, pairedRow, timeMs, type BenchOptions, type Row } from '../harness.js';
import { pairedRatio, summarize } from '../stats.js';
import { scratch, type Scratch } from '../fixtures.js';

function cliPath(): string {
  const root = dirname(fileURLToPath(import.meta.resolve('agent-hooks/package.json')));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  return join(root, pkg.bin['agent-hooks']!);
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, stdin = '', okCodes = [0]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      okCodes.includes(code ?? -1) ? resolve() : reject(new Error(`${file} ${args.join(' ')} exited ${code}: ${err.trim()}`)),
    );
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

const HOOK = { type: 'command', command: 'true' };
const preToolUse = (cwd: string) =>
  JSON.stringify({
    session_id: 'startup',
    transcript_path: '',
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
  });

/** A trusted project: one PreToolUse hook, plus `scripts` PostToolUse hooks running scripts of 1 MB (or one line). */
function trustedProject(dir: Scratch, name: string, scripts: number, bytes: 'MB' | 'line' = 'MB'): string {
  const proj = dir.path(name);
  mkdirSync(join(proj, 'hooks'), { recursive: true });
  const post = [];
  for (let i = 0; i < scripts; i++) {
    // 1 MB of comment lines, then the command: a real script the gate must hash.
    writeFileSync(join(proj, 'hooks', `s${i}.sh`), `${bytes === 'MB' ? `# ${'x'.repeat(1021)}\n`.repeat(1024) : ''}true\n`);
    post.push({ type: 'command', command: `sh ./hooks/s${i}.sh` });
  }
  dir.json(`${name}/.claude/settings.json`, {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [HOOK] }], ...(scripts ? { PostToolUse: [{ matcher: '*', hooks: post }] } : {}) },
  });
  return proj;
}

export async function startupSuite(opts: BenchOptions): Promise<Row[]> {
  const dir = scratch('startup');
  try {
    const cli = cliPath();
    const home = dir.path('home');
    dir.json('home/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [HOOK] }] } });
    const empty = dir.path('empty');
    mkdirSync(empty, { recursive: true });
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      LANG: process.env.LANG ?? 'C.UTF-8',
      AGENT_HOOKS_TRUST_STORE: dir.path('trust.json'),
    };
    const settings = dir.json('one-hook.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [HOOK] }] } });
    const floor = async () => {
      await run(process.execPath, ['-e', '0'], env, empty);
      await run('sh', ['-c', 'true'], env, empty);
    };
    // The least a dispatch in Node can do: read the payload and the user's settings, spawn the
    // one matching hook with the payload on its stdin, pass its output and exit code on. No
    // validation, trust, timeouts, env rules or answer in the agent's dialect: a reference for the
    // goals above, which it shows how close the floor of any Node dispatcher is (docs/performance.md).
    const minimal = dir.path('minimal-dispatcher.cjs');
    writeFileSync(
      minimal,
      `const fs = require('fs'), cp = require('child_process');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const settings = JSON.parse(fs.readFileSync(process.env.HOME + '/.claude/settings.json', 'utf8'));
const group = (settings.hooks[input.hook_event_name] || []).find((g) => new RegExp('^(' + g.matcher + ')$').test(input.tool_name));
if (!group) process.exit(0);
const child = cp.spawn('/bin/sh', ['-c', group.hooks[0].command], { stdio: ['pipe', 'pipe', 'inherit'] });
let out = '';
child.stdout.on('data', (c) => (out += c));
child.stdin.on('error', () => {});
child.stdin.end(JSON.stringify(input));
child.on('close', (code) => { process.stdout.write(out); process.exitCode = code; });
`,
    );
    // Less still: a fresh Node that spawns the hook with its three pipes and reads nothing. Any
    // dispatch that starts the hook itself, in the agent's process tree, costs at least this.
    const spawnOnly = dir.path('spawn-only.cjs');
    writeFileSync(
      spawnOnly,
      `const child = require('child_process').spawn('/bin/sh', ['-c', 'true'], { stdio: ['pipe', 'pipe', 'pipe'] });
child.stdin.on('error', () => {});
child.stdin.end('{}');
child.stdout.resume();
child.stderr.resume();
`,
    );
    const runArgs = ['PreToolUse', '--settings', settings, '--tool', 'Bash', '--input', '{"command":"ls"}'];
    const runs = { warmup: opts.quick ? 1 : 2, runs: opts.quick ? 5 : 30 };
    const rows: Row[] = [];

    const cases: Array<{ name: string; go: () => Promise<void>; goal?: number }> = [
      {
        name: 'dispatch --agent claude, 1 matching user-level command hook',
        go: () => run(process.execPath, [cli, 'dispatch', '--agent', 'claude'], env, empty, preToolUse(empty)),
        goal: 1.3,
      },
      {
        name: 'run PreToolUse --settings <1 matching command hook>',
        go: () => run(process.execPath, [cli, 'run', ...runArgs], env, empty),
        goal: 1.5,
      },
      {
        name: 'reference: a minimal Node dispatcher (payload, settings, spawn; nothing else)',
        go: () => run(process.execPath, [minimal], env, empty, preToolUse(empty)),
      },
      {
        name: 'reference: a fresh Node that only spawns the hook (three pipes; reads nothing)',
        go: () => run(process.execPath, [spawnOnly], env, empty),
      },
      // The same `run` through the full CLI (commander, plain modules), which bin.cjs skips now:
      // what the lean bundled entry saves, side by side in one run.
      {
        name: 'run PreToolUse, same, through the full CLI (dist/cli/main.js)',
        go: () => run(process.execPath, [join(dirname(cli), 'main.js'), 'run', ...runArgs], env, empty),
        goal: 1.5,
      },
    ];
    for (const c of cases) {
      const sides = await interleave(
        () => timeMs(c.go),
        () => timeMs(floor),
        runs,
      );
      const row = pairedRow(
        { suite: 'startup', name: c.name, unit: 'ms', baselineName: 'node -e 0 + the hook', ratioNote: 'of floor' },
        sides,
      );
      // Issue 12's goals, not quality bars: reported, judged in docs/performance.md.
      row.notes = [
        c.goal === undefined
          ? 'not a goal: a floor for any dispatch written for Node, for the two goals above'
          : `goal ≤ ${c.goal}× (node -e 0 + the hook); ${row.ratio! <= c.goal ? 'met' : `missed by ${((row.ratio! / c.goal - 1) * 100).toFixed(0)} %`}`,
      ];
      rows.push(row);
    }

    // Trusted projects, with and without 50 × 1 MB scripts referenced by hooks of another event.
    const heavy = trustedProject(dir, 'heavy', 50);
    const light = trustedProject(dir, 'light', 0);
    // The same 50 hooks with one-line scripts: what the 50 MB cost apart from the 50 hooks.
    const small = trustedProject(dir, 'small', 50, 'line');
    // Age the scripts past the hash cache's racy window (1 s, src/trust/hash.ts), as in a real project.
    await new Promise((r) => setTimeout(r, 1500));
    const projectEnv = { ...env, HOME: dir.path('nohome') };
    for (const proj of [heavy, light, small]) await run(process.execPath, [cli, 'trust', '--cwd', proj], projectEnv, proj);
    const dispatchIn = (proj: string) => () =>
      timeMs(() => run(process.execPath, [cli, 'dispatch', '--agent', 'claude'], projectEnv, proj, preToolUse(proj)));
    const [a, b, c] = (await interleaveAll([dispatchIn(heavy), dispatchIn(light), dispatchIn(small)], {
      warmup: opts.quick ? 1 : 2,
      runs: opts.quick ? 5 : 24,
    })) as [number[], number[], number[]];
    const sa = summarize(a);
    const sb = summarize(b);
    const ratio = pairedRatio(a, b);
    rows.push({
      suite: 'startup',
      name: 'dispatch in a trusted project with 50 × 1 MB scripts (other event; scripts > 1 s old)',
      unit: 'ms',
      value: sa.median,
      summary: sa,
      baseline: { name: 'same project, no scripts', value: sb.median, summary: sb },
      ratio,
      ratioNote: 'of no scripts',
      notes: [
        `goal ≤ 1.05×; ${ratio <= 1.05 ? 'met' : `missed by ${((ratio / 1.05 - 1) * 100).toFixed(0)} %`} (the gate reads only the fired event's scripts: docs/security.md "Per-event verification")`,
      ],
    });
    // Not a bar of its own: the 50 hooks kept, their scripts one line each. The row above is
    // this row's bytes and the 50 hooks together; this one is the bytes alone.
    const sc = summarize(c);
    rows.push({
      suite: 'startup',
      name: 'same, against 50 hooks with 1-line scripts (the 50 MB alone)',
      unit: 'ms',
      value: sa.median,
      summary: sa,
      baseline: { name: 'same hooks, 1-line scripts', value: sc.median, summary: sc },
      ratio: pairedRatio(a, c),
      ratioNote: 'of 1-line scripts',
    });
    rows.push(await reviewedGuardRow(dir, cli, projectEnv, opts));
    return rows;
  } finally {
    dir.cleanup();
  }
}

/** A guard's check, 25 helpers and the call; the check sourced from lib.sh. */
const CHECK = `check() {\n  input=$(cat)\n  case "$input" in\n    *"rm -rf"*) echo "no rm -rf" >&2; exit 2 ;;\n  esac\n}\n`;
const HELPERS = Array.from({ length: 25 }, (_, i) => `log_${i}() { printf '%s' "step ${i}" >/dev/null; }\n`).join('');

/**
 * What verifying a reviewed guard costs per event (src/trust/verify.ts, pins.ts, includes.ts: its
 * files hashed, its command line and script walked, at the check and at execution): a trusted
 * project guard that sources lib.sh, against the same script as a user-level hook, which is not
 * reviewed. Not a goal: the price of "what runs is what was reviewed" (docs/security.md).
 */
async function reviewedGuardRow(dir: Scratch, cli: string, env: NodeJS.ProcessEnv, opts: BenchOptions): Promise<Row> {
  const proj = dir.path('reviewed');
  mkdirSync(join(proj, 'hooks'), { recursive: true });
  writeFileSync(join(proj, 'hooks', 'guard.sh'), `#!/bin/sh\nset -eu\n. "$(dirname "$0")/lib.sh"\n${HELPERS}check\n`, { mode: 0o755 });
  writeFileSync(join(proj, 'hooks', 'lib.sh'), CHECK);
  const guard = { type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hooks/guard.sh' };
  dir.json('reviewed/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [guard] }] } });
  // The user's own hook: the same script by its absolute path, from a project with no hooks.
  const plain = dir.path('plain');
  mkdirSync(plain, { recursive: true });
  dir.json('user-home/.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: join(proj, 'hooks', 'guard.sh') }] }] },
  });
  const userEnv = { ...env, HOME: dir.path('user-home') };
  await new Promise((r) => setTimeout(r, 1500));
  await run(process.execPath, [cli, 'trust', '--cwd', proj], env, proj);
  const dispatchIn = (cwd: string, e: NodeJS.ProcessEnv) => () =>
    timeMs(() => run(process.execPath, [cli, 'dispatch', '--agent', 'claude'], e, cwd, preToolUse(cwd)));
  const sides = await interleave(dispatchIn(proj, env), dispatchIn(plain, userEnv), {
    warmup: opts.quick ? 1 : 2,
    runs: opts.quick ? 5 : 24,
  });
  return pairedRow(
    {
      suite: 'startup',
      name: 'dispatch, a reviewed project guard that sources lib.sh',
      unit: 'ms',
      baselineName: 'the same script as a user-level hook',
      ratioNote: 'of unreviewed',
      notes: [
        'not a goal: what verifying a reviewed guard costs per event (hashes, and its command line and script walked at the check and at execution)',
      ],
    },
    sides,
  );
}
