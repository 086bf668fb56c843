/**
 * What a command hook executes, modelled the way a shell would run it, so the digest can pin it.
 *
 * The command is first given the placeholder substitution the engine applies before running it
 * (substituteForShell / substitutePlaceholders), then parsed as Bash (unbash) and interpreted
 * symbolically:
 *
 * - variables: `CLAUDE_PROJECT_DIR`, `CLAUDE_PLUGIN_ROOT`, `CLAUDE_PLUGIN_DATA`, `HOME`, `PWD`
 *   and the hook's own `env` are known, in every spelling (`$X`, `${X}`, `"$X"`, `${X:-d}`);
 *   assignments in the command (`X=…; $X/a.sh`, `export X=…`) are tracked; an unquoted
 *   expansion is split on whitespace like the shell does; `~` and `~/…` expand to HOME;
 * - `$(pwd)` and `$(git rev-parse --show-toplevel)` are known; every other `$(…)` has an unknown
 *   value, and what it runs is modelled too;
 * - `cd` is tracked across `&&`, `||`, `;` and newlines (a `cd` into a missing directory, or in
 *   one branch of a compound command, makes the directory unknown);
 * - `sh -c`, `bash -c`, `eval` and `source` are followed; wrappers (`exec`, `env`, `nohup`,
 *   `timeout`, `nice`, `command`, `time`) are looked through;
 * - interpreters (`python3`, `node`, `bash`, `ruby`, …) pin their script argument; a directory
 *   given to one (`python3 pkg` runs `pkg/__main__.py`, `node pkg` its package main) is hashed
 *   recursively, within a size bound;
 * - `npx X` pins `node_modules/.bin/X`;
 * - globs are expanded at digest time, and the list of matches is itself recorded.
 *
 * The result: the files to pin (every executed file, plus every path-like word, as before), the
 * directories to hash as trees, extra records (glob match lists), and — when what runs cannot
 * be determined (a command name from an unknown expansion, a relative script after `cd` into an
 * unknown directory, `npm run`, a shell reading its stdin, …) — the reasons the hook is
 * *unpinned*. An unpinned hook is never silently pinned to nothing: trusting it takes an
 * explicit acknowledgement (gate.ts).
 */
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { forEachChild, parse, type Command, type SyntaxNode, type Word, type WordPart, type Redirection } from 'unbash';
import { substituteForShell, substitutePlaceholders, type PlaceholderVars } from '../backends/env.js';
import type { CommandHandler } from '../types.js';

export interface PinContext {
  /** Working directory of the hook (the workspace directory, real path). */
  cwd: string;
  projectDir: string;
  /** Top level of the git work tree, when the workspace is in one: `$(git rev-parse --show-toplevel)`. */
  gitTopLevel?: string;
  pluginRoot?: string;
  pluginData?: string;
  homeDir: string;
}

export interface Pins {
  /** Absolute paths whose content (or absence) is pinned, in order, without duplicates. */
  files: string[];
  /** Directories pinned recursively (an interpreter given a directory). */
  trees: string[];
  /** Further records: glob match lists, keyed `glob:<cwd>:<pattern>`. */
  records: Record<string, string>;
  /** Why what runs cannot be determined; empty when the hook is pinned. */
  unpinned: string[];
}

/** Bounds, so a hostile command cannot make the model run away. */
const MAX_DEPTH = 8;
const MAX_COMMANDS = 2000;
const MAX_GLOB_MATCHES = 256;

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash']);
const PYTHON = /^python(\d+(\.\d+)?)?$/;
const NODE_LIKE = new Set(['node', 'nodejs', 'tsx', 'ts-node', 'bun']);
const SCRIPTED = new Set(['ruby', 'perl', 'php', 'lua', 'Rscript', 'awk', 'gawk']);
const PACKAGE_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'deno']);
const RECIPE_RUNNERS = new Set(['make', 'gmake', 'just', 'task', 'rake']);
const WRAPPERS = new Set(['exec', 'command', 'builtin', 'nohup', 'time', 'nice', 'timeout', 'env', 'stdbuf', 'ionice', 'chronic']);

/** One argv element: a string, or unknown (with why). */
type Arg = string | { unknown: string };
const isKnown = (a: Arg | undefined): a is string => typeof a === 'string';

interface State {
  /** Current directory, undefined when unknown. */
  cwd: string | undefined;
  /** Shell variables with a known value. */
  vars: Map<string, string>;
  /** Names exported to child processes (nested `sh -c`). */
  exported: Set<string>;
  /** Functions defined so far (their bodies are modelled where defined). */
  functions: Set<string>;
}

interface Run {
  ctx: PinContext;
  pins: Pins;
  seenFiles: Set<string>;
  seenTrees: Set<string>;
  commands: number;
}

const clone = (s: State): State => ({ cwd: s.cwd, vars: new Map(s.vars), exported: new Set(s.exported), functions: new Set(s.functions) });

