/**
 * A reviewed Python hook and the bytecode Python keeps beside its sources. Python loads
 * `__pycache__/<module>.<tag>.pyc` in place of a module's source when the stamp in it (the
 * source's mtime and size) matches, so bytecode planted in the workspace would run instead of the
 * pinned source; and a first run writing `__pycache__` into a pinned tree (`python3 pkg`) changed
 * it, so every later call failed closed until re-trusted. A reviewed hook's Python keeps its
 * bytecode outside the workspace (src/backends/command-hook.ts).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dispatchShell, sandbox, trust, verdict, type Sandbox } from './helpers.js';

const sandboxes: Sandbox[] = [];
afterAll(() => {
  for (const sb of sandboxes) sb.dir.cleanup();
});
const PYTHON = spawnSync('python3', ['-c', '0']).status === 0;

const RULES = "def blocked(text):\n    return 'rm -rf' in text\n";
const GUARD = "import sys\nimport rules\nif rules.blocked(sys.stdin.read()):\n    print('no rm -rf', file=sys.stderr)\n    sys.exit(2)\n";

function project(files: Record<string, string>, command: string) {
  const sb = sandbox();
  sandboxes.push(sb);
  for (const [rel, text] of Object.entries(files)) sb.dir.write(`p/${rel}`, text, 0o755);
  sb.dir.json('p/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } });
  return { sb, dir: sb.dir.path('p') };
}

describe.skipIf(!PYTHON)("a reviewed Python hook's bytecode", () => {
  it('python3 pkg: the first run does not change the pinned tree (later calls still answer)', async () => {
    const { sb, dir } = project({ 'pkg/__main__.py': GUARD, 'pkg/rules.py': RULES }, 'python3 pkg');
    await trust(sb, dir);
    expect(verdict(await dispatchShell('claude', dir, 'ls', { env: sb.env }))).toBe('proceed');
    expect(verdict(await dispatchShell('claude', dir, 'rm -rf build', { env: sb.env }))).toBe('deny');
    expect(verdict(await dispatchShell('claude', dir, 'ls', { env: sb.env }))).toBe('proceed');
  });

  it('bytecode planted beside an imported module, stamped with its source: the reviewed source runs (deny)', async () => {
    const { sb, dir } = project({ 'hooks/guard.py': GUARD, 'hooks/rules.py': RULES }, 'python3 hooks/guard.py');
    await trust(sb, dir);
    expect(verdict(await dispatchShell('claude', dir, 'rm -rf build', { env: sb.env }))).toBe('deny');
    // The agent writes hooks/__pycache__/rules.<tag>.pyc: permissive code, stamped as rules.py.
    const plant = [
      'import importlib.util, importlib._bootstrap_external as b, os, sys',
      'src = sys.argv[1]; st = os.stat(src)',
      "code = compile('def blocked(text):\\n    return False\\n', src, 'exec')",
      'out = importlib.util.cache_from_source(src)',
      'os.makedirs(os.path.dirname(out), exist_ok=True)',
      "open(out, 'wb').write(b._code_to_timestamp_pyc(code, st.st_mtime, st.st_size))",
    ].join('\n');
    const planted = spawnSync('python3', ['-c', plant, join(dir, 'hooks/rules.py')], { env: { PATH: process.env.PATH } });
    expect(planted.status, String(planted.stderr)).toBe(0);
    // The planted file is what Python itself would load there.
    const direct = spawnSync('python3', ['hooks/guard.py'], { cwd: dir, input: 'rm -rf build', env: { PATH: process.env.PATH } });
    expect(direct.status).toBe(0);
    expect(verdict(await dispatchShell('claude', dir, 'rm -rf build', { env: sb.env }))).toBe('deny');
  });
});
