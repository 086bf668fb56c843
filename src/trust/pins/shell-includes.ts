/**
 * What a shell script sources (`.`/`source`), for includes.ts: the script's own text walked by
 * the command line's model (shell.ts) with `$0` (and bash's `BASH_SOURCE`) set to the script as
 * the shell was given it. Of that walk only what is sourced is kept: each sourced file is pinned
 * (absent ones too) and walked in turn, in the state of the shell at that point; a source whose
 * file cannot be determined unpins the hook, naming the script and line. Anything else the walk
 * meets (programs it runs, unknown commands, traps) is neither pinned nor a reason.
 */
import type { SyntaxNode } from 'unbash';
import { forEachChild } from 'unbash';
import type { Includes, Loader } from './includes.js';
import { MAX_INCLUDED, shown } from './includes.js';
import { readScript } from './observed-fs.js';
import {
  clone,
  forgetDirectory,
  isKnown,
  MAX_DEPTH,
  realOr,
  resolveIn,
  type Arg,
  type IncludeHooks,
  type Run,
  type ScriptRun,
  type State,
} from './model.js';
import { modelNode, modelScript } from './shell.js';
import { dialectOf } from './shell-args.js';

/** Unpin reasons of the walk that mean what the script sources was not all seen. */
const UNSEEN =
  /^(the command line (cannot be parsed|does not parse)|more than \d+ commands|commands nest deeper|the command defines an alias|the command sets a trap whose text)/;

/** Commands the walk models by their meaning: a function of that name would take their place. */
const MODELLED = new Set(
  '. source exit cd pushd popd eval export declare typeset local readonly unset read readarray mapfile getopts printf builtin command exec alias pwd dirname realpath readlink env'.split(
    ' ',
  ),
);

interface Body {
  body: SyntaxNode;
  file: string;
  text: string;
  /** bash's `${BASH_SOURCE[0]}` in the body: the file that defined it, as that file was given. */
  source: string | undefined;
}

const localsOf = new WeakMap<SyntaxNode, Set<string> | undefined>();

/** `local`/`declare`/`typeset` names in a function body (restored when it returns); undefined when one cannot be told. */
function localNames(body: SyntaxNode): Set<string> | undefined {
  if (localsOf.has(body)) return localsOf.get(body);
  const names = new Set<string>();
  let unknown = false;
  const visit = (n: SyntaxNode): void => {
    if (n.type === 'Command' && ['local', 'declare', 'typeset'].includes(n.name?.value ?? '')) {
      for (const a of n.args) {
        if (a.type === 'Assignment') names.add(a.name);
        else if (a.value === '-g') unknown = true;
        else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.value)) names.add(a.value);
        else if (!a.value.startsWith('-')) unknown = true;
      }
    }
    forEachChild(n, visit);
  };
  visit(body);
  localsOf.set(body, unknown ? undefined : names);
  return localsOf.get(body);
}

/** What `script` (run by `shell`, with `text`) sources, recursively. */
export function shellIncludes(script: ScriptRun, shell: string, text: string, loader: Loader): Includes {
  const st = clone(script.st);
  if (!script.sourced) st.dialect = dialectOf(shell);
  // A file sourced by the hook's own shell sees that shell's `$0` (its name), not the file.
  if (script.given !== undefined && !script.sourced) st.vars.set('0', script.given);
  else st.vars.delete('0');
  if (shell === 'bash' && script.given !== undefined) st.vars.set('BASH_SOURCE', script.given);
  else st.vars.delete('BASH_SOURCE');
  const w = new SourceWalk(loader, shell, script.file, text);
  w.walk(st, script.file, text, 0);
  // A function never called by a name the walk knows (`"$1"`) may still be: modelled at the end.
  for (const [name, defs] of w.bodies)
    if (!w.called.has(name))
      for (const d of defs) {
        w.current = d;
        const inner = clone(st);
        setSource(inner, d.source);
        modelNode(w.run, inner, d.body, 1);
      }
  return { ...w.out, data: [...w.read], written: [...w.written] };
}

/** One walk of a script and what it sources: the scratch run whose pins are dropped, and what is kept. */
class SourceWalk {
  readonly out: Includes = { files: [], trees: [], unpinned: [] };
  readonly read = new Set<string>();
  readonly written = new Set<string>();
  readonly run: Run;
  readonly hooks: IncludeHooks;
  current: { file: string; text: string };
  readonly stack: Set<string>;
  readonly bodies = new Map<string, Body[]>();
  readonly called = new Set<string>();

  constructor(
    readonly loader: Loader,
    readonly shell: string,
    file: string,
    text: string,
  ) {
    this.current = { file, text };
    this.stack = new Set([realOr(file)]);
    this.hooks = {
      at: 0,
      source: (s, arg, depth) => this.source(s, arg, depth),
      define: (s, name, body) => this.define(name, body, s.vars.get('BASH_SOURCE')),
      call: (s, name, depth) => this.call(s, name, depth),
      data: (s, files, written) => {
        for (const f of files) {
          const abs = resolveIn(s, f);
          if (abs !== undefined) (written ? this.written : this.read).add(abs);
        }
      },
    };
    this.run = {
      ctx: loader.ctx,
      pins: { files: [], trees: [], records: {}, listed: [], unpinned: [] },
      seenFiles: new Set(),
      seenTrees: new Set(),
      commands: 0,
      includes: this.hooks,
    };
  }