function unpin(run: Run, why: string): void {
  if (!run.pins.unpinned.includes(why)) run.pins.unpinned.push(why);
}

function pinFile(run: Run, p: string): void {
  if (p.includes('\0')) return;
  if (!run.seenFiles.has(p)) {
    run.seenFiles.add(p);
    run.pins.files.push(p);
  }
}

function pinTree(run: Run, p: string): void {
  if (!run.seenTrees.has(p)) {
    run.seenTrees.add(p);
    run.pins.trees.push(p);
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Resolve a path the shell would use; undefined when relative and the directory is unknown. */
function resolveIn(st: State, p: string): string | undefined {
  if (path.isAbsolute(p)) return path.normalize(p);
  return st.cwd === undefined ? undefined : path.resolve(st.cwd, p);
}

/** Record an executed path (script, program, sourced file). */
function pinExecuted(run: Run, st: State, p: string, what: string): void {
  const abs = resolveIn(st, p);
  if (abs === undefined) {
    unpin(run, `${what} ${p} is relative to a directory that cannot be determined`);
    return;
  }
  pinFile(run, abs);
}

/** Record a script given to an interpreter: a directory is pinned whole. */
function pinScript(run: Run, st: State, p: string, interpreter: string): void {
  const abs = resolveIn(st, p);
  if (abs === undefined) {
    unpin(run, `${interpreter} script ${p} is relative to a directory that cannot be determined`);
    return;
  }
  if (isDir(abs)) pinTree(run, abs);
  else pinFile(run, abs);
}

// ---------------------------------------------------------------------------------------------
// Words

interface Piece {
  text: string;
  /** Quoted text: never split, never a glob. */
  quoted: boolean;
  /** Unquoted text that came from an expansion: split on whitespace. */
  expanded?: boolean;
  glob?: boolean;
}

const GLOB_CHARS = /[*?[]/;

function paramValue(run: Run, st: State, name: string): string | undefined {
  if (name === 'PWD') return st.cwd;
  return st.vars.get(name);
}

function expansionValue(run: Run, st: State, part: WordPart): Arg {
  if (part.type === 'SimpleExpansion') {
    const name = part.text.slice(1);
    const v = paramValue(run, st, name);
    return v ?? { unknown: `$${name} has no known value` };
  }
  if (part.type === 'ParameterExpansion') {
    const v = part.prefix === undefined && part.index === undefined ? paramValue(run, st, part.parameter) : undefined;
    const op = part.operation;
    if (op === undefined && v !== undefined) return v;
    if (op?.type === 'Default' && (op.operator === ':-' || op.operator === '-') && v !== undefined && v !== '') return v;
    return { unknown: `${part.text} has no known value` };
  }
  if (part.type === 'CommandExpansion') {
    const inner = part.text.replace(/^\$\(|\)$|^`|`$/g, '').trim().replace(/\s+/g, ' ');
    if (inner === 'pwd' || inner === 'pwd -P') return st.cwd ?? { unknown: `${part.text}: the directory cannot be determined` };
    if (inner === 'git rev-parse --show-toplevel') {
      const top = run.ctx.gitTopLevel;
      if (top !== undefined && st.cwd !== undefined && isInside(st.cwd, top)) return top;
      return { unknown: `${part.text}: not inside the workspace's git work tree` };
    }
    return { unknown: `${part.text} has no value known before it runs` };
  }
  return { unknown: `${part.text} cannot be evaluated` };
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function pieces(run: Run, st: State, word: Word): Piece[] | { unknown: string } {
  if (!word.parts) return [{ text: word.value, quoted: false }];
  const out: Piece[] = [];
  for (const part of word.parts) {
    switch (part.type) {
      case 'Literal':
        out.push({ text: part.value, quoted: false });
        break;
      case 'SingleQuoted':
      case 'AnsiCQuoted':
        out.push({ text: part.value, quoted: true });
        break;
      case 'DoubleQuoted':
      case 'LocaleString':
        for (const child of part.parts) {
          if (child.type === 'Literal') out.push({ text: child.value, quoted: true });
          else {
            const v = expansionValue(run, st, child);
            if (!isKnown(v)) return v;
            out.push({ text: v, quoted: true });
          }
        }
        break;
      case 'Glob':
        out.push({ text: part.text, quoted: false, glob: true });
        break;
      case 'SimpleExpansion':
      case 'ParameterExpansion':
      case 'CommandExpansion': {
        const v = expansionValue(run, st, part);
        if (!isKnown(v)) return v;
        if (GLOB_CHARS.test(v)) return { unknown: `${part.text} expands to a glob pattern` };
        out.push({ text: v, quoted: false, expanded: true });
        break;
      }
      default:
        return { unknown: `${part.text} (${part.type}) cannot be evaluated` };
    }
  }
  return out;
}

/** Expand one word to the fields the shell would pass (tilde, splitting, globbing). */
function evalWord(run: Run, st: State, word: Word): Arg[] {
  const ps = pieces(run, st, word);
  if (!Array.isArray(ps)) return [ps];
  // Tilde: an unquoted leading `~` alone or before `/`.
  const first = ps[0];
  if (first && !first.quoted && !first.expanded && (first.text === '~' || first.text.startsWith('~/'))) {
    ps[0] = { text: run.ctx.homeDir + first.text.slice(1), quoted: true };
  }
  // Field splitting of unquoted expansions.
  const fields: Piece[][] = [[]];
  for (const p of ps) {
    if (p.expanded && /\s/.test(p.text)) {
      const parts = p.text.split(/[ \t\n]+/);
      parts.forEach((t, i) => {
        if (i > 0) fields.push([]);
        if (t !== '') fields[fields.length - 1]!.push({ text: t, quoted: true });
      });
    } else fields[fields.length - 1]!.push(p);
  }
  const out: Arg[] = [];
  for (const f of fields) {
    if (f.length === 0) continue;
    const hasGlob = f.some((p) => p.glob);
    const text = f.map((p) => p.text).join('');
    if (!hasGlob) {
      out.push(text);
      continue;
    }
    out.push(...expandGlob(run, st, f));
  }
  return out;
}

function globEscape(s: string): string {
  return s.replace(/[\\*?[\]{}()!+@|^$.]/g, '\\$&');
}

/** Expand a glob at digest time; the match list is recorded so a new match changes the digest. */
function expandGlob(run: Run, st: State, f: Piece[]): Arg[] {
  const pattern = f.map((p) => (p.glob ? p.text : globEscape(p.text))).join('');
  const shown = f.map((p) => p.text).join('');
  const absolute = shown.startsWith('/');
  const base = absolute ? '/' : st.cwd;
  if (base === undefined) return [{ unknown: `glob ${shown} is relative to a directory that cannot be determined` }];
  const segments = pattern.split('/').filter((s, i) => !(absolute && i === 0 && s === ''));
  let current: string[] = [''];
  for (const seg of segments) {
    const next: string[] = [];
    const literal = !/(^|[^\\])[*?[]/.test(seg);
    for (const prefix of current) {
      const dir = path.join(base, prefix);
      if (literal) {
        const name = seg.replace(/\\(.)/g, '$1');
        if (existsSync(path.join(dir, name))) next.push(prefix ? `${prefix}/${name}` : name);
        continue;
      }
      let names: string[];
      try {
        names = readdirSync(dir).sort();
      } catch {
        continue;
      }
      const match = picomatch(seg, { dot: false, nobrace: true, noextglob: true });
      for (const n of names) if (match(n)) next.push(prefix ? `${prefix}/${n}` : n);
      if (next.length > MAX_GLOB_MATCHES) return [{ unknown: `glob ${shown} matches more than ${MAX_GLOB_MATCHES} paths` }];
    }
    current = next;
  }
  const matches = current.map((m) => (absolute ? `/${m}` : m));
  run.pins.records[`glob:${base}:${shown}`] = JSON.stringify(matches);
  // No match: the shell passes the pattern on unchanged.
  return matches.length > 0 ? matches : [shown];
}

// ---------------------------------------------------------------------------------------------
// Commands

/** Model a script (the hook's command line, or a nested `sh -c` string). */
function modelScript(run: Run, st: State, source: string, depth: number): void {
  if (depth > MAX_DEPTH) {
    unpin(run, `commands nest deeper than ${MAX_DEPTH} levels`);
    return;
  }
  let script;
  try {
    script = parse(source);
  } catch {
    unpin(run, 'the command line cannot be parsed');
    return;
  }
  if (script.errors && script.errors.length > 0) unpin(run, `the command line does not parse as a shell script (${script.errors[0]!.message})`);
  for (const s of script.commands) modelNode(run, st, s, depth);
}

/** Walk a node in sequence, updating `st` (cwd, variables) as a shell would. */
function modelNode(run: Run, st: State, node: SyntaxNode, depth: number): void {
  if (++run.commands > MAX_COMMANDS) {
    unpin(run, `more than ${MAX_COMMANDS} commands`);
    return;
  }
  switch (node.type) {
    case 'Statement':
      if (node.background) modelNode(run, clone(st), node.command, depth);
      else modelNode(run, st, node.command, depth);
      return;
    case 'AndOr': {
      // After `a && b`, b ran after a succeeded; the chain may stop after any member, so afterwards
      // whatever differs between those stopping points is unknown. After `||`, the left side
      // failed somewhere: whatever changed since the chain began is unknown.
      // Once an `||` has been passed, a later member may be reached from the end of any earlier
      // one (`a || cd X && b` runs b in the old directory when a succeeds): merge them all.
      const start = clone(st);
      const ends: State[] = [];
      node.commands.forEach((c, i) => {
        if (i > 0 && node.operators.slice(0, i).includes('||')) {
          forget(st, start);
          for (const e of ends) forget(st, e);
        }
        modelNode(run, st, c, depth);
        ends.push(clone(st));
      });
      for (const e of ends) forget(st, e);
      return;
    }
    case 'Pipeline':
      // Every member runs in its own subshell; a shell reading from a pipe runs what it is fed.
      node.commands.forEach((c, i) => modelNode(run, clone(st), c, depth + (i > 0 ? 0 : 0)));
      node.commands.forEach((c, i) => {
        if (i > 0 && c.type === 'Command' && readsStdinScript(run, st, c)) unpin(run, `a ${c.name?.value} reads the commands it runs from a pipe`);
      });
      return;
    case 'Command':
      modelCommand(run, st, node, depth);
      return;
    case 'Subshell':
      modelNode(run, clone(st), node.body, depth);
      return;
    case 'CompoundList':
      for (const c of node.commands) modelNode(run, st, c, depth);
      return;
    case 'Function':
      // The body runs when called; model it where it is defined, in a copy of the state.
      if (node.name) st.functions.add(node.name.value);
      branch(run, st, node.body, depth);
      return;
    default:
      // if / while / for / case / [[ ]] / (( )) / brace groups / coproc: model every child as a
      // branch; whatever a branch changes becomes unknown afterwards.
      forEachChild(node, (child) => {
        if (child.type === 'Word') nestedScripts(run, st, child, depth);
        else branch(run, st, child, depth);
      });
  }
}

/** Whatever differs between `st` and `other` becomes unknown in `st`. */
function forget(st: State, other: State): void {
  if (other.cwd !== st.cwd) st.cwd = undefined;
  for (const [k, v] of other.vars) if (st.vars.get(k) !== v) st.vars.delete(k);
  for (const k of [...st.vars.keys()]) if (!other.vars.has(k)) st.vars.delete(k);
  for (const f of other.functions) st.functions.add(f);
}

/** Model a node that may or may not run: changes it makes to the state become unknown. */
function branch(run: Run, st: State, node: SyntaxNode, depth: number): void {
  const inner = clone(st);
  modelNode(run, inner, node, depth);
  forget(st, inner);
}

/** Commands inside `$(…)`, backticks and `<(…)` run too: model them (in a subshell). */
function nestedScripts(run: Run, st: State, node: SyntaxNode, depth: number): void {
  const visit = (n: SyntaxNode): void => {
    if ((n.type === 'CommandExpansion' || n.type === 'ProcessSubstitution' || n.type === 'ArithmeticCommandExpansion') && n.script) {
      const inner = clone(st);
      for (const s of n.script.commands) modelNode(run, inner, s, depth + 1);
      return;
    }
    forEachChild(n, visit);
  };
  visit(node);
}

function readsStdinScript(run: Run, st: State, cmd: Command): boolean {
  const argv = cmd.name ? [cmd.name, ...cmd.args.filter((a): a is Word => a.type === 'Word')].map((w) => w.value) : [];
  const name = path.basename(argv[0] ?? '');
  if (!SHELLS.has(name) && !PYTHON.test(name) && !NODE_LIKE.has(name) && !SCRIPTED.has(name)) return false;
  const rest = argv.slice(1);
  if (SHELLS.has(name)) return !rest.some((a) => !a.startsWith('-') || /^-[a-z]*c/.test(a)) || rest.includes('-s');
  return rest.length === 0 || rest.includes('-');
}

function modelCommand(run: Run, st: State, cmd: Command, depth: number): void {
  for (const p of cmd.prefix) nestedScripts(run, st, p, depth);
  for (const s of cmd.suffix) nestedScripts(run, st, s, depth);

  // Assignments: alone they set shell variables; before a command they only reach its environment.
  const env = new Map<string, Arg>();
  for (const p of cmd.prefix) {
    if (p.type !== 'Assignment') continue;
    const v = p.value.type === 'Word' && !p.append && p.index === undefined ? evalAssignment(run, st, p.value) : { unknown: `${p.name} is an array` };
    env.set(p.name, v);
  }
  if (!cmd.name) {
    for (const [k, v] of env) setVar(st, k, v);
    return;
  }
  const argv: Arg[] = [];
  for (const w of [cmd.name, ...cmd.args]) {
    if (w.type === 'Assignment') {
      // `export X=…`, `declare X=…`: an argument that looks like an assignment.
      const v = w.value.type === 'Word' && !w.append && w.index === undefined ? evalAssignment(run, st, w.value) : { unknown: `${w.name} is an array` };
      argv.push(isKnown(v) ? `${w.name}=${v}` : { unknown: v.unknown, ...{ assign: w.name } } as Arg);
    } else argv.push(...evalWord(run, st, w));
  }
  execArgv(run, st, argv, env, cmd.redirects, depth);
  // Files a command reads through `<` are pinned like path-like arguments (never output files:
  // a log the hook writes would make it `modified` after every run).
  for (const r of cmd.redirects) {
    if (r.type !== 'Redirect' || r.operator !== '<' || !r.target) continue;
    const v = evalWord(run, st, r.target);
    if (v.length === 1 && isKnown(v[0]) && !/^&?\d*-?$/.test(v[0])) referencedArgs(run, st, [v[0].includes('/') ? v[0] : `./${v[0]}`]);
  }
}

function evalAssignment(run: Run, st: State, w: Word): Arg {
  // No field splitting or globbing in an assignment value; tilde after `=` does expand.
  const ps = pieces(run, st, w);
  if (!Array.isArray(ps)) return ps;
  const first = ps[0];
  if (first && !first.quoted && !first.expanded && (first.text === '~' || first.text.startsWith('~/'))) ps[0] = { text: run.ctx.homeDir + first.text.slice(1), quoted: true };
  return ps.map((p) => p.text).join('');
}

function setVar(st: State, name: string, v: Arg): void {
  if (isKnown(v)) st.vars.set(name, v);
  else st.vars.delete(name);
}

/** The environment a child process sees: exported variables plus the command's own assignments. */
function childState(st: State, env: Map<string, Arg>): State {
  const vars = new Map<string, string>();
  for (const k of st.exported) {
    const v = st.vars.get(k);
    if (v !== undefined) vars.set(k, v);
  }
  const exported = new Set(st.exported);
  for (const [k, v] of env) {
    exported.add(k);
    if (isKnown(v)) vars.set(k, v);
    else vars.delete(k);
  }
  return { cwd: st.cwd, vars, exported, functions: new Set() };
}

function execArgv(run: Run, st: State, argv: Arg[], env: Map<string, Arg>, redirects: readonly Redirection[], depth: number): void {
  if (argv.length === 0) return;
  const name0 = argv[0]!;
  if (!isKnown(name0)) {
    unpin(run, `the command name comes from an expansion (${name0.unknown})`);
    return;
  }
  const name = name0;
  const base = name.includes('/') ? path.basename(name) : name;
  const args = argv.slice(1);

  if (name.includes('/')) pinExecuted(run, st, name, 'program');

  // Builtins that change the state.
  if (name === 'cd' || name === 'pushd') {
    const target = args.find((a) => !(isKnown(a) && a.startsWith('-') && a !== '-')) ?? run.ctx.homeDir;
    if (!isKnown(target) || target === '-') {
      st.cwd = undefined;
      return;
    }
    const abs = resolveIn(st, target);
    st.cwd = abs !== undefined && isDir(abs) ? realOr(abs) : undefined;
    return;
  }
  if (name === 'popd') {
    st.cwd = undefined;
    return;
  }
  if (name === 'export' || name === 'declare' || name === 'typeset' || name === 'local' || name === 'readonly') {
    for (const a of args) {
      const assign = (a as { assign?: string }).assign;
      if (assign !== undefined) {
        st.vars.delete(assign);
        if (name === 'export') st.exported.add(assign);
        continue;
      }
      if (!isKnown(a) || a.startsWith('-')) continue;
      const eq = a.indexOf('=');
      const key = eq < 0 ? a : a.slice(0, eq);
      if (eq >= 0) st.vars.set(key, a.slice(eq + 1));
      if (name === 'export') st.exported.add(key);
    }
    return;
  }
  if (name === 'unset') {
    for (const a of args) if (isKnown(a)) st.vars.delete(a);
    return;
  }
  if (name === 'source' || name === '.') {
    const file = args[0];
    if (!isKnown(file)) unpin(run, `${name} of a file that cannot be determined`);
    else pinExecuted(run, st, file, 'sourced file');
    // What the sourced file does to the directory and variables is not modelled.
    st.cwd = undefined;
    for (const k of [...st.vars.keys()]) if (!st.exported.has(k)) st.vars.delete(k);
    return;
  }
  if (name === 'eval') {
    if (!args.every(isKnown)) {
      unpin(run, 'eval of text that cannot be determined');
      return;
    }
    modelScript(run, st, (args as string[]).join(' '), depth + 1);
    return;
  }
  if (st.functions.has(name)) return; // modelled where defined

  // Wrappers: look through to the command they run.
  if (WRAPPERS.has(base)) {
    const inner = unwrap(base, args, env);
    if (inner === undefined) unpin(run, `cannot tell which command ${base} runs`);
    else if (inner.length > 0) execArgv(run, base === 'exec' || base === 'command' || base === 'builtin' || base === 'time' ? st : childState(st, env), inner, base === 'env' ? new Map() : env, redirects, depth);
    return;
  }

  if (SHELLS.has(base)) return modelShell(run, st, base, args, env, redirects, depth);
  if (PYTHON.test(base)) return modelPython(run, st, base, args, redirects);
  if (NODE_LIKE.has(base) || base === 'deno') {
    if (base === 'deno' || (base === 'bun' && (args[0] === 'run' || args[0] === 'x'))) {
      if (isKnown(args[0]) && (args[0] === 'run' || args[0] === 'x')) return modelNode2(run, st, base, args.slice(1), redirects);
      if (base === 'deno') return unpin(run, `deno ${isKnown(args[0]) ? args[0] : '…'} is not modelled`);
    }
    if (base === 'bun' && isKnown(args[0]) && !args[0].startsWith('-') && !/[./]/.test(args[0])) return modelPackageRunner(run, st, base, args);
    return modelNode2(run, st, base, args, redirects);
  }
  if (SCRIPTED.has(base)) return modelScripted(run, st, base, args, redirects);
  if (base === 'npx' || base === 'pnpx' || base === 'bunx') return modelNpx(run, st, base, args);
  if (PACKAGE_RUNNERS.has(base)) return modelPackageRunner(run, st, base, args);
  if (RECIPE_RUNNERS.has(base)) {
    unpin(run, `${base} runs recipes its own file defines; they are not modelled`);
    return;
  }
  if (base === 'xargs' || base === 'find' && args.some((a) => a === '-exec' || a === '-execdir')) {
    unpin(run, `${base} runs commands built from its input`);
    return;
  }
  referencedArgs(run, st, args);
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Path-like arguments of any command are pinned too (config files, data the hook reads). */
function referencedArgs(run: Run, st: State, args: Arg[]): void {
  for (const a of args) {
    if (!isKnown(a) || a === '' || a.startsWith('-') || /\s|:\/\/|[*?]/.test(a)) continue;
    const eq = a.indexOf('=');
    const w = eq > 0 && /^[A-Za-z_][A-Za-z0-9_-]*=/.test(a) && a.slice(eq + 1).includes('/') ? a.slice(eq + 1) : a;
    if (path.isAbsolute(w) || w.includes('/')) {
      const abs = resolveIn(st, w);
      if (abs !== undefined) pinFile(run, abs);
    } else if (st.cwd !== undefined) {
      const candidate = path.resolve(st.cwd, w);
      if (isFile(candidate)) pinFile(run, candidate);
    }
  }
}

/** The command a wrapper runs, or undefined when its options cannot be followed. */
function unwrap(base: string, args: Arg[], env: Map<string, Arg>): Arg[] | undefined {
  let i = 0;
  const opt = (a: Arg | undefined) => isKnown(a) && a.startsWith('-') && a !== '-' && a !== '--';
  const skipDashDash = () => {
    if (args[i] === '--') i++;
  };
  switch (base) {
    case 'exec':
      while (opt(args[i])) i += args[i] === '-a' ? 2 : 1;
      break;
    case 'command':
      if (args.some((a) => a === '-v' || a === '-V')) return [];
      while (opt(args[i])) i++;
      break;
    case 'builtin':
    case 'nohup':
    case 'chronic':
      skipDashDash();
      break;
    case 'time':
      while (opt(args[i])) i += args[i] === '-f' || args[i] === '-o' ? 2 : 1;
      break;
    case 'nice':
    case 'ionice':
      while (opt(args[i])) i += /^-[nct]$/.test(args[i] as string) ? 2 : 1;
      skipDashDash();
      break;
    case 'stdbuf':
      while (opt(args[i])) i += /^-[ioe]$/.test(args[i] as string) ? 2 : 1;
      skipDashDash();
      break;
    case 'timeout':
      while (opt(args[i])) i += args[i] === '-s' || args[i] === '-k' ? 2 : 1;
      skipDashDash();
      i++; // the duration
      break;
    case 'env':
      for (;;) {
        const a = args[i];
        if (a === undefined) break;
        if (!isKnown(a)) {
          if ((a as { assign?: string }).assign !== undefined) {
            env.set((a as { assign?: string }).assign!, a);
            i++;
            continue;
          }
          break;
        }
        if (a === '-u' || a === '-C') {
          if (a === '-C') return undefined; // a different directory
          i += 2;
        } else if (a === '-S' || a.startsWith('--split-string')) return undefined;
        else if (opt(a)) i++;
        else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
          const eq = a.indexOf('=');
          env.set(a.slice(0, eq), a.slice(eq + 1));
          i++;
        } else break;
      }
      skipDashDash();
      break;
  }
  return args.slice(i);
}

function modelShell(run: Run, st: State, base: string, args: Arg[], env: Map<string, Arg>, redirects: readonly Redirection[], depth: number): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!isKnown(a)) {
      unpin(run, `${base} is given an argument that cannot be determined (${a.unknown})`);
      return;
    }
    if (a === '--') {
      const script = args[i + 1];
      if (script === undefined) break;
      if (!isKnown(script)) return unpin(run, `${base} runs a script that cannot be determined`);
      pinScript(run, st, script, base);
      return;
    }
    if (/^[-+]o$/.test(a) || a === '-O' || a === '+O' || a === '--rcfile' || a === '--init-file') {
      i++;
      continue;
    }
    if (a.startsWith('-') || a.startsWith('+')) {
      if (a.startsWith('--')) continue;
      if (a.includes('s')) break; // -s: commands from stdin
      if (a.includes('c') && a.startsWith('-')) {
        const text = args[i + 1];
        if (text === undefined) return unpin(run, `${base} -c without a command`);
        if (!isKnown(text)) return unpin(run, `${base} -c runs text that cannot be determined (${text.unknown})`);
        modelScript(run, childState(st, env), text, depth + 1);
        return;
      }
      continue;
    }
    // The first operand is the script (resolved in the current directory, then PATH).
    pinScript(run, st, a, base);
    return;
  }
  stdinScript(run, st, base, redirects, depth, (text) => modelScript(run, childState(st, env), text, depth + 1));
}

/** An interpreter without a script reads it from stdin: follow `< file` and literal here-docs. */
function stdinScript(run: Run, st: State, base: string, redirects: readonly Redirection[], depth: number, literal?: (text: string) => void): void {
  void depth;
  const input = redirects.find((r) => (r.type === 'Redirect' && r.operator === '<' && (r.descriptor === undefined || (r.descriptor.type === 'FileDescriptor' && r.descriptor.value === 0))) || r.type === 'HereDoc' || r.type === 'HereString');
  if (!input) return; // stdin is the hook payload (JSON), or a pipe (see Pipeline)
  if (input.type === 'Redirect') {
    const target = input.target;
    const v = target ? evalWord(run, st, target) : [];
    if (v.length !== 1 || !isKnown(v[0])) return unpin(run, `${base} reads its script from a file that cannot be determined`);
    pinScript(run, st, v[0], base);
    return;
  }
  if (input.type === 'HereDoc' && literal && (input.delimiter?.quoted || !input.body.parts?.some((p) => p.type !== 'Literal'))) {
    literal(input.body.text);
    return;
  }
  unpin(run, `${base} reads its script from a here-document or here-string that is not modelled`);
}

function modelPython(run: Run, st: State, base: string, args: Arg[], redirects: readonly Redirection[]): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!isKnown(a)) return unpin(run, `${base} is given an argument that cannot be determined (${a.unknown})`);
    if (a === '-c' || (a.startsWith('-c') && !a.startsWith('--'))) {
      referencedArgs(run, st, args.slice(i + 2));
      return; // inline code: it is in the config itself
    }
    if (a === '-m') {
      const mod = args[i + 1];
      if (!isKnown(mod)) return unpin(run, `${base} -m runs a module that cannot be determined`);
      // sys.path[0] is the current directory for -m: a module there is the one that runs.
      if (st.cwd === undefined) return unpin(run, `${base} -m ${mod}: the directory it searches cannot be determined`);
      const rel = mod.split('.').join('/');
      const asDir = path.resolve(st.cwd, rel);
      const asFile = path.resolve(st.cwd, `${rel}.py`);
      if (isDir(asDir)) pinTree(run, asDir);
      else pinFile(run, asFile); // recorded even when missing: creating it changes what runs
      referencedArgs(run, st, args.slice(i + 2));
      return;
    }
    if (a === '-W' || a === '-X' || a === '-Q') {
      i++;
      continue;
    }
    if (a === '-') return unpin(run, `${base} - reads its script from stdin`);
    if (a.startsWith('-')) continue;
    pinScript(run, st, a, base);
    referencedArgs(run, st, args.slice(i + 1));
    return;
  }
  stdinScript(run, st, base, redirects, 0);
}

