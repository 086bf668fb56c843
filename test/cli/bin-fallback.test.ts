/**
 * dist/cli/bin.cjs runs `dispatch` from its CommonJS no-hooks check and `run` from the lean ES
 * bundle (scripts/bundle-dispatch.mjs), and falls back to the plain modules when the build made
 * no bundle. Both ways must answer the same: a copy of dist/ without the bundles, beside the
 * package's node_modules, against the real build.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { tempDir, type TempDir } from '../helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLES = ['bundle-check', 'bundle', 'bundle-run'];

let dir: TempDir;
let plainBin: string;
beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/cli/bundle-check/dispatch.cjs'))) throw new Error('run `npm run build` first (npm test does)');
  dir = tempDir();
  const pkg = dir.path('pkg');
  cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
  for (const b of BUNDLES) rmSync(join(pkg, 'dist/cli', b), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  plainBin = join(pkg, 'dist/cli/bin.cjs');
  dir.json('home/.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "denied: $(cat | wc -c) bytes" >&2; exit 2' }] }] },
  });
});
afterAll(() => dir?.cleanup());

function cli(bin: string, args: string[], input = '') {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir.root,
    input,
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH, HOME: dir.path('home'), AGENT_HOOKS_TRUST_STORE: dir.path('trust.json') },
  });
  // `run` prints each hook's duration: the one part that may differ.
  const timeless = (t: string) => t.replace(/\b\d+ms\b/g, 'Nms');
  return { stdout: timeless(r.stdout), stderr: timeless(r.stderr), code: r.status };
}

const payload = (command: string) =>
  JSON.stringify({
    session_id: 's',
    transcript_path: '',
    cwd: dir.root,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
  });

test('the copy is the same executable with no bundle beside it', () => {
  for (const b of BUNDLES) expect(existsSync(join(dir.path('pkg/dist/cli'), b)), b).toBe(false);
  expect(readFileSync(plainBin, 'utf8')).toBe(readFileSync(join(ROOT, 'dist/cli/bin.cjs'), 'utf8'));
});

test('dispatch answers the same with and without the bundles: a hook that denies, and nothing to run', () => {
  const real = join(ROOT, 'dist/cli/bin.cjs');
  const deny = [
    cli(real, ['dispatch', '--agent', 'claude'], payload('ls')),
    cli(plainBin, ['dispatch', '--agent', 'claude'], payload('ls')),
  ];
  expect(JSON.parse(deny[0]!.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  expect(deny[1]).toEqual(deny[0]);
  const gemini = [
    cli(real, ['dispatch', '--agent', 'gemini'], '{"hook_event_name":"SessionEnd","session_id":"s"}'),
    cli(plainBin, ['dispatch', '--agent', 'gemini'], '{"hook_event_name":"SessionEnd","session_id":"s"}'),
  ];
  expect(gemini[0]!.code).toBe(0);
  expect(gemini[1]).toEqual(gemini[0]);
});

test('run and --version answer the same with and without the bundles', () => {
  const real = join(ROOT, 'dist/cli/bin.cjs');
  for (const args of [['run', 'PreToolUse', '--tool', 'Bash', '--input', '{"command":"ls"}'], ['run', 'pretooluse'], ['--version']]) {
    const a = cli(real, args);
    const b = cli(plainBin, args);
    expect(b, args.join(' ')).toEqual(a);
  }
  expect(cli(real, ['run', 'PreToolUse', '--tool', 'Bash', '--input', '{"command":"ls"}']).stdout).toContain('denied');
});
