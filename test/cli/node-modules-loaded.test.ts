/**
 * Which of Node's own modules dispatch and `run` load, against a minimal Node process that does
 * the same job (read the payload and the settings file, spawn the hook): each extra module is
 * compiled in every process (docs/performance.md item 15). The recorder is a preload that loads
 * nothing itself and writes `process.moduleLoadList` at exit. Also: no file they require is
 * looked for where it is not (a require that misses costs ~0.5 ms).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, beforeEach, expect, test } from 'vitest';
import { useTempDir } from '../helpers/tmp.js';

const BIN = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));
const dir = useTempDir('ah-node-modules-');

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error('dist/cli/bin.cjs is missing: run `npm run build` first (npm test does)');
});

const HOOK = 'echo one-hook >&2; exit 2';
beforeEach(() => {
  dir.json('home/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: HOOK }] }] } });
  dir.write('work/.keep', '');
  // `fs` is loaded by Node's own start-up: the recorder adds nothing to the list it writes.
  dir.write(
    'record.cjs',
    "process.on('exit', () => require('fs').writeFileSync(process.env.LOAD_LIST, process.moduleLoadList.join('\\n')));\n",
  );
  dir.write(
    'minimal.cjs',
    `const fs = require('fs');
const { spawn } = require('child_process');
const payload = fs.readFileSync(0, 'utf8');
const settings = JSON.parse(fs.readFileSync(process.env.HOME + '/.claude/settings.json', 'utf8'));
const child = spawn('sh', ['-c', settings.hooks.PreToolUse[0].hooks[0].command], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
child.stdout.on('data', (d) => process.stdout.write(d));
child.stderr.on('data', (d) => process.stderr.write(d));
child.stdin.on('error', () => {});
child.stdin.end(payload);
child.on('close', (code) => { process.exitCode = code; });
`,
  );
});

const PAYLOAD = () =>
  JSON.stringify({
    session_id: 's',
    transcript_path: '',
    cwd: dir.path('work'),
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
  });

/** The modules Node loaded for `args`, and what the process printed. */
function loadedBy(args: string[], input: string, home = dir.path('home')) {
  const list = dir.path('loaded.txt');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, AGENT_HOOKS_TRUST_STORE: dir.path('trust.json'), LOAD_LIST: list };
  const r = spawnSync(process.execPath, ['--require', dir.path('record.cjs'), ...args], {
    cwd: dir.path('work'),
    env,
    input,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { modules: new Set(readFileSync(list, 'utf8').split('\n')), stdout: r.stdout, stderr: r.stderr, code: r.status };
}

/**
 * Every extra module is one of `allowed` (a patch release of Node may need fewer of them, never
 * more): a module missing from the list is what fails, named in the message.
 */
const within = (allowed: string[]) => (extra: string[]) => {
  const unexpected = extra.filter((m) => !allowed.includes(m));
  if (unexpected.length) throw new Error(`loaded beyond the minimal process: ${unexpected.join(', ')}`);
  return true;
};

/** Node's modules in `ours` that the minimal process did not load. */
const extra = (ours: Set<string>, minimal: Set<string>) => [...ours].filter((m) => m.startsWith('NativeModule ') && !minimal.has(m)).sort();

// Compiled in every one of those processes, and needed: parseArgs reads the command line, node:vm
// compiles our files with their code cache (src/cli/code-cache.cts).
const NEEDED = ['NativeModule internal/util/parse_args/parse_args', 'NativeModule internal/util/parse_args/utils', 'NativeModule vm'];

test('a one-hook dispatch and run load no Node module the minimal process does not, but parseArgs and vm', () => {
  const minimal = loadedBy([dir.path('minimal.cjs')], PAYLOAD());
  expect([minimal.code, minimal.stderr.trim()]).toEqual([2, 'one-hook']);
  // Among them node:module (and the ES loader's modules it brings) and node:os, both loaded
  // before by requiring them for createRequire and homedir.
  const dispatch = loadedBy([BIN, 'dispatch', '--agent', 'claude'], PAYLOAD());
  expect(JSON.parse(dispatch.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  expect(extra(dispatch.modules, minimal.modules)).toSatisfy(within(NEEDED));
  const run = loadedBy(
    [BIN, 'run', 'PreToolUse', '--settings', dir.path('home/.claude/settings.json'), '--tool', 'Bash', '--input', '{"command":"ls"}'],
    '',
  );
  expect(run.stdout).toContain('one-hook');
  expect(extra(run.modules, minimal.modules)).toSatisfy(within(NEEDED));
});

test('a dispatch with nothing to run loads no Node module a bare script does not, but parseArgs and vm', () => {
  dir.write('bare.cjs', '');
  const bare = loadedBy([dir.path('bare.cjs')], '', dir.path('nohome'));
  const none = loadedBy([BIN, 'dispatch', '--agent', 'claude'], PAYLOAD(), dir.path('nohome'));
  expect([none.code, none.stdout]).toEqual([0, '']);
  expect(extra(none.modules, bare.modules)).toSatisfy(within(NEEDED));
});

test('a one-hook dispatch and run find every file they require at the first place they look', () => {
  // This preload loads node:module itself, so it only watches resolutions, which throw on a miss.
  dir.write(
    'misses.cjs',
    `const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  try { return resolve.call(this, request, ...rest); } catch (err) { require('fs').appendFileSync(process.env.MISSES, request + '\\n'); throw err; }
};
`,
  );
  const misses = dir.path('misses.txt');
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir.path('home'),
    AGENT_HOOKS_TRUST_STORE: dir.path('trust.json'),
    MISSES: misses,
  };
  for (const args of [
    ['dispatch', '--agent', 'claude'],
    ['run', 'PreToolUse', '--settings', dir.path('home/.claude/settings.json'), '--tool', 'Bash', '--input', '{"command":"ls"}'],
  ]) {
    const r = spawnSync(process.execPath, ['--require', dir.path('misses.cjs'), BIN, ...args], {
      cwd: dir.path('work'),
      env,
      input: PAYLOAD(),
      encoding: 'utf8',
      timeout: 30_000,
    });
    // The hook ran, and so did the compiled validators of the settings file and the event's input.
    expect(`${r.stdout}${r.stderr}`).toContain(args[0] === 'run' ? 'one-hook' : 'permissionDecision');
    expect(existsSync(misses) ? readFileSync(misses, 'utf8').trim().split('\n') : [], args[0]).toEqual([]);
  }
});
