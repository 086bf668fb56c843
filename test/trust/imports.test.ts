import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { jsIncludes, pythonIncludes } from '../../src/trust/pins/imports.js';
import { useTempDir } from '../helpers/tmp.js';

const dir = useTempDir('agent-hooks-imports-');
const h = (...p: string[]): string => dir.path('proj', '.claude', 'hooks', ...p);
const py = (text: string) => pythonIncludes(h('guard.py'), text);
// The package.json chain every JS file pins, up to the root (its own case below), is left out of the other cases.
const packageChain = (script: string): string[] => {
  const out: string[] = [];
  for (let d = dirname(h(script)); ; d = dirname(d)) {
    out.push(join(d, 'package.json'));
    if (d === dirname(d)) return out;
  }
};
const js = (text: string, script = 'guard.js') => {
  const out = jsIncludes(h(script), text, dir.path('proj'));
  return { ...out, files: out.files.filter((f) => !packageChain(script).includes(f)) };
};

describe('pythonIncludes', () => {
  it('import a, import a.b as c, d: a.py and a/__init__.py in the script directory, present or absent', () => {
    dir.write('proj/.claude/hooks/helper.py', '');
    dir.write('proj/.claude/hooks/pkg/__init__.py', '');
    expect(py('import helper\nimport pkg.sub as s, json\n').files).toEqual([
      h('helper.py'),
      h('helper', '__init__.py'),
      h('pkg.py'),
      h('pkg', '__init__.py'),
      h('pkg', 'sub.py'),
      h('pkg', 'sub', '__init__.py'),
      h('json.py'),
      h('json', '__init__.py'),
    ]);
  });

  it('from a import b and from a.b import c follow a package in the directory; a module file has no submodules', () => {
    dir.write('proj/.claude/hooks/pkg/inner/__init__.py', '');
    expect(py('from pkg.inner import x as y, z').files).toEqual([
      h('pkg.py'),
      h('pkg', '__init__.py'),
      h('pkg', 'inner.py'),
      h('pkg', 'inner', '__init__.py'),
      h('pkg', 'inner', 'x.py'),
      h('pkg', 'inner', 'x', '__init__.py'),
      h('pkg', 'inner', 'z.py'),
      h('pkg', 'inner', 'z', '__init__.py'),
    ]);
    expect(py('from os import path').files).toEqual([h('os.py'), h('os', '__init__.py')]);
  });

  it('imports inside functions, try/except and after a colon count', () => {
    const files = py('def f():\n    try: import a\n    except ImportError:\n        from b import c\nif x: import d; import e\n').files;
    for (const m of ['a', 'b', 'd', 'e']) expect(files).toContain(h(`${m}.py`));
  });

  it('comments, strings, docstrings and f-strings are not imports', () => {
    const text = [
      '"""Docstring.',
      'import doc1',
      "from doc2 import x '''",
      '"""',
      '# import comment',
      'x = 1  # was: from old import y',
      's = \'import str1\'; t = "from str2 import y"',
      "u = r'\\' import raw'",
      "v = f'{x} import fstr'",
      "w = '''",
      'import triple',
      "'''",
      'import real',
    ].join('\n');
    expect(py(text).files).toEqual([h('real.py'), h('real', '__init__.py')]);
  });

  it("relative imports resolve against the file's own package directory", () => {
    const files = pythonIncludes(h('pkg', 'mod.py'), 'from . import x\nfrom .m import y\nfrom ..p import q\n').files;
    expect(files).toEqual([
      h('pkg', '__init__.py'),
      h('pkg', 'x.py'),
      h('pkg', 'x', '__init__.py'),
      h('pkg', 'm.py'),
      h('pkg', 'm', '__init__.py'),
      h('__init__.py'),
      h('p.py'),
      h('p', '__init__.py'),
    ]);
  });

  it("sys.path[0] is the directory of the script's real path", () => {
    dir.write('proj/real/guard.py', '');
    mkdirSync(h(), { recursive: true });
    symlinkSync(dir.path('proj', 'real', 'guard.py'), h('guard.py'));
    expect(py('import helper').files).toEqual([dir.path('proj', 'real', 'helper.py'), dir.path('proj', 'real', 'helper', '__init__.py')]);
  });

  it('literal importlib.import_module, __import__ and runpy.run_module are imports', () => {
    const files = py("import importlib\nimportlib.import_module('a')\n__import__('b')\nrunpy.run_module('c')\n").files;
    for (const m of ['a', 'b', 'c']) expect(files).toContain(h(`${m}.py`));
  });

  it('sys.path idioms are evaluated: the directory added is searched too', () => {
    const lines = [
      'sys.path.insert(0, os.path.dirname(__file__))',
      "sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))",
      "sys.path.append(str(Path(__file__).parent / 'lib2'))",
      'HERE = Path(__file__).resolve().parent',
      "sys.path.insert(0, str(HERE / 'lib3'))",
      'sys.path.insert(0, str(Path(__file__).parents[1]))',
      'import helper',
    ];
    const r = py(lines.join('\n'));
    expect(r.unpinned).toEqual([]);
    for (const d of [h(), h('lib'), h('lib2'), h('lib3'), dir.path('proj', '.claude')]) expect(r.files).toContain(`${d}/helper.py`);
  });

  it('what cannot be determined is unpinned, naming script:line; reading sys.path is not', () => {
    const lines = [
      'importlib.import_module(name)',
      '__import__(name)',
      'exec(code)',
      'runpy.run_path(p)',
      'sys.path.insert(0, somewhere)',
      "sys.path.insert(0, 'relative')",
      'sys.path[:0] = [d]',
      'print(sys.path[0]); x = ast.literal_eval(s); finder.import_module(n)',
    ];
    expect(py(lines.join('\n')).unpinned).toEqual([
      `${h('guard.py')}:1: importlib.import_module of a module name that cannot be determined`,
      `${h('guard.py')}:2: __import__ of a module name that cannot be determined`,
      `${h('guard.py')}:3: exec of code that cannot be determined`,
      `${h('guard.py')}:4: runpy.run_path of a path that cannot be determined`,
      `${h('guard.py')}:5: sys.path.insert of a directory that cannot be evaluated`,
      `${h('guard.py')}:6: sys.path.insert of a directory that cannot be evaluated`,
      `${h('guard.py')}:7: a sys.path assignment that cannot be evaluated`,
    ]);
  });

  it('exec of a literal is read as code; a file loaded by path is pinned', () => {
    const r = py(
      "exec('import fromexec')\nspec = importlib.util.spec_from_file_location('m', os.path.join(os.path.dirname(__file__), 'm.py'))\n",
    );
    expect(r.files).toEqual([h('m.py'), h('fromexec.py'), h('fromexec', '__init__.py')]);
  });
});

