/**
 * The files a JS or TS script loads (imports.ts): `require`, `import`, `export … from` and `import()`
 * with a literal specifier, read with a small tokenizer that skips comments, strings, template text
 * and regular expressions. A name bound to `createRequire(import.meta.url)` (or `__filename`) is a
 * require function too; require reached any other way (`const r = require`, `require.call`,
 * `require.main.require`, `process.mainModule`, `Module._load`) unpins with the line.
 *
 * A relative or absolute specifier naming an existing file of a JS script is that file (node, tsx
 * and bun all load an exact match). Otherwise, and always for a TS script (tsx), every candidate any
 * of node, tsx or bun tries is pinned, present or not, in no particular order: the extensions `.js`,
 * `.json`, `.node`, `.ts`, `.tsx`, `.mts`, `.cts`, `.mjs`, `.cjs`, a `.js` specifier read as its `.ts`
 * twin, then the directory's `package.json` and `index.*` (and the file its `main` names, found by
 * Node's resolver). Creating any of them may change what one of the three runs. An `import`'s
 * specifier is a URL (`./rules.mjs?v=1` is rules.mjs, `%20` a space); a `require`'s is a path.
 *
 * A package name is resolved by Node's resolver: its entry file and `package.json` are pinned, the
 * whole package for an ESM import (Node 20 cannot resolve the "import" condition for another
 * module), and the absent `<d>/node_modules/<pkg>` of each directory searched before it, inside the
 * project. Stated limits: a package outside the project is not pinned (it is not the agent's to
 * edit); tsconfig `paths` (which tsx follows) and bun's own module mapping are not modelled.
 */
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isPathInside } from '../../util/path-inside.js';
import { type Includes, IncludesBuilder } from './imports-common.js';
import { type Tok, Tokenizer } from './imports-js-tokens.js';
import { isDir, isFile, realOr } from './model.js';
import { createRequire, existsSync, readFileSync } from './observed-fs.js';
import { jsDataReads } from './data-reads-js.js';

interface Context {
  script: string;
  dir: string;
  ts: boolean;
  project: string;
  out: IncludesBuilder;
}

const isMember = (p: Tok | undefined): boolean => p?.t === 'op' && (p.v === '.' || p.v === '?.');

/** The literal specifier of the call whose `(` is at `open`; undefined when it is computed. */
function callLiteral(toks: Tok[], open: number): string | undefined {
  const a = toks[open + 1];
  const close = toks[open + 2];
  return a?.t === 'str' && close?.t === 'op' && (close.v === ')' || close.v === ',') ? a.s : undefined;
}

/** The specifier of `… from 'x'` after `start`, looking no further than the statement's end (`;`, `=`, `:`, `(`). */
function fromClause(toks: Tok[], start: number): string | undefined {
  for (let j = start; j < toks.length; j++) {
    const t = toks[j]!;
    if (t.t === 'op' && (t.v === ';' || t.v === '=' || t.v === ':' || t.v === '(')) return undefined;
    if (t.t === 'name' && t.v === 'from' && toks[j + 1]?.t === 'str') return toks[j + 1]!.s;
  }
  return undefined;
}

/** Members through which code reaches Node's loader other than by a call of a require function. */
const LOADER_MEMBERS = new Set(['_load', 'mainModule']);
/** Objects whose `.require` is another module's require function (`require.main.require`). */
const MODULE_OBJECTS = new Set(['main', 'parent', 'prototype']);

/** The `)` closing the call at `open` when its one argument is this file (`import.meta.url`, `import.meta.filename`, `__filename`); else -1. */
function ownFileArgument(toks: Tok[], open: number): number {
  const words = toks.slice(open + 1, open + 6).map((t) => t.v);
  if (words[0] === '__filename') return open + 2;
  return words.slice(0, 4).join(' ') === 'import . meta .' && (words[4] === 'url' || words[4] === 'filename') ? open + 6 : -1;
}

/**
 * The names bound to the result of `createRequire(import.meta.url)` (or `__filename`): calls of
 * them are requires. Any other use of createRequire unpins: a result not bound to a plain name, a
 * base other than this file, the function renamed or passed on.
 */
function requireNames(toks: Tok[], script: string, c: Context): Set<string> {
  const names = new Set(['require']);
  for (let k = 0; k < toks.length; k++) {
    if (toks[k]!.v !== 'createRequire' || toks[k]!.t !== 'name') continue;
    const where = `${script}:${toks[k]!.line}`;
    if (toks[k + 1]?.v !== '(') {
      // `import { createRequire } from 'node:module'`, `const { createRequire } = require('module')`.
      const listed = (toks[k - 1]?.v === '{' || toks[k - 1]?.v === ',') && (toks[k + 1]?.v === '}' || toks[k + 1]?.v === ',');
      if (!listed) c.out.unpin(`${where}: createRequire used other than called`);
      continue;
    }
    let s = k;
    while (isMember(toks[s - 1]) && toks[s - 2]?.t === 'name') s -= 2;
    const close = ownFileArgument(toks, k + 1);
    const name = toks[s - 2];
    const bound =
      toks[s - 1]?.v === '=' && name?.t === 'name' && !isMember(toks[s - 3]) && toks[s - 4]?.v !== 'export' && toks[close]?.v === ')';
    const after = toks[close + 1];
    if (bound && !(after?.t === 'op' && ['(', '.', '?.', '['].includes(after.v))) names.add(name.v);
    else c.out.unpin(`${where}: the require function createRequire makes is not bound to a name, or not for this file`);
  }
  return names;
}