function modelNode2(run: Run, st: State, base: string, args: Arg[], redirects: readonly Redirection[]): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!isKnown(a)) return unpin(run, `${base} is given an argument that cannot be determined (${a.unknown})`);
    if (a === '-e' || a === '--eval' || a === '-p' || a === '--print') {
      referencedArgs(run, st, args.slice(i + 2));
      return;
    }
    if (a === '-r' || a === '--require' || a === '--import' || a === '--loader' || a === '--experimental-loader' || a === '--preload') {
      const m = args[i + 1];
      if (!isKnown(m)) return unpin(run, `${base} ${a} loads a module that cannot be determined`);
      if (m.startsWith('.') || m.startsWith('/')) pinScript(run, st, m, base);
      i++;
      continue;
    }
    if (a === '-') return unpin(run, `${base} - reads its script from stdin`);
    if (a.startsWith('-')) continue;
    pinScript(run, st, a, base);
    referencedArgs(run, st, args.slice(i + 1));
    return;
  }
  stdinScript(run, st, base, redirects, 0);
}

function modelScripted(run: Run, st: State, base: string, args: Arg[], redirects: readonly Redirection[]): void {
  const awk = base === 'awk' || base === 'gawk';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!isKnown(a)) return unpin(run, `${base} is given an argument that cannot be determined (${a.unknown})`);
    if (awk) {
      if (a === '-f') {
        const f = args[i + 1];
        if (!isKnown(f)) return unpin(run, `${base} -f of a file that cannot be determined`);
        pinScript(run, st, f, base);
        i++;
        continue;
      }
      if (a === '-v' || a === '-F') {
        i++;
        continue;
      }
      if (a.startsWith('-')) continue;
      referencedArgs(run, st, args.slice(i + 1)); // program text inline, then input files
      return;
    }
    if (a === '-e' || a === '-E' || a === '-r') {
      referencedArgs(run, st, args.slice(i + 2));
      return;
    }
    if (a === '-I') {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    pinScript(run, st, a, base);
    referencedArgs(run, st, args.slice(i + 1));
    return;
  }
  if (!awk) stdinScript(run, st, base, redirects, 0);
}

