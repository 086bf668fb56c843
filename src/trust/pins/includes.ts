/**
 * What the scripts a hook runs load into their own interpreter (issue 39). After the command line
 * is modelled (pins.ts), each pinned script that a shell, python or a JS runtime runs (named on
 * the command line, or by the script's shebang when it is executed directly) is read once and its
 * includes are modelled by its language, recursively: a shell's `source`/`.` (shell-includes.ts),
 * python's and JS's imports (the resolvers given). Each included file is pinned, present or
 * absent. What a script executes is not modelled; other interpreters' includes neither.
 */
import path from 'node:path';
import { isPathInside } from '../../util/path-inside.js';
import { pathLookup } from './lookup.js';
import { isFile, MAX_DEPTH, NODE_LIKE, PYTHON, pinFile, pinTree, realOr, SHELLS, unpin, type PinContext, type Run } from './model.js';
import type { ScriptRun } from './model.js';
import type { Includes } from './imports-common.js';
import { existsSync, readdirSync, readScript } from './observed-fs.js';

export type { Includes };

/** The resolvers by language: shell-includes.ts, imports.ts. */
export interface Resolvers {
  shell: (script: ScriptRun, shell: string, text: string, loader: Loader) => Includes;
  python?: (script: string, text: string, searched: readonly string[]) => Includes;
  js?: (script: string, text: string, projectDir: string) => Includes;
}

export const MAX_INCLUDED = 200;

/** What one hook's include walk shares: the context, and the included files so far (MAX_INCLUDED). */
export interface Loader {
  ctx: PinContext;
  included: Set<string>;
}

/** How a path shows in a reason: relative to the project directory when inside it. */
export const shown = (ctx: PinContext, file: string): string =>
  isPathInside(file, ctx.projectDir) ? path.relative(ctx.projectDir, file) : file;

/**
 * A `#!` line: the program it names as written, and the interpreter it runs (through `env`,
 * `env -S`: the program's first operand); undefined without one.
 */
export function shebangOf(
  text: string,
): { program: string; viaEnv: boolean; interpreter: string | undefined; options: string[] } | undefined {
  const m = /^#!\s*(\S+)([^\n]*)/.exec(text);
  if (!m) return undefined;
  const program = m[1]!;
  const words = m[2]!
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (path.basename(program) !== 'env') return { program, viaEnv: false, interpreter: path.basename(program), options: words };
  const at = words.findIndex((w) => !w.startsWith('-') && !w.includes('='));
  const interpreter = at < 0 ? undefined : path.basename(words[at]!);
  return { program, viaEnv: true, interpreter, options: at < 0 ? [] : words.slice(at + 1) };
}

/**
 * A script run by its `#!` line: `env X` finds X through PATH, as a bare command name on the
 * command line; a program named by its path inside the project (a venv's python) is executed
 * like the script; options that load files unpin.
 */
function modelShebang(run: Run, file: string, bang: NonNullable<ReturnType<typeof shebangOf>>, language: Language | undefined): void {
  if (bang.viaEnv && bang.interpreter !== undefined) pathLookup(run, bang.interpreter);
  else if (isPathInside(bang.program, run.ctx.projectDir)) pinFile(run, bang.program);
  const problem = shebangOptionsProblem(language, bang.options);
  if (problem !== undefined) unpin(run, `${shown(run.ctx, file)}: ${problem}`);
}

/**
 * Why the options of a `#!` line are not modelled, if they are not: a word that is not a flag
 * (`--import ./loader.mjs`, `uv run --script`), a long option, a JS runtime's flag (`-r`), or the
 * flags that take code or a module (`-c`, `-m`, python's `-W`/`-X` values aside).
 */
function shebangOptionsProblem(language: Language | undefined, options: readonly string[]): string | undefined {
  const odd = options.find((o) => !/^(-[A-Za-z]*|--)$/.test(o) || language === 'js' || language === undefined || /[cmWX]/.test(o.slice(1)));
  return odd === undefined ? undefined : `its #! line passes ${JSON.stringify(options.join(' '))}, which is not modelled`;
}

type Language = 'shell' | 'python' | 'js';
const languageOf = (interpreter: string): Language | undefined =>
  SHELLS.has(interpreter) ? 'shell' : PYTHON.test(interpreter) ? 'python' : NODE_LIKE.has(interpreter) ? 'js' : undefined;

