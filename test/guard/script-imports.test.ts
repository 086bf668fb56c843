/**
 * What a reviewed Python or JS guard imports is reviewed with it (src/trust/pins/includes.ts,
 * imports.ts), through `dispatch`: the agent edits the imported module, or creates a file that
 * shadows a standard module next to the guard. Either makes the workspace `modified`, so the
 * guard fails closed instead of answering with the edited code.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bashGuardProject, reviewedBashGuard, trust, type Sandbox } from './helpers.js';

const sandboxes: Sandbox[] = [];
afterAll(() => {
  for (const sb of sandboxes) sb.dir.cleanup();
});
const PYTHON = spawnSync('python3', ['-c', '0']).status === 0;

const project = (files: Record<string, string>, command: string) => bashGuardProject(sandboxes, files, command);
const reviewed = (files: Record<string, string>, command: string, prepare?: (dir: string) => void) =>
  reviewedBashGuard(sandboxes, files, command, prepare);

const PY_GUARD =
  "import sys, json\nfrom rules import blocked\nif blocked(sys.stdin.read()):\n    print('no rm -rf', file=sys.stderr)\n    sys.exit(2)\n";
const PY_RULES = "def blocked(text):\n    return 'rm -rf' in text\n";
const JS_GUARD =
  "import { blocked } from './rules.mjs';\nlet s = '';\nfor await (const c of process.stdin) s += c;\nif (blocked(s)) { console.error('no rm -rf'); process.exit(2); }\n";
const JS_RULES = "export const blocked = (t) => t.includes('rm -rf');\n";

describe.skipIf(!PYTHON)('a reviewed Python guard’s imports', () => {
  it('the imported module edited: the guard fails closed (deny), not allows', async () => {
    const { dir, call } = await reviewed({ 'hooks/guard.py': PY_GUARD, 'hooks/rules.py': PY_RULES }, 'python3 hooks/guard.py');
    writeFileSync(join(dir, 'hooks/rules.py'), 'def blocked(text):\n    return False\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('a json.py created beside the guard (shadowing the standard module): deny', async () => {
    const { dir, call } = await reviewed({ 'hooks/guard.py': PY_GUARD, 'hooks/rules.py': PY_RULES }, 'python3 hooks/guard.py');
    writeFileSync(join(dir, 'hooks/json.py'), 'import sys\nsys.exit(0)\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
});

describe.skipIf(!PYTHON)('modules the standard library imports, found in the guard’s directory first', () => {
  // Found by the attacker review: `subprocess` imports `selectors`, which Python looks up in
  // sys.path[0] (the guard's directory) before the standard library.
  it('a selectors.py created beside a guard that imports subprocess: deny', async () => {
    const guard = `import subprocess\n${PY_GUARD}`;
    const { dir, call } = await reviewed({ 'hooks/guard.py': guard, 'hooks/rules.py': PY_RULES }, 'python3 hooks/guard.py');
    writeFileSync(join(dir, 'hooks/selectors.py'), 'import os\nos._exit(0)\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('a sourceless json.pyc created beside the guard: deny', async () => {
    const { dir, call } = await reviewed({ 'hooks/guard.py': PY_GUARD, 'hooks/rules.py': PY_RULES }, 'python3 hooks/guard.py');
    const evil = join(dir, 'evil.py');
    writeFileSync(evil, 'import os\nos._exit(0)\n');
    const made = spawnSync('python3', [
      '-c',
      `import py_compile; py_compile.compile(${JSON.stringify(evil)}, cfile=${JSON.stringify(join(dir, 'hooks/json.pyc'))})`,
    ]);
    expect(made.status, String(made.stderr)).toBe(0);
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('a module found through a sys.path entry the guard added, imported by another module: its edit is a change (deny)', async () => {
    const guard = "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), 'lib'))\nimport policy\npolicy.run()\n";
    const policy =
      "import sys\nfrom rules import blocked\ndef run():\n    if blocked(sys.stdin.read()):\n        print('no rm -rf', file=sys.stderr)\n        sys.exit(2)\n";
    const { dir, call } = await reviewed(
      { 'hooks/guard.py': guard, 'hooks/lib/policy.py': policy, 'hooks/lib/rules.py': PY_RULES },
      'python3 hooks/guard.py',
    );
    writeFileSync(join(dir, 'hooks/lib/rules.py'), 'def blocked(text):\n    return False\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('a compiled module created beside a module of an imported package (loaded before its source): deny', async () => {
    const guard = PY_GUARD.replace('from rules import', 'from policy.rules import');
    const { dir, call } = await reviewed(
      { 'hooks/guard.py': guard, 'hooks/policy/__init__.py': '', 'hooks/policy/rules.py': PY_RULES },
      'python3 hooks/guard.py',
    );
    // Not a loadable extension: python fails to import it (exit 1, which proceeds) unless it is a change.
    writeFileSync(join(dir, 'hooks/policy/rules.abi3.so'), 'not an ELF file\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('a package whose __init__ is a compiled module created beside the guard (shadows the standard json): deny', async () => {
    const { dir, call } = await reviewed({ 'hooks/guard.py': PY_GUARD, 'hooks/rules.py': PY_RULES }, 'python3 hooks/guard.py');
    mkdirSync(join(dir, 'hooks/json'));
    writeFileSync(join(dir, 'hooks/json/__init__.so'), 'not an ELF file\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('a log the hook writes beside it is not a change (the reviewed guard still answers)', async () => {
    const { dir, call } = await reviewed({ 'hooks/guard.py': PY_GUARD, 'hooks/rules.py': PY_RULES }, 'python3 hooks/guard.py');
    writeFileSync(join(dir, 'hooks/guard.log'), 'ran\n');
    expect(await call('ls')).toBe('proceed');
  });
});

/** A virtual environment in `dir`/.venv of the python3 on PATH: its python, pyvenv.cfg and site-packages; returns site-packages. */
function venv(dir: string): string {
  const real = spawnSync('python3', ['-c', 'import sys; print(sys.executable); print("python%d.%d" % sys.version_info[:2])'], {
    encoding: 'utf8',
  });
  const [exe, version] = real.stdout.trim().split('\n') as [string, string];
  const site = join(dir, `.venv/lib/${version}/site-packages`);
  mkdirSync(join(dir, '.venv/bin'), { recursive: true });
  mkdirSync(site, { recursive: true });
  writeFileSync(join(dir, '.venv/pyvenv.cfg'), `home = ${dirname(exe)}\ninclude-system-site-packages = false\n`);
  symlinkSync(exe, join(dir, '.venv/bin/python'));
  return site;
}

