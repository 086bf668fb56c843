/**
 * The modules a python script imports (imports.ts), read with a small tokenizer that skips strings
 * and comments. Each module is looked up in the script's directory (sys.path[0]: the directory of
 * its real path) and in directories an evaluated `sys.path` change adds; the `.py` and
 * `__init__.py` candidates there are pinned whether present or not, so a file created next to the
 * guard that shadows a standard module is a change.
 *
 * Compiled modules (`.so`, `.pyd`, sourceless `.pyc`) beside a module are covered by the names
 * includes.ts records of each module directory. Stated limits: site-packages are not followed; a `sys.path` change counts for every import of
 * the file, before or after it, and not for the modules it imports.
 */
import path from 'node:path';
import { callArgs, type Includes, IncludesBuilder } from './imports-common.js';
import { literal, statements, type Tok, tokenize } from './imports-python-tokens.js';
import { isDir, realOr } from './model.js';

interface Imp {
  level: number;
  parts: string[];
  names: string[];
}

/** `import a.b as c, d` or `from ..a import (b as c, d)` starting at `i`. */
function parseImport(st: Tok[], i: number): Imp[] {
  const dotted = (j: number): [string[], number] => {
    const parts: string[] = [];
    while (st[j]?.t === 'name' && st[j]!.v !== 'import') {
      parts.push(st[j]!.v);
      if (st[j + 1]?.v !== '.') return [parts, j + 1];
      j += 2;
    }
    return [parts, j];
  };
  if (st[i]!.v === 'import') {
    const out: Imp[] = [];
    let j = i + 1;
    for (;;) {
      const [parts, k] = dotted(j);
      if (parts.length > 0) out.push({ level: 0, parts, names: [] });
      j = st[k]?.v === 'as' ? k + 2 : k;
      if (st[j]?.v !== ',') return out;
      j++;
    }
  }
  let j = i + 1;
  let level = 0;
  for (; st[j]?.v === '.'; j++) level++;
  const [parts, k] = dotted(j);
  if (st[k]?.v !== 'import') return [];
  const names: string[] = [];
  for (let m = k + 1; m < st.length; m++) if (st[m]!.t === 'name' && st[m - 1]!.v !== 'as' && st[m]!.v !== 'as') names.push(st[m]!.v);
  return [{ level, parts, names }];
}

type Val = { s: string } | { f: string } | { m: string; of: string } | undefined;

/**
 * The value of a path expression built from `__file__` with os.path and pathlib (dirname, abspath,
 * realpath, join, Path(…).parent, .resolve(), .joinpath('lib'), .with_name('x'), / 'lib') or a
 * name assigned one earlier.
 */
function evaluate(toks: Tok[], script: string, vars: Map<string, string>): string | undefined {
  let i = 0;
  const postfix = (): Val => {
    let v: Val;
    const t = toks[i++];
    if (t?.t === 'str') v = t.s === undefined ? undefined : { s: t.s };
    else if (t?.v === '(' && t.t === 'op') {
      v = sum();
      if (toks[i++]?.v !== ')') return undefined;
    } else if (t?.t === 'name' && (t.v === '__file__' || vars.has(t.v))) v = { s: t.v === '__file__' ? script : vars.get(t.v)! };
    else if (t?.t === 'name') {
      let f = t.v;
      while (toks[i]?.v === '.' && toks[i + 1]?.t === 'name') {
        f += `.${toks[i + 1]!.v}`;
        i += 2;
      }
      v = { f };
    } else return undefined;
    for (;;) {
      const n = toks[i];
      if (n?.v === '(' && n.t === 'op' && v !== undefined && !('s' in v)) {
        const { args, end } = callArgs(toks, i);
        i = end;
        v = apply(
          v,
          args.map((a) => evaluate(a, script, vars)),
        );
      } else if (n?.v === '.' && toks[i + 1]?.t === 'name' && v !== undefined && 's' in v) {
        const attr = toks[i + 1]!.v;
        i += 2;
        v = attr === 'parent' ? { s: path.dirname(v.s) } : { m: attr, of: v.s };
      } else if (n?.v === '[' && v !== undefined && 'm' in v && v.m === 'parents' && toks[i + 2]?.v === ']') {
        const up = Number(toks[i + 1]?.v);
        v = Number.isInteger(up) ? { s: path.join(v.of, ...Array<string>(up + 1).fill('..')) } : undefined;
        i += 3;
      } else return v;
    }
  };
  const sum = (): Val => {
    let v = postfix();
    while (toks[i]?.t === 'op' && (toks[i]!.v === '/' || toks[i]!.v === '+')) {
      const op = toks[i++]!.v;
      const r = postfix();
      if (v === undefined || r === undefined || !('s' in v) || !('s' in r)) return undefined;
      v = { s: op === '+' ? v.s + r.s : join(v.s, r.s) };
    }
    return v;
  };
  const v = sum();
  return i === toks.length && v !== undefined && 's' in v ? v.s : undefined;
}

