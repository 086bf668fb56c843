/**
 * The lean `run` entry (src/cli/run-entry.ts) reads arguments exactly as the full CLI does, or
 * declines them: its option table matches commander's, and the built CLI answers the same through
 * both (dist/cli/bin.cjs routes `run` to the lean entry; dist/cli/main.js is the full CLI).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { buildProgram } from '../../src/cli/main.js';
import { readRunArgs, RUN_OPTIONS } from '../../src/cli/run-entry.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = `${ROOT}dist/cli/bin.cjs`;
const MAIN = `${ROOT}dist/cli/main.js`;

let dir: TempDir;
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error('dist/cli/bin.cjs is missing: run `npm run build` first (npm test does)');
});
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

test("the lean entry's options are exactly `run`'s options in the full CLI", () => {
  const run = buildProgram().commands.find((c) => c.name() === 'run')!;
  const full = run.options.map((o) => ({
    name: o.long!.slice(2),
    type: o.required || o.optional ? 'string' : 'boolean',
    short: o.short?.slice(1),
    // Repeatable options are the ones with an accumulating parser (`collect`).
    multiple: o.parseArg !== undefined && o.argChoices === undefined,
  }));
  const lean = Object.entries(RUN_OPTIONS).map(([name, spec]) => ({
    name,
    type: spec.type,
    short: 'short' in spec ? spec.short : undefined,
    multiple: 'multiple' in spec,
  }));
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  expect(lean.sort(byName)).toEqual(full.sort(byName));
});

test('reads a plain command line into the flags commander would give', () => {
  expect(
    readRunArgs([
      'PreToolUse',
      '--settings',
      'a.json',
      '--settings=b.json',
      '--tool',
      'Edit',
      '-v',
      '--stop-active',
      '--failure-behavior',
      'deny',
      '--payload',
      '-',
    ]),
  ).toEqual({
    event: 'PreToolUse',
    flags: { settings: ['a.json', 'b.json'], tool: 'Edit', verbose: true, stopActive: true, failureBehavior: 'deny', payload: '-' },
  });
  expect(readRunArgs(['--json', 'Stop', '--session-id', 's1', '--mcp-config', 'm.json', '--discover-dialects', 'all'])).toEqual({
    event: 'Stop',
    flags: { json: true, sessionId: 's1', mcpConfig: 'm.json', discoverDialects: 'all' },
  });
});

test('declines what only the full CLI reads exactly', () => {
  const declined = [
    [],
    ['PreToolUse', '--help'],
    ['PreToolUse', '-h'],
    ['--version'],
    ['PreToolUse', 'Stop'],
    ['PreToolUse', '--nope'],
    ['PreToolUse', '--tool'],
    ['PreToolUse', '--tool', 'A', '--tool', 'B'],
    ['PreToolUse', '-v', '-v'],
    ['PreToolUse', '-vx'],
    ['PreToolUse', '--input', '-1'],
    ['PreToolUse', '--', '--tool'],
    ['PreToolUse', '--failure-behavior', 'maybe'],
    ['PreToolUse', '--json=yes'],
  ];
  for (const args of declined) expect(readRunArgs(args), args.join(' ')).toBeUndefined();
});

/** stdout, stderr and exit code with what differs per run (ids, times, durations) masked. */
function cli(entry: string, args: string[], input = ''): string {
  const r = spawnSync(process.execPath, [entry, 'run', ...args], {
    cwd: dir.root,
    encoding: 'utf8',
    input,
    timeout: 60_000,
    env: { ...process.env, HOME: dir.path('home'), NO_COLOR: '1' },
  });
  const mask = (s: string) =>
    s
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, '<time>')
      .replace(/"durationMs": [\d.]+/g, '"durationMs": <n>')
      .replace(/\b\d+(\.\d+)?\s?ms\b/g, '<n>ms');
  return `exit ${r.status}\n--- stdout\n${mask(r.stdout)}--- stderr\n${mask(r.stderr)}`;
}

test('the built CLI answers the same through the lean entry and the full CLI', () => {
  const deny = dir.json('deny.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "no rm" >&2; exit 2' }] }] },
  });
  const ctx = dir.json('ctx.json', { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo extra context' }] }] } });
  const cases: Array<{ args: string[]; input?: string }> = [
    { args: ['PreToolUse', '--settings', deny, '--tool', 'Bash', '--input', '{"command":"rm -rf x"}'] },
    { args: ['PreToolUse', '--settings', deny, '--json'] },
    { args: ['PreToolUse', '--settings', deny, '--verbose'] },
    { args: ['PreToolUse', '--settings', deny, '--payload', '-'], input: '{"tool_name":"Bash","tool_input":{"command":"ls"}}' },
    { args: ['UserPromptSubmit', '--settings', ctx, '--prompt', 'hi'] },
    { args: ['Stop', '--settings', ctx, '--example'] },
    // Usage errors the lean entry reports itself, and ones it leaves to the full CLI.
    { args: ['PreToolUse', '--settings', deny, '--input', 'not json'] },
    // A payload the event's schema rejects: zod's own wording, from the bundle and from the plain modules.
    { args: ['PreToolUse', '--settings', deny, '--payload', '-'], input: '{"tool_name":5,"tool_input":[],"session_id":{}}' },
    { args: ['PreToolUse', '--settings', dir.path('missing.json')] },
    { args: ['pretooluse', '--settings', deny] },
    { args: ['PreToolUs', '--settings', deny] },
    { args: ['PreToolUse', '--bogus'] },
    { args: ['PreToolUse', '--failure-behavior', 'maybe'] },
    { args: ['PreToolUse', '--help'] },
    { args: ['PreToolUse', '--settings', deny, '--dialect', 'claude'] },
    { args: ['PreToolUse', '--settings', deny, '--dialect', 'nope'] },
  ];
  for (const c of cases) {
    const lean = cli(BIN, c.args, c.input);
    expect(lean, c.args.join(' ')).toBe(cli(MAIN, c.args, c.input));
    expect(lean).not.toContain('internal error');
  }
  // The masks leave the answers themselves: the deny and its reason came through.
  expect(cli(BIN, cases[0]!.args)).toContain('no rm');
}, 180_000);