function modelNpx(run: Run, st: State, base: string, args: Arg[]): void {
  let i = 0;
  while (isKnown(args[i]) && (args[i] as string).startsWith('-')) i += args[i] === '-p' || args[i] === '--package' ? 2 : 1;
  const bin = args[i];
  if (!isKnown(bin)) return unpin(run, `${base} runs a package that cannot be determined`);
  if (bin.includes('/')) return pinScript(run, st, bin, base);
  if (st.cwd === undefined) return unpin(run, `${base} ${bin}: the directory it searches cannot be determined`);
  // npx looks in node_modules/.bin of the current directory and its parents within the package.
  for (let dir = st.cwd; ; dir = path.dirname(dir)) {
    const cand = path.join(dir, 'node_modules', '.bin', bin);
    if (existsSync(cand)) {
      pinFile(run, cand);
      referencedArgs(run, st, args.slice(i + 1));
      return;
    }
    if (path.dirname(dir) === dir || (run.ctx.gitTopLevel !== undefined && dir === run.ctx.gitTopLevel) || dir === run.ctx.projectDir) break;
  }
  pinFile(run, path.join(st.cwd, 'node_modules', '.bin', bin)); // creating it would change what runs
  unpin(run, `${base} ${bin} is not installed in the workspace: it would run a package fetched or found elsewhere`);
}