/** A call of one of the os.path/pathlib functions `evaluate` knows, or a method of a path. */
function apply(v: { f: string } | { m: string; of: string }, args: (string | undefined)[]): Val {
  const a = args.filter((x): x is string => x !== undefined);
  if (a.length !== args.length) return undefined;
  if ('m' in v) return method(v.m, v.of, a);
  const name = v.f.replace(/^(os\.path|os|path|pathlib)\./, '');
  if (a.length === 0 || name.includes('.')) return undefined;
  switch (name) {
    case 'dirname':
      return { s: path.dirname(a[0]!) };
    case 'realpath':
      return { s: realOr(a[0]!) };
    case 'abspath':
    case 'normpath':
    case 'str':
    case 'fspath':
      return { s: path.normalize(a[0]!) };
    case 'join':
    case 'Path':
    case 'PurePath':
    case 'PosixPath':
      return { s: join(...a) };
    default:
      return undefined;
  }
}

/** A pathlib method of the path `of`: resolve(), absolute(), joinpath(…), with_name(name). */
function method(m: string, of: string, a: string[]): Val {
  if (m === 'resolve' && a.length === 0) return { s: realOr(of) };
  if (m === 'absolute' && a.length === 0) return { s: of };
  if (m === 'joinpath' && a.length > 0) return { s: join(of, ...a) };
  // pathlib refuses a name that is empty or holds a separator: the file stays beside `of`.
  if (m === 'with_name' && a.length === 1 && a[0] !== '' && !a[0]!.includes('/')) return { s: path.join(path.dirname(of), a[0]!) };
  return undefined;
}

/** os.path.join and pathlib's `/`: an absolute part starts again; never relative to this process's directory. */
const join = (...parts: string[]): string => parts.reduce((acc, p) => (path.isAbsolute(p) ? p : path.join(acc, p)));

/** An absolute path `evaluate` finds; a relative one would depend on the directory the hook runs in. */
function evaluatePath(toks: Tok[], script: string, vars: Map<string, string>): string | undefined {
  const v = evaluate(toks, script, vars);
  return v !== undefined && path.isAbsolute(v) ? v : undefined;
}

const SYS_PATH_READS = new Set(['index', 'count', 'copy', 'remove', 'pop', 'clear']);

/** Imports, dynamic loads and sys.path changes of one file's text, added to `out`. */
class PythonScan {
  readonly imports: (Imp & { line: number })[] = [];
  readonly dirs: string[];
  private readonly vars = new Map<string, string>();

  constructor(
    private readonly script: string,
    private readonly out: IncludesBuilder,
    searched: readonly string[],
  ) {
    this.dirs = [...searched];
  }

  scan(text: string): void {
    for (const st of statements(tokenize(text))) {
      if (st[0]?.t === 'name' && st[1]?.v === '=' && st[1].t === 'op') {
        const v = evaluate(st.slice(2), this.script, this.vars);
        if (v !== undefined) this.vars.set(st[0].v, v);
        else this.vars.delete(st[0].v);
      }
      let depth = 0;
      for (let i = 0; i < st.length; i++) {
        const t = st[i]!;
        if (t.t === 'op' && '([{'.includes(t.v)) depth++;
        else if (t.t === 'op' && ')]}'.includes(t.v)) depth--;
        const starts = i === 0 || (depth === 0 && st[i - 1]!.v === ':' && st[i - 1]!.t === 'op');
        if (t.t === 'name' && (t.v === 'import' || t.v === 'from') && starts) {
          for (const imp of parseImport(st, i)) this.imports.push({ ...imp, line: t.line });
          break;
        }
        if (t.t === 'name' && st[i - 1]?.v !== '.') this.call(st, i);
        else if ((t.v === 'read_text' || t.v === 'read_bytes') && st[i + 1]?.v === '(') this.pathRead(st, i - 1);
      }
    }
  }

  private where(t: Tok): string {
    return `${this.script}:${t.line}`;
  }

  private importLiteral(mod: string | undefined, t: Tok, what: string): void {
    if (mod === undefined || mod.startsWith('.') || !/^[\p{L}_][\p{L}\p{N}_.]*$/u.test(mod))
      this.out.unpin(`${this.where(t)}: ${what} of a module name that cannot be determined`);
    else this.imports.push({ level: 0, parts: mod.split('.'), names: [], line: t.line });
  }