describe('jsIncludes', () => {
  it('every form with a literal: require, import from, side-effect import, export from, import()', () => {
    for (const f of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) dir.write(`proj/.claude/hooks/${f}.js`, '');
    const text = [
      "const a = require('./a.js');",
      'const b = require("./b.js");',
      "import c, { x } from './c.js';",
      "import './d.js';",
      "export * from './e.js';",
      "export { y } from './f.js';",
      "await import('./g.js');",
      "module.require('./h.js'); other.require('./no.js'); require.resolve('./no2.js');",
    ].join('\n');
    expect(js(text)).toEqual({ files: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((f) => h(`${f}.js`)), trees: [], unpinned: [] });
  });

  it('comments, strings, templates and regular expressions are not loads; code inside ${} is', () => {
    dir.write('proj/.claude/hooks/real.js', '');
    dir.write('proj/.claude/hooks/sub.js', '');
    const text = [
      '#!/usr/bin/env node',
      "// require('./c1.js')",
      "/* import './c2.js' */",
      'const s = "require(\'./s1.js\')" + \'import "./s2.js"\';',
      "const t = `require('./t1.js') ${require('./sub.js')} import('./t2.js')`;",
      "const r = /require\\('.\\/r1.js'\\)/g, m = /import('.\\/r2.js')/;",
      'export { z };',
      // A quote inside a regular expression opens no string: the require after it counts.
      "const q = /[\"'`]/; require('./real.js');",
    ].join('\n');
    expect(js(text)).toEqual({ files: [h('sub.js'), h('real.js')], trees: [], unpinned: [] });
  });

  it('an extensionless or missing specifier pins every candidate of node, tsx and bun, present or absent', () => {
    dir.write('proj/.claude/hooks/util.js', '');
    const files = js("require('./util')").files;
    expect(files.slice(0, 3)).toEqual([h('util'), h('util.js'), h('util.json')]);
    expect(files).toEqual(expect.arrayContaining([h('util.ts'), h('util', 'index.js'), h('util', 'package.json')]));
    expect(js("import './missing.js'").files).toEqual(
      expect.arrayContaining([h('missing.js'), h('missing.ts'), h('missing.js', 'index.js')]),
    );
  });

  it('a directory with a package.json main pins the file it names', () => {
    dir.json('proj/.claude/hooks/lib/package.json', { main: 'src/entry.js' });
    dir.write('proj/.claude/hooks/lib/src/entry.js', '');
    const files = js("require('./lib')").files;
    expect(files).toContain(h('lib', 'package.json'));
    expect(files).toContain(h('lib', 'src', 'entry.js'));
    expect(files).not.toContain(h('lib'));
  });

  it('an import specifier is a URL (query, fragment, percent-encoding); a require specifier is a path', () => {
    dir.write('proj/.claude/hooks/q.js', '');
    dir.write('proj/.claude/hooks/a b.js', '');
    expect(js("import './q.js?v=1#top';\nawait import('./a%20b.js');")).toEqual({
      files: [h('q.js'), h('a b.js')],
      trees: [],
      unpinned: [],
    });
    expect(js("require('./q.js?v=1')").files).toContain(h('q.js?v=1'));
    expect(js("import './x%2Fy.js'").unpinned).toEqual([`${h('guard.js')}:1: the specifier "./x%2Fy.js" is not a file URL Node can read`]);
  });

  it('a TS script (tsx) pins the .ts twin even of an existing .js', () => {
    dir.write('proj/.claude/hooks/h.js', '');
    const files = js("import { x } from './h.js'", 'guard.ts').files;
    expect(files).toEqual(expect.arrayContaining([h('h.js'), h('h.ts'), h('h.mts'), h('h.js', 'index.ts')]));
  });

  it('builtins are ignored', () => {
    expect(js("import fs from 'node:fs'; import p from 'path'; require('fs/promises'); import 'bun:sqlite'")).toEqual({
      files: [],
      trees: [],
      unpinned: [],
    });
  });

  it('a package in the project: entry and package.json, and the absent node_modules/<pkg> that would shadow it', () => {
    dir.json('proj/node_modules/dep/package.json', { main: 'main.js' });
    dir.write('proj/node_modules/dep/main.js', '');
    const r = js("require('dep')");
    expect(r.files).toEqual([
      h('node_modules', 'dep'),
      h('node_modules', 'dep.js'),
      h('node_modules', 'dep.json'),
      h('node_modules', 'dep.node'),
      dir.path('proj', '.claude', 'node_modules', 'dep'),
      dir.path('proj', '.claude', 'node_modules', 'dep.js'),
      dir.path('proj', '.claude', 'node_modules', 'dep.json'),
      dir.path('proj', '.claude', 'node_modules', 'dep.node'),
      dir.path('proj', 'node_modules', 'dep', 'main.js'),
      dir.path('proj', 'node_modules', 'dep', 'package.json'),
    ]);
    expect(r.trees).toEqual([]);
    // An ESM import may load another entry (the "import" condition): the package is pinned whole.
    expect(js("import d from 'dep'").trees).toEqual([dir.path('proj', 'node_modules', 'dep')]);
  });

  it('a package outside the project pins nothing of it, only the absent shadows inside the project', () => {
    dir.json('node_modules/outer/package.json', { main: 'i.js' });
    dir.write('node_modules/outer/i.js', '');
    const files = js("require('outer/i.js')").files;
    expect(files).toEqual([
      h('node_modules', 'outer'),
      dir.path('proj', '.claude', 'node_modules', 'outer'),
      dir.path('proj', 'node_modules', 'outer'),
    ]);
  });

  it('a package linked from outside the project pins nothing of it', () => {
    dir.json('outside/linked/package.json', { main: 'i.js' });
    dir.write('outside/linked/i.js', '');
    mkdirSync(dir.path('proj', 'node_modules'), { recursive: true });
    symlinkSync(dir.path('outside', 'linked'), dir.path('proj', 'node_modules', 'linked'));
    const r = js("import x from 'linked'");
    expect(r.files.filter((f) => !f.includes('.claude'))).toEqual([]);
    expect(r.trees).toEqual([]);
  });

  it('an unresolvable package pins node_modules/<pkg> of each directory up to the project', () => {
    const files = js("require('@scope/nope/sub')").files;
    expect(files).toEqual([
      h('node_modules', '@scope', 'nope'),
      dir.path('proj', '.claude', 'node_modules', '@scope', 'nope'),
      dir.path('proj', 'node_modules', '@scope', 'nope'),
    ]);
  });

  it('a require function createRequire made, bound to a name, is require: its calls are loads', () => {
    dir.write('proj/.claude/hooks/cr.cjs', '');
    dir.write('proj/.claude/hooks/cr2.cjs', '');
    const text = [
      "import { createRequire } from 'node:module';",
      'const load = createRequire(import.meta.url);',
      "const { x } = load('./cr.cjs');",
      "const require = module.createRequire(__filename); require('./cr2.cjs');",
      "if (typeof require === 'function' && require.main === module) load.resolve('./no.js');",
    ].join('\n');
    expect(js(text, 'guard.mjs')).toEqual({ files: [h('cr.cjs'), h('cr2.cjs')], trees: [], unpinned: [] });
  });

  it('require reached other than by a call of a require function is unpinned, naming script:line', () => {
    const text = [
      'const req = require;',
      "require.call(null, './a.js');",
      "require.main.require('./a.js');",
      "process.mainModule.require('./a.js');",
      "Module._load('./a.js');",
      "createRequire(import.meta.url)('./a.js');",
      "const r2 = createRequire('/elsewhere/');",
      "const { createRequire: cr } = require('module');",
      "module['require']('./a.js');",
    ].join('\n');
    expect(js(text).unpinned.map((u) => u.slice(h('guard.js').length))).toEqual([
      ':6: the require function createRequire makes is not bound to a name, or not for this file',
      ':7: the require function createRequire makes is not bound to a name, or not for this file',
      ':8: createRequire used other than called',
      ':1: the require function require used other than called',
      ':2: the require function require used other than called',
      ":3: main.require reaches Node's loader",
      ":4: mainModule reaches Node's loader",
      ":5: _load reaches Node's loader",
      ':9: require reached by a computed member',
    ]);
  });

  it('computed specifiers are unpinned, naming script:line', () => {
    const text = "require(name);\nimport(`./${x}.js`);\nrequire('./a' + b);\nimport('https://example.invalid/x.js');";
    expect(js(text).unpinned).toEqual([
      `${h('guard.js')}:1: require() of a specifier that cannot be determined`,
      `${h('guard.js')}:2: import() of a specifier that cannot be determined`,
      `${h('guard.js')}:3: require() of a specifier that cannot be determined`,
      `${h('guard.js')}:4: the specifier "https://example.invalid/x.js" is not modelled`,
    ]);
  });
});