function modelPackageRunner(run: Run, st: State, base: string, args: Arg[]): void {
  const sub = args.find((a) => !(isKnown(a) && a.startsWith('-')));
  if (st.cwd !== undefined) pinFile(run, path.join(st.cwd, 'package.json'));
  if (isKnown(sub) && (sub === 'exec' || sub === 'dlx' || sub === 'x')) return modelNpx(run, st, `${base} ${sub}`, args.slice(args.indexOf(sub) + 1));
  unpin(run, `${base} ${isKnown(sub) ? sub : '…'} runs what package.json (or the package manager) says; that is not modelled`);
}

/** Model what a command hook executes. Never throws. */
export function pinsOf(handler: CommandHandler, ctx: PinContext): Pins {
  const pins: Pins = { files: [], trees: [], records: {}, unpinned: [] };
  const run: Run = { ctx, pins, seenFiles: new Set(), seenTrees: new Set(), commands: 0 };
  const vars: PlaceholderVars = { CLAUDE_PROJECT_DIR: ctx.projectDir, ...(ctx.pluginRoot !== undefined ? { CLAUDE_PLUGIN_ROOT: ctx.pluginRoot } : {}), ...(ctx.pluginData !== undefined ? { CLAUDE_PLUGIN_DATA: ctx.pluginData } : {}) };
  const known = new Map<string, string>([['HOME', ctx.homeDir], ['CLAUDE_PROJECT_DIR', ctx.projectDir]]);
  if (ctx.pluginRoot !== undefined) known.set('CLAUDE_PLUGIN_ROOT', ctx.pluginRoot);
  if (ctx.pluginData !== undefined) known.set('CLAUDE_PLUGIN_DATA', ctx.pluginData);
  for (const [k, v] of Object.entries(handler.env ?? {})) if (typeof v === 'string') known.set(k, v);
  const st: State = { cwd: ctx.cwd, vars: known, exported: new Set(known.keys()), functions: new Set() };
  try {
    if (handler.args !== undefined) {
      // Exec form: no shell; the program and its arguments are literal after placeholders.
      const argv = [handler.command, ...handler.args].map((a) => substitutePlaceholders(a, vars));
      execArgv(run, st, argv, new Map(), [], 0);
    } else if (handler.shell === 'powershell') {
      unpin(run, 'PowerShell command lines are not modelled');
      referencedArgs(run, st, handler.command.split(/\s+/).map((w) => w.replace(/["']/g, '')));
    } else {
      modelScript(run, st, substituteForShell(handler.command, vars, handler.shell ?? 'sh'), 0);
    }
  } catch (e) {
    unpin(run, `the command could not be modelled: ${(e as Error).message}`);
  }
  return pins;
}