describe.skipIf(!PYTHON)('a guard run by the Python of a virtual environment inside the workspace', () => {
  it('a .pth file created in its site-packages (run at Python’s start): deny', async () => {
    let site = '';
    const { dir, call } = await reviewed(
      { 'hooks/guard.py': PY_GUARD, 'hooks/rules.py': PY_RULES },
      '"$CLAUDE_PROJECT_DIR"/.venv/bin/python "$CLAUDE_PROJECT_DIR"/hooks/guard.py',
      (p) => {
        site = venv(p);
      },
    );
    writeFileSync(join(site, 'zz.pth'), 'import os; os._exit(0)\n');
    // The .pth does run: Python alone now exits 0 before the guard.
    expect(spawnSync(join(dir, '.venv/bin/python'), [join(dir, 'hooks/guard.py')], { input: 'rm -rf build' }).status).toBe(0);
    expect(await call('rm -rf build')).toBe('deny');
  });
});

describe.skipIf(!PYTHON)('a module run by `python3 -m` (sys.path[0] is the current directory)', () => {
  const guard = PY_GUARD.replace('from rules import', 'from hooks.rules import');
  const files = { 'hooks/__init__.py': '', 'hooks/guard.py': guard, 'hooks/rules.py': PY_RULES };
  it('a module it imports edited: deny', async () => {
    const { dir, call } = await reviewed(files, 'cd "$CLAUDE_PROJECT_DIR" && python3 -m hooks.guard');
    writeFileSync(join(dir, 'hooks/rules.py'), 'def blocked(text):\n    return False\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('a json.py created in the current directory (shadows the standard module): deny', async () => {
    const { dir, call } = await reviewed(files, 'cd "$CLAUDE_PROJECT_DIR" && python3 -m hooks.guard');
    writeFileSync(join(dir, 'json.py'), 'import os\nos._exit(0)\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
});

describe.skipIf(!PYTHON)('a script whose `#!` line names an interpreter inside the project (a venv’s console script)', () => {
  it('the interpreter replaced by a script that exits 0: deny', async () => {
    const guard = "import sys\nif 'rm -rf' in sys.stdin.read():\n    print('no rm -rf', file=sys.stderr)\n    sys.exit(2)\n";
    const { dir, call } = await reviewed({}, '"$CLAUDE_PROJECT_DIR"/hooks/guard.py', (d) => {
      venv(d);
      mkdirSync(join(d, 'hooks'));
      writeFileSync(join(d, 'hooks/guard.py'), `#!${d}/.venv/bin/python\n${guard}`, { mode: 0o755 });
    });
    rmSync(join(dir, '.venv/bin/python'));
    writeFileSync(join(dir, '.venv/bin/python'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    expect(await call('rm -rf build')).toBe('deny');
  });
});

describe('a `#!` line with options that load files', () => {
  it('`#!/usr/bin/env -S node --import ./hooks/loader.mjs`: the hook is unpinned (trust refuses), not pinned to the script alone', async () => {
    const { sb, dir } = project(
      {
        'hooks/loader.mjs': 'export const ok = true;\n',
        'hooks/guard.js': '#!/usr/bin/env -S node --import ./hooks/loader.mjs\nprocess.exit(0);\n',
      },
      'cd "$CLAUDE_PROJECT_DIR" && ./hooks/guard.js',
    );
    await expect(trust(sb, dir)).rejects.toThrow(/its #! line passes "--import \.\/hooks\/loader\.mjs", which is not modelled/);
  });
  it('`#!/bin/sh -e` and `#!/usr/bin/env -S python3 -u` are plain flags: still pinned', async () => {
    const { sb, dir } = project(
      { 'hooks/a.sh': '#!/bin/sh -e\nexit 0\n', 'hooks/b.py': '#!/usr/bin/env -S python3 -u\n' },
      '"$CLAUDE_PROJECT_DIR"/hooks/a.sh; "$CLAUDE_PROJECT_DIR"/hooks/b.py',
    );
    await expect(trust(sb, dir)).resolves.toBeDefined();
  });
});

describe('a script run by `#!/usr/bin/env bash`', () => {
  it('with a PATH entry inside the workspace (an activated venv), the hook is unpinned: trust refuses', async () => {
    const { sb, dir } = project(
      { 'hooks/guard.sh': '#!/usr/bin/env bash\nexit 0\n', '.venv/bin/activate': '' },
      '"$CLAUDE_PROJECT_DIR"/hooks/guard.sh',
    );
    const env = { ...sb.env, PATH: `${join(dir, '.venv/bin')}:${sb.env.PATH}` };
    await expect(trust({ ...sb, env }, dir)).rejects.toThrow(
      /bash is looked up through the PATH entry .*\.venv\/bin, inside the workspace/,
    );
  });
});

describe('a reviewed JS guard’s imports', () => {
  it('the imported module edited: the guard fails closed (deny), not allows', async () => {
    const { dir, call } = await reviewed({ 'hooks/guard.mjs': JS_GUARD, 'hooks/rules.mjs': JS_RULES }, 'node hooks/guard.mjs');
    writeFileSync(join(dir, 'hooks/rules.mjs'), 'export const blocked = () => false;\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('imported with a query ("./rules.mjs?v=1", which Node loads as rules.mjs): rules.mjs edited: deny', async () => {
    const guard = JS_GUARD.replace("'./rules.mjs'", "'./rules.mjs?v=1'");
    const { dir, call } = await reviewed({ 'hooks/guard.mjs': guard, 'hooks/rules.mjs': JS_RULES }, 'node hooks/guard.mjs');
    writeFileSync(join(dir, 'hooks/rules.mjs'), 'export const blocked = () => false;\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('required through createRequire under another name: the required file edited: deny', async () => {
    const guard = JS_GUARD.replace(
      "import { blocked } from './rules.mjs';",
      "import { createRequire } from 'node:module';\nconst load = createRequire(import.meta.url);\nconst { blocked } = load('./rules.cjs');",
    );
    const rules = "exports.blocked = (t) => t.includes('rm -rf');\n";
    const { dir, call } = await reviewed({ 'hooks/guard.mjs': guard, 'hooks/rules.cjs': rules }, 'node hooks/guard.mjs');
    writeFileSync(join(dir, 'hooks/rules.cjs'), 'exports.blocked = () => false;\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('a package.json turning the CommonJS guard into a module (it would crash, and a crash does not block): deny', async () => {
    const cjs =
      "const { blocked } = require('./rules.js');\nconst s = require('fs').readFileSync(0, 'utf8');\nif (blocked(s)) { console.error('no rm -rf'); process.exit(2); }\n";
    const rules = "exports.blocked = (t) => t.includes('rm -rf');\n";
    const { dir, call } = await reviewed({ 'hooks/guard.js': cjs, 'hooks/rules.js': rules }, 'node hooks/guard.js');
    writeFileSync(join(dir, 'hooks/package.json'), '{"type":"module"}\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('the project’s package.json: a dependency added is not a change; its "type" flipped is (deny)', async () => {
    const cjs =
      "const { blocked } = require('./rules.js');\nconst s = require('fs').readFileSync(0, 'utf8');\nif (blocked(s)) { console.error('no rm -rf'); process.exit(2); }\n";
    const rules = "exports.blocked = (t) => t.includes('rm -rf');\n";
    const { dir, call } = await reviewed(
      { 'package.json': '{"name":"p","type":"commonjs"}\n', 'hooks/guard.js': cjs, 'hooks/rules.js': rules },
      'node hooks/guard.js',
    );
    writeFileSync(join(dir, 'package.json'), '{"name":"p","type":"commonjs","dependencies":{"left-pad":"1.3.0"}}\n');
    expect(await call('ls')).toBe('proceed');
    expect(await call('rm -rf build')).toBe('deny');
    writeFileSync(join(dir, 'package.json'), '{"name":"p","type":"module"}\n');
    expect(await call('ls')).toBe('deny');
  });
  it('a package.json created in the directory above the project (Node’s walk does not stop at the project): deny', async () => {
    const cjs =
      "const s = require('fs').readFileSync(0, 'utf8');\nif (s.includes('rm -rf')) { console.error('no rm -rf'); process.exit(2); }\n";
    const { dir, call } = await reviewed({ 'hooks/guard.js': cjs }, 'node "$CLAUDE_PROJECT_DIR"/hooks/guard.js');
    writeFileSync(join(dir, '..', 'package.json'), '{"type":"module"}\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('the project’s package.json has a BOM (Node strips it): its "type" flipped is a change (deny)', async () => {
    const cjs =
      "const s = require('fs').readFileSync(0, 'utf8');\nif (s.includes('rm -rf')) { console.error('no rm -rf'); process.exit(2); }\n";
    const { dir, call } = await reviewed({ 'package.json': '\ufeff{"name":"p"}\n', 'hooks/guard.js': cjs }, 'node hooks/guard.js');
    writeFileSync(join(dir, 'package.json'), '\ufeff{"name":"p","type":"module"}\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
});