/** Pin what the recorded scripts of `run` load (run.scripts); never throws. */
export function modelIncludes(run: Run, resolvers: Resolvers): void {
  const loader: Loader = { ctx: run.ctx, included: new Set() };
  const visited = new Set<string>();
  const pythonPath = new Map<string, string[]>();
  const queue: { file: string; language: Language; depth: number; main: string }[] = [];
  const data = new DataFiles();
  const apply = (inc: Includes, language: Language | undefined, depth: number, main: string): void => {
    for (const why of inc.unpinned) unpin(run, why);
    for (const t of inc.trees) pinTree(run, t);
    Object.assign(run.pins.records, inc.records);
    data.add(inc, main);
    for (const f of inc.files) {
      pinFile(run, f);
      loader.included.add(f);
      // Imports are loaded by the importer's interpreter: python files as python, JS (not JSON) as JS.
      const follows = language === 'python' ? f.endsWith('.py') : language === 'js' && !/\.(json|node)$/.test(f);
      if (follows && language !== undefined) queue.push({ file: f, language, depth: depth + 1, main });
    }
    if (loader.included.size > MAX_INCLUDED)
      unpin(run, `the hook's scripts load more than ${MAX_INCLUDED} files; the rest is not modelled`);
  };
  const imports = (file: string, language: Language, text: string, depth: number, main: string): void => {
    if (language === 'python' && resolvers.python) {
      const searched = pythonPath.get(main) ?? [];
      const inc = resolvers.python(file, text, searched);
      // sys.path is the process's: a directory one module adds is searched for the next ones too.
      const added = (inc.dirs ?? []).filter((d) => !searched.includes(d));
      pythonPath.set(main, [...searched, ...added]);
      for (const d of added) pythonModulesOf(run, d);
      apply(inc, language, depth, main);
    }
    if (language === 'js' && resolvers.js) apply(resolvers.js(file, text, run.ctx.projectDir), language, depth, main);
  };
  for (const s of run.scripts ?? []) {
    const named = s.interpreter === undefined ? undefined : languageOf(path.basename(s.interpreter));
    if (s.interpreter !== undefined && named === undefined) continue; // ruby, perl, awk…: not modelled
    const read = readScript(s.file);
    if ('missing' in read) continue;
    if ('problem' in read) {
      unpin(run, `${shown(run.ctx, s.file)} ${read.problem}; what it loads is not modelled`);
      continue;
    }
    const bang = shebangOf(read.text);
    // Without a `#!`, the shell that executes a text file runs it itself (readScript leaves binaries out).
    const interpreter = path.basename(s.interpreter ?? bang?.interpreter ?? (s.st.dialect === 'bash' ? 'bash' : 'sh'));
    const language = languageOf(interpreter);
    if (s.interpreter === undefined && bang !== undefined) modelShebang(run, s.file, bang, language);
    if (language === 'shell') apply(resolvers.shell(s, interpreter, read.text, loader), 'shell', 0, s.file);
    else if (language !== undefined && s.given === undefined && resolvers[language])
      unpin(run, `${interpreter} reads ${shown(run.ctx, s.file)} from stdin; what it imports is not modelled`);
    else if (language !== undefined && !visited.has(realOr(s.file))) {
      visited.add(realOr(s.file));
      if (language === 'python') {
        // sys.path[0]: the script's directory, or the current one for `-m` (not the module's own).
        const first = s.searchDir ?? path.dirname(realOr(s.file));
        pythonModulesOf(run, first);
        pythonPath.set(s.file, [first]);
        // A workspace interpreter by its path, pinned by the command line or by modelShebang.
        for (const f of run.pins.files) if (PYTHON.test(path.basename(f))) pythonStartupOf(run, f);
      }
      imports(s.file, language, read.text, 0, s.file);
    }
  }
  for (let q = queue.shift(); q !== undefined && loader.included.size <= MAX_INCLUDED; q = queue.shift()) {
    if (visited.has(realOr(q.file))) continue;
    visited.add(realOr(q.file));
    if (q.depth > MAX_DEPTH) {
      unpin(run, `${shown(run.ctx, q.file)}: imports nest deeper than ${MAX_DEPTH} levels; what it loads is not modelled`);
      continue;
    }
    const read = readScript(q.file);
    if ('problem' in read) unpin(run, `${shown(run.ctx, q.file)} ${read.problem}; what it loads is not modelled`);
    else if ('text' in read) {
      // A compiled module beside an imported one (`pkg/rules.*.so`) is loaded before its source.
      if (q.language === 'python') pythonModulesOf(run, path.dirname(realOr(q.file)));
      imports(q.file, q.language, read.text, q.depth, q.main);
    }
  }
  data.pin(run);
}