describe('jsIncludes: how the file itself loads', () => {
  it('without a package.json: each one from the script up to the file system root is pinned absent; no type record', () => {
    const out = jsIncludes(h('guard.js'), '', dir.path('proj'));
    expect(out.files).toEqual(packageChain('guard.js'));
    expect(out.files).toContain(dir.path('package.json'));
    expect(out.records).toBeUndefined();
    // One above the project decides too (Node's walk does not stop at the project).
    dir.write('package.json', '{"type":"module"}\n');
    expect(jsIncludes(h('guard.js'), '', dir.path('proj')).records).toEqual({ [`glob:${dir.path('package.json')}:type`]: '"module"' });
    rmSync(dir.path('package.json'));
    // Node's walk stops at a node_modules directory.
    expect(jsIncludes(dir.path('proj', 'node_modules', 'x', 'g.js'), '', dir.path('proj')).files).toEqual([
      dir.path('proj', 'node_modules', 'x', 'package.json'),
    ]);
    // Outside the project: none.
    expect(jsIncludes(dir.path('elsewhere', 'g.js'), '', dir.path('proj')).files).toEqual([]);
  });
  it('the nearest package.json decides: the absent nearer ones are pinned, and of it only its "type"', () => {
    dir.json('proj/package.json', { type: 'module', dependencies: { a: '1' } });
    const out = jsIncludes(h('guard.js'), '', dir.path('proj'));
    const chain = packageChain('guard.js');
    expect(out.files).toEqual(chain.slice(0, chain.indexOf(dir.path('proj', 'package.json'))));
    expect(out.records).toEqual({ [`glob:${dir.path('proj', 'package.json')}:type`]: '"module"' });
    // A leading BOM, which Node strips, is read past.
    dir.write('proj/package.json', '\ufeff{"type":"commonjs"}\n');
    expect(jsIncludes(h('guard.js'), '', dir.path('proj')).records).toEqual({
      [`glob:${dir.path('proj', 'package.json')}:type`]: '"commonjs"',
    });
    // .mjs and .cjs say what they are themselves.
    expect(jsIncludes(h('guard.mjs'), '', dir.path('proj')).records).toBeUndefined();
  });
});