  where(): string {
    return `${shown(this.loader.ctx, this.current.file)}:${this.current.text.slice(0, this.hooks.at).split('\n').length}`;
  }

  walk(s: State, file: string, fileText: string, depth: number): void {
    const saved = { current: this.current, reasons: this.run.pins.unpinned };
    this.current = { file, text: fileText };
    this.run.pins.unpinned = [];
    modelScript(this.run, s, fileText, depth);
    for (const why of this.run.pins.unpinned)
      if (UNSEEN.test(why))
        this.out.unpinned.push(
          `${shown(this.loader.ctx, file)}: ${why.replace(/^the command line/, 'the script')}; what it sources is not modelled`,
        );
    this.current = saved.current;
    this.run.pins.unpinned = saved.reasons;
  }

  source(s: State, arg: Arg | undefined, depth: number): void {
    const abs = isKnown(arg) ? resolveIn(s, arg) : undefined;
    if (abs === undefined) {
      this.out.unpinned.push(
        `${this.where()}: source of ${isKnown(arg) ? `${arg}, relative to a directory that cannot be determined` : 'a file that cannot be determined'}`,
      );
      forgetAll(s);
      return;
    }
    this.out.files.push(abs);
    this.loader.included.add(abs);
    const real = realOr(abs);
    const deep = this.stack.size > MAX_DEPTH;
    const read = this.stack.has(real) || deep || this.loader.included.size > MAX_INCLUDED ? undefined : readScript(abs);
    if (read === undefined || 'problem' in read) {
      // A cycle is already being walked; beyond the bounds, or unreadable, it is not.
      if (deep) this.out.unpinned.push(`${this.where()}: sources nest deeper than ${MAX_DEPTH} levels`);
      else if (read !== undefined) this.out.unpinned.push(`${this.where()}: the sourced ${shown(this.loader.ctx, abs)} ${read.problem}`);
      forgetAll(s);
      return;
    }
    if ('missing' in read) return; // sourcing it fails; pinned as absent
    const saved = { zero: s.vars.get('0'), source: s.vars.get('BASH_SOURCE') };
    if (this.shell === 'bash') s.vars.set('BASH_SOURCE', arg as string);
    // zsh sets `$0` to a sourced file; ksh's is not modelled.
    if (this.shell === 'zsh') s.vars.set('0', arg as string);
    else if (this.shell === 'ksh' || this.shell === 'mksh') s.vars.delete('0');
    this.stack.add(real);
    this.walk(s, abs, read.text, depth + 1);
    this.stack.delete(real);
    for (const [k, v] of [
      ['0', saved.zero],
      ['BASH_SOURCE', saved.source],
    ] as const)
      if (v === undefined) s.vars.delete(k);
      else s.vars.set(k, v);
  }

  define(name: string, body: SyntaxNode, source: string | undefined): boolean {
    if (MODELLED.has(name))
      this.out.unpinned.push(`${this.where()}: a function named ${name} takes the place of the command; that is not modelled`);
    this.bodies.set(name, [...(this.bodies.get(name) ?? []), { body, ...this.current, source }]);
    return true;
  }

  call(s: State, name: string, depth: number): boolean {
    const defs = this.bodies.get(name);
    if (defs === undefined) return false;
    this.called.add(name);
    if (depth >= MAX_DEPTH) {
      this.out.unpinned.push(`${this.where()}: function calls nest deeper than ${MAX_DEPTH} levels`);
      forgetAll(s);
      return true;
    }
    const before = new Map(s.vars);
    const saved = this.current;
    for (const d of defs) {
      this.current = d;
      // Defined more than once: each definition may be the one called.
      const inner = defs.length === 1 ? s : clone(s);
      // Inside a function bash's BASH_SOURCE is the defining file's, not the caller's; `$0` stays.
      const callers = s.vars.get('BASH_SOURCE');
      setSource(inner, d.source);
      modelNode(this.run, inner, d.body, depth + 1);
      setSource(inner, callers);
      if (inner !== s && (inner.cwd !== s.cwd || inner.pwd !== s.pwd)) forgetDirectory(s);
      if (inner !== s) for (const [k, v] of inner.vars) if (s.vars.get(k) !== v) s.vars.delete(k);
    }
    this.current = saved;
    // Locals get their old values back on return; an undeterminable one leaves every change unknown.
    const locals = defs.length === 1 ? localNames(defs[0]!.body) : new Set<string>();
    for (const k of new Set([...before.keys(), ...s.vars.keys()])) {
      if (before.get(k) === s.vars.get(k)) continue;
      const old = before.get(k);
      if (locals === undefined || !locals.has(k) || old === undefined) s.vars.delete(k);
      else s.vars.set(k, old);
    }
    return true;
  }
}

function setSource(s: State, source: string | undefined): void {
  if (source === undefined) s.vars.delete('BASH_SOURCE');
  else s.vars.set('BASH_SOURCE', source);
}

/** After a source or call that was not followed: what it may have changed is unknown. */
function forgetAll(s: State): void {
  forgetDirectory(s);
  for (const k of [...s.vars.keys()]) if (k !== '0' && k !== 'BASH_SOURCE') s.vars.delete(k);
}