/**
 * The files the hook's scripts read as data (issue 39): pinned when regular files in the workspace,
 * in the directory of the script the hook runs or below it (the guard's own lists and rules, not
 * the project files it inspects, which the agent edits in its work), that none of its scripts
 * writes (its own log or state would fail it closed after its first run). An absent one is not
 * pinned: the hook may create it later.
 */
class DataFiles {
  private readonly read = new Set<string>();
  private readonly written = new Set<string>();

  add(inc: Includes, main: string): void {
    for (const f of inc.data ?? []) if (isPathInside(realOr(f), path.dirname(realOr(main)))) this.read.add(f);
    for (const f of inc.written ?? []) this.written.add(realOr(f));
  }

  pin(run: Run): void {
    for (const f of this.read) if (!this.written.has(realOr(f)) && isPathInside(f, run.ctx.projectDir) && isFile(f)) pinFile(run, f);
  }
}

/**
 * The modules a python directory offers, recorded by name: the script's own (sys.path[0]), where
 * every module the interpreter imports, the standard library's own imports included (`subprocess`
 * imports `selectors`), is looked up first; and each imported module's, where a compiled module of
 * the same name is loaded before its source. A module-like entry created there is a change; only
 * names that import (sources, bytecode, extensions, packages): a log the hook writes is not.
 */
function pythonModulesOf(run: Run, dir: string): void {
  const key = `glob:${dir}:python modules`;
  // Modules of one package share their directory: listed once.
  if (!isPathInside(dir, run.ctx.projectDir) || key in run.pins.records) return;
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((e) =>
        e.isDirectory()
          ? isRegularPackage(path.join(dir, e.name))
          : /\.(py|pyc|pyw|so|pyd)$/.test(e.name) || (e.isSymbolicLink() && /\.(py|pyc|so)$|^[^.]+$/.test(e.name)),
      )
      .map((e) => e.name)
      .sort();
  } catch (e) {
    unpin(
      run,
      `the modules of ${shown(run.ctx, dir)} cannot be listed (${(e as NodeJS.ErrnoException).code}); what the script imports is not modelled`,
    );
    return;
  }
  run.pins.records[key] = JSON.stringify(names);
}

/** A directory Python imports as a regular package: an `__init__` module of any kind (`__init__.abi3.so` too). */
function isRegularPackage(dir: string): boolean {
  try {
    return readdirSync(dir).some((n) => /^__init__\.(?:[^.]+\.)?(py|pyc|pyw|so|pyd)$/.test(n));
  } catch {
    return false;
  }
}

/**
 * A Python of a virtual environment inside the workspace (`.venv/bin/python`) runs, before any
 * script, its `pyvenv.cfg` and what its site-packages' `.pth` files and `sitecustomize.py` say:
 * each pinned (present or absent), and the `.pth` names recorded, so one created there is a change.
 */
function pythonStartupOf(run: Run, interpreter: string): void {
  const venv = path.dirname(path.dirname(interpreter));
  if (!isPathInside(venv, run.ctx.projectDir) || !existsSync(path.join(venv, 'pyvenv.cfg'))) return;
  pinFile(run, path.join(venv, 'pyvenv.cfg'));
  let versions: string[];
  try {
    versions = readdirSync(path.join(venv, 'lib')).filter((d) => d.startsWith('python'));
  } catch {
    return;
  }
  for (const v of versions) {
    const site = path.join(venv, 'lib', v, 'site-packages');
    let pth: string[] = [];
    try {
      pth = readdirSync(site)
        .filter((f) => f.endsWith('.pth'))
        .sort();
    } catch {
      // No site-packages: nothing there runs.
    }
    run.pins.records[`glob:${site}:python startup files`] = JSON.stringify(pth);
    for (const f of [...pth, 'sitecustomize.py', 'usercustomize.py']) pinFile(run, path.join(site, f));
  }
}