/** Whether the require function named at `k`, not called, is used in a way that loads nothing. */
function inertUse(toks: Tok[], k: number): boolean {
  const prev = toks[k - 1];
  const next = toks[k + 1];
  if (prev?.v === 'typeof' || ['const', 'let', 'var'].includes(prev?.v ?? '') || next?.v === '=') return true;
  if (next?.v === ':' && (prev?.v === '{' || prev?.v === ',')) return true; // an object key
  // `require.resolve`, `require.cache`, `require.main === module`; not `.call`, `.apply`, `.bind`.
  return next?.t === 'op' && next.v === '.' && !['call', 'apply', 'bind'].includes(toks[k + 2]?.v ?? '');
}

/** Each load of one script: [specifier, 'require' | 'import'] or an unpinned reason. */
function loads(toks: Tok[], script: string, c: Context): void {
  const requires = requireNames(toks, script, c);
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!;
    const where = `${script}:${t.line}`;
    if (t.t === 'str' && toks[k - 1]?.v === '[' && ['require', 'createRequire', ...LOADER_MEMBERS].includes(t.s ?? '')) {
      c.out.unpin(`${where}: ${t.s} reached by a computed member`);
      continue;
    }
    if (t.t !== 'name') continue;
    const member = isMember(toks[k - 1]);
    if (LOADER_MEMBERS.has(t.v) || (member && t.v === 'require' && MODULE_OBJECTS.has(toks[k - 2]?.v ?? ''))) {
      c.out.unpin(`${where}: ${t.v === 'require' ? `${toks[k - 2]!.v}.require` : t.v} reaches Node's loader`);
      continue;
    }
    // `module.require` (and bun's `import.meta.require`) is require; any other member named require or import is not.
    const requireCall = requires.has(t.v) && (!member || (t.v === 'require' && (toks[k - 2]?.v === 'module' || toks[k - 2]?.v === 'meta')));
    if (member && !requireCall) continue;
    const next = toks[k + 1];
    if ((requireCall || t.v === 'import') && next?.v === '(' && next.t === 'op') {
      const spec = callLiteral(toks, k + 1);
      if (spec === undefined) c.out.unpin(`${where}: ${t.v}() of a specifier that cannot be determined`);
      else resolve(spec, requireCall ? 'require' : 'import', where, c);
    } else if (requireCall) {
      if (!inertUse(toks, k)) c.out.unpin(`${where}: the require function ${t.v} used other than called`);
    } else if (t.v === 'import' && next?.t === 'str') resolve(next.s ?? '', 'import', where, c);
    else if (t.v === 'import' && next !== undefined && !(next.t === 'op' && (next.v === '.' || next.v === ':'))) {
      const spec = fromClause(toks, k + 1);
      if (spec !== undefined) resolve(spec, 'import', where, c);
    } else if (t.v === 'export') exportFrom(toks, k, where, c);
  }
}

/** `export { a } from 'x'`, `export * from 'x'`, `export type …` at `k`. */
function exportFrom(toks: Tok[], k: number, where: string, c: Context): void {
  let j = k + 1;
  if (toks[j]?.v === 'type') j++;
  if (toks[j]?.v !== '{' && toks[j]?.v !== '*') return;
  if (toks[j]?.v === '{') while (j < toks.length && toks[j]!.v !== '}') j++;
  const spec = toks[j + 1]?.v === 'from' || toks[j]?.v === '*' ? fromClause(toks, j + 1) : undefined;
  if (spec !== undefined) resolve(spec, 'import', where, c);
}

function resolve(spec: string, kind: 'require' | 'import', where: string, c: Context): void {
  const isRelative = spec === '.' || spec === '..' || /^\.{0,2}\//.test(spec);
  if (kind === 'import' && (isRelative || spec.startsWith('file:'))) {
    // An ESM specifier is a URL: './rules.mjs?v=1' loads rules.mjs, '%20' is a space.
    let file: string | undefined;
    try {
      file = fileURLToPath(new URL(spec, pathToFileURL(c.script)));
    } catch {
      c.out.unpin(`${where}: the specifier ${JSON.stringify(spec)} is not a file URL Node can read`);
    }
    if (file !== undefined) relative(file, kind, c);
  } else if (isRelative) relative(spec, kind, c);
  else if (isBuiltin(spec) || spec === 'bun' || spec.startsWith('bun:')) return;
  else if (/^[a-z][a-z0-9+.-]*:/i.test(spec) || spec.startsWith('#') || spec === '')
    c.out.unpin(`${where}: the specifier ${JSON.stringify(spec)} is not modelled`);
  else bare(spec, kind, c);
}