  /** A dotted name starting at `i`: a dynamic import, exec, runpy or a sys.path change. */
  private call(st: Tok[], i: number): void {
    const t = st[i]!;
    let j = i;
    let name = t.v;
    while (st[j + 1]?.v === '.' && st[j + 2]?.t === 'name') {
      name += `.${st[j + 2]!.v}`;
      j += 2;
    }
    const next = st[j + 1];
    if (name.startsWith('sys.path.')) {
      this.sysPath(st, name.slice('sys.path.'.length), j + 1, t);
      return;
    }
    if (name === 'sys.path') {
      const after = next?.v === '[' ? st[callArgs(st, j + 1).end] : next;
      if (after !== undefined && after.t === 'op' && after.v !== '==' && after.v.endsWith('='))
        this.out.unpin(`${this.where(t)}: a sys.path assignment that cannot be evaluated`);
      return;
    }
    if (next?.v !== '(' || next.t !== 'op') return;
    const { args } = callArgs(st, j + 1);
    const last = name.split('.').pop()!;
    if (name === 'importlib.import_module' || name === 'import_module' || name === '__import__' || name === 'runpy.run_module')
      this.importLiteral(literal(args[0]), t, name);
    else if (name === 'exec' || name === 'eval') {
      const code = literal(args[0]);
      if (code === undefined) this.out.unpin(`${this.where(t)}: ${name} of code that cannot be determined`);
      else this.scan(code);
    } else if (name === 'runpy.run_path' || last === 'spec_from_file_location' || last === 'SourceFileLoader') {
      const file = evaluatePath(args[name === 'runpy.run_path' ? 0 : 1] ?? [], this.script, this.vars);
      if (file === undefined) this.out.unpin(`${this.where(t)}: ${name} of a path that cannot be determined`);
      else this.out.file(file);
    } else if (last === 'addsitedir') this.out.unpin(`${this.where(t)}: site.addsitedir (its .pth files run code); that is not modelled`);
    else if (name === 'open' || name === 'io.open' || name === 'builtins.open') this.open(args);
  }

  /** `open(path)`, `open(path, 'rb')`: a data file read; a write mode (`w`, `a`, `x`, `+`) is a file written. Another mode is neither. */
  private open(args: Tok[][]): void {
    const file = evaluatePath(args[0] ?? [], this.script, this.vars);
    const keyword = (a: Tok[]): boolean => a[0]?.t === 'name' && a[1]?.v === '=';
    const modeArg = args.find((a) => keyword(a) && a[0]!.v === 'mode')?.slice(2) ?? args.filter((a) => !keyword(a))[1];
    const mode = modeArg === undefined ? 'r' : literal(modeArg);
    if (file === undefined || mode === undefined) return;
    if (/[wax+]/.test(mode)) this.out.read(file, true);
    else if (/^r[bt]?$|^[bt]r$/.test(mode)) this.out.read(file);
  }

  /** `<path>.read_text()`, `.read_bytes()` at the `.` at `dot`: the longest path expression before it. */
  private pathRead(st: Tok[], dot: number): void {
    for (let j = 0; j < dot; j++) {
      const file = evaluatePath(st.slice(j, dot), this.script, this.vars);
      if (file !== undefined) {
        this.out.read(file);
        return;
      }
    }
  }

  private sysPath(st: Tok[], method: string, open: number, t: Tok): void {
    if (SYS_PATH_READS.has(method)) return;
    const arg = method === 'insert' ? 1 : method === 'append' ? 0 : -1;
    const args = st[open]?.v === '(' ? callArgs(st, open).args : [];
    const dir = arg >= 0 && args[arg] !== undefined ? evaluatePath(args[arg], this.script, this.vars) : undefined;
    if (dir === undefined) this.out.unpin(`${this.where(t)}: sys.path.${method} of a directory that cannot be evaluated`);
    else if (!this.dirs.includes(dir)) this.dirs.push(dir);
  }
}

/** Pin `a.py` and `a/__init__.py` for each name of the chain from `dir`, following it while `a` is a directory (a package). */
function pinModule(out: IncludesBuilder, dir: string, parts: string[], names: string[]): void {
  let cur = dir;
  for (const part of parts) {
    out.file(path.join(cur, `${part}.py`));
    out.file(path.join(cur, part, '__init__.py'));
    cur = path.join(cur, part);
    if (!isDir(cur)) return;
  }
  // `from pkg import b` imports the submodule b when pkg is a package and has no attribute b.
  for (const n of names) {
    out.file(path.join(cur, `${n}.py`));
    out.file(path.join(cur, n, '__init__.py'));
  }
}

/**
 * `searched`: sys.path as known so far (it is the process's): sys.path[0] (the directory of the
 * script python was given, or the current one for `-m`), then the directories files added. The
 * result's `dirs` are every directory this file's imports were looked up in.
 */
export function pythonIncludes(script: string, text: string, searched: readonly string[] = [path.dirname(realOr(script))]): Includes {
  const out = new IncludesBuilder();
  const scan = new PythonScan(script, out, searched);
  scan.scan(text);
  for (const imp of scan.imports) {
    if (imp.level === 0) {
      for (const dir of scan.dirs) pinModule(out, dir, imp.parts, imp.names);
      continue;
    }
    // A relative import is looked up in the module's own package: the directory it was found in.
    const base = path.resolve(path.dirname(script), ...Array<string>(imp.level - 1).fill('..'));
    out.file(path.join(base, '__init__.py'));
    pinModule(out, base, imp.parts, imp.names);
  }
  return { ...out.result(), dirs: scan.dirs };
}