/** Every file node, tsx or bun may load for a relative or absolute specifier, an import's read as a URL (see the top of this file). */
function relative(spec: string, kind: 'require' | 'import', c: Context): void {
  const x = path.resolve(c.dir, spec);
  if (!c.ts && isFile(x)) {
    c.out.file(x);
    return;
  }
  const candidates: string[] = [];
  if (!spec.endsWith('/')) {
    candidates.push(x, ...['.js', '.json', '.node', '.ts', '.tsx', '.mts', '.cts', '.mjs', '.cjs'].map((e) => x + e));
    const js = /\.(m|c)?jsx?$/.exec(x);
    if (js) candidates.push(...['ts', 'tsx', 'mts', 'cts'].map((e) => `${x.slice(0, js.index)}.${e}`));
  }
  candidates.push(
    path.join(x, 'package.json'),
    ...['js', 'json', 'node', 'ts', 'tsx', 'mjs', 'cjs'].map((e) => path.join(x, `index.${e}`)),
  );
  for (const f of candidates) if (!isDir(f)) c.out.file(f);
  if (kind === 'require' || isDir(x)) {
    try {
      // The file a package.json "main" names, which no list of candidates holds.
      c.out.file(createRequire(c.script).resolve(x));
    } catch {
      // Nothing loads today: the candidates, all absent, are what creating one would change.
    }
  }
}

/**
 * A package: its entry (by Node's resolver) and package.json when inside the project, and the
 * absent `<d>/node_modules/<pkg>` (with the file forms node tries for a bare name) of each
 * directory searched before the one holding it, up to the project's directory.
 */
function bare(spec: string, kind: 'require' | 'import', c: Context): void {
  const parts = spec.split('/');
  const pkg = parts.slice(0, spec.startsWith('@') ? 2 : 1).join('/');
  const require = createRequire(c.script);
  const names = spec === pkg ? [pkg, `${pkg}.js`, `${pkg}.json`, `${pkg}.node`] : [pkg];
  let found: string | undefined;
  for (const dir of require.resolve.paths(spec) ?? []) {
    if (!isPathInside(dir, c.project)) break;
    found = names.map((n) => path.join(dir, n)).find((f) => existsSync(f));
    if (found !== undefined) break;
    for (const n of names) c.out.file(path.join(dir, n));
  }
  if (found === undefined) return;
  let entry: string | undefined;
  try {
    entry = require.resolve(spec);
  } catch {
    // Found but not loadable (no entry, or exports refuse the subpath): the package's files still decide.
  }
  if (entry !== undefined && isPathInside(entry, c.project)) c.out.file(entry);
  const real = realOr(found);
  if (!isDir(real) || !isPathInside(real, c.project)) return;
  c.out.file(path.join(real, 'package.json'));
  if (kind === 'import' || entry === undefined) c.out.tree(real);
}

export function jsIncludes(script: string, text: string, projectDir: string): Includes {
  const real = realOr(script);
  const c: Context = {
    script: real,
    dir: path.dirname(real),
    ts: /\.(c|m)?tsx?$/.test(script),
    project: realOr(projectDir),
    out: new IncludesBuilder(),
  };
  const toks = new Tokenizer(text).toks;
  loads(toks, script, c);
  jsDataReads(toks, real, c.out);
  const records = /\.(c|m)[jt]s$/.test(script) ? undefined : moduleType(c);
  return { ...c.out.result(), ...(records ? { records } : {}) };
}

/**
 * Whether a `.js`/`.ts` file loads as a module or CommonJS is its nearest package.json's `"type"`:
 * the absent ones nearer than that are pinned (one created would decide), and of that one only the
 * `"type"` is recorded (a dependency added to the project's package.json is not a change). Node's
 * walk goes up to the file system root, past the project (stopping only at a `node_modules`).
 */
function moduleType(c: Context): Record<string, string> | undefined {
  if (!isPathInside(c.dir, c.project)) return undefined;
  for (let d = c.dir; path.basename(d) !== 'node_modules'; d = path.dirname(d)) {
    const file = path.join(d, 'package.json');
    if (isFile(file)) {
      let type: unknown;
      try {
        // Node strips a leading BOM; JSON.parse refuses it.
        type = (JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')) as { type?: unknown }).type;
      } catch {
        type = 'unreadable';
      }
      return { [`glob:${file}:type`]: JSON.stringify(type ?? null) };
    }
    c.out.file(file);
    if (d === path.dirname(d)) return undefined;
  }
  return undefined;
}
