/** Commands of the shell model (pins.ts): walking the parsed script, builtins, wrappers and nested shells. */
import path from 'node:path';
import { forEachChild, parse, type Command, type SyntaxNode, type Redirection } from 'unbash';
import { modelNode2, modelNpx, modelPackageRunner, modelScripted, stdinScript } from './interpreters.js';
import { modelPython } from './python.js';
import {
  childState,
  clone,
  forgetDirectory,
  isKnown,
  MAX_COMMANDS,
  MAX_DEPTH,
  NODE_LIKE,
  PACKAGE_RUNNERS,
  pinExecuted,
  pinScript,
  redirectsStdin,
  PYTHON,
  RECIPE_RUNNERS,
  SCRIPTED,
  SHELLS,
  unpin,
  COMMAND_RUNNERS,
  steeringAssignment,
  BUILTINS,
  TOOLCHAINS,
  type Arg,
  type Run,
  type State,
} from './model.js';
import { evalAssignment, evalWord } from './words.js';
import { unwrap, WRAPPERS } from './wrappers.js';
import { readShellArgs } from '../../util/shell-args.js';
import { pathLookup, scriptFileName } from './lookup.js';
import { dialectOf, posixDifferences, readsStdinScript } from './shell-args.js';
import { changeDirectory } from './directory.js';
import { variableBuiltin } from './variables.js';
import { readOperands, redirectedFiles } from './data-reads.js';

/** Model a script (the hook's command line, or a nested `sh -c` string). */
export function modelScript(run: Run, st: State, source: string, depth: number, dialect?: State['dialect']): void {
  if (dialect !== undefined) st.dialect = dialect;
  if (depth > MAX_DEPTH) {
    unpin(run, `commands nest deeper than ${MAX_DEPTH} levels`);
    return;
  }
  let script: ReturnType<typeof parse>;
  try {
    script = parse(source);
  } catch {
    unpin(run, 'the command line cannot be parsed');
    return;
  }
  if (script.errors && script.errors.length > 0)
    unpin(run, `the command line does not parse as a shell script (${script.errors[0]!.message})`);
  if (st.dialect === 'posix') posixDifferences(run, script);
  for (const s of script.commands) modelNode(run, st, s, depth);
}

/** Walk a node in sequence, updating `st` (cwd, variables) as a shell would. */
export function modelNode(run: Run, st: State, node: SyntaxNode, depth: number): void {
  if (++run.commands > MAX_COMMANDS) {
    unpin(run, `more than ${MAX_COMMANDS} commands`);
    return;
  }
  switch (node.type) {
    case 'Redirected': {
      // `{ sh; } < f`, `(python3) < f`: what the commands inside read from stdin is that.
      const prev = st.stdinRedirected;
      if (node.redirects.some(redirectsStdin)) st.stdinRedirected = true;
      redirectedFiles(run, st, node.redirects);
      modelNode(run, st, node.command, depth);
      if (prev) st.stdinRedirected = prev;
      else delete st.stdinRedirected;
      return;
    }
    case 'Statement':
      if (node.background) modelNode(run, clone(st), node.command, depth);
      else modelNode(run, st, node.command, depth);
      return;
    case 'AndOr':
      modelAndOr(run, st, node, depth);
      return;
    case 'Pipeline':
      // Members run in subshells, but zsh, ksh and bash's `shopt -s lastpipe` run the last in the
      // shell itself: what it changes is unknown after. A shell reading from a pipe runs what it is
      // fed. A pipeline of one command (`! cd h`, bash's `time cd h`) runs in the shell itself; dash
      // has no `time` keyword and runs /usr/bin/time, a child: under sh what it changes is unknown after.
      if (node.commands.length === 1 && st.dialect === 'posix' && node.prefixes?.some((p) => p.type === 'Time'))
        branch(run, st, node.commands[0]!, depth);
      else if (node.commands.length === 1) modelNode(run, st, node.commands[0]!, depth);
      node.commands.forEach((c, i) => {
        const last = i === node.commands.length - 1;
        if (node.commands.length > 1 && last) branch(run, st, c, depth);
        else if (node.commands.length > 1) modelNode(run, clone(st), c, depth);
        if (i > 0 && c.type === 'Command' && readsStdinScript(run, st, c))
          unpin(run, `a ${c.name?.value} reads the commands it runs from a pipe`);
      });
      return;
    case 'Command':
      modelSimpleCommand(run, st, node, depth);
      return;
    case 'Subshell':
      modelNode(run, clone(st), node.body, depth);
      return;
    case 'CompoundList':
      for (const c of node.commands) modelNode(run, st, c, depth);
      return;
    case 'Function':
      // A script's are modelled where called (shell-includes.ts); here a body may shadow a builtin: unpinned.
      if (run.includes?.define(st, node.name?.value ?? '', node.body)) return;
      unpin(run, `the command defines a function (${node.name?.value ?? '…'}); what its calls run is not modelled`);
      if (node.name) st.functions.add(node.name.value);
      branch(run, st, node.body, depth);
      return;
    default:
      if (node.type === 'For' && node.name) {
        steeringAssignment(run, node.name.value, 'for');
        st.vars.delete(node.name.value);
      }
      // if / while / for / case / [[ ]] / (( )) / brace groups / coproc: model every child as a
      // branch; whatever a branch changes becomes unknown afterwards.
      forEachChild(node, (child) => {
        if (child.type === 'Word') nestedScripts(run, st, child, depth);
        else branch(run, st, child, depth);
      });
  }
}

/**
 * After `a && b`, b ran after a succeeded; the chain may stop after any member, so afterwards
 * whatever differs between those stopping points is unknown. After `||`, the left side failed
 * somewhere: whatever changed since the chain began is unknown. Once an `||` has been passed, a
 * later member may be reached from the end of any earlier one (`a || cd X && b` runs b in the old
 * directory when a succeeds): merge them all. In a script's text (shell-includes.ts), a member
 * `|| exit` ends the way through it: `cd "$(dirname "$0")" || exit 1` goes on only where cd succeeded.
 */
function modelAndOr(run: Run, st: State, node: SyntaxNode & { type: 'AndOr' }, depth: number): void {
  const start = clone(st);
  const ends: State[] = [];
  node.commands.forEach((c, i) => {
    if (node.operators[i - 1] === '||' && run.includes && isExit(c)) return;
    if (i > 0 && node.operators.slice(0, i).includes('||')) {
      forget(st, start);
      for (const e of ends) forget(st, e);
    }
    modelNode(run, st, c, depth);
    ends.push(clone(st));
  });
  for (const e of ends) forget(st, e);
}

const isExit = (c: SyntaxNode): boolean =>
  c.type === 'Pipeline' ? c.commands.length === 1 && isExit(c.commands[0]!) : c.type === 'Command' && c.name?.value === 'exit';

/** Whatever differs between `st` and `other` becomes unknown in `st`. */
function forget(st: State, other: State): void {
  if (other.cwd !== st.cwd || other.pwd !== st.pwd) forgetDirectory(st);
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

/**
 * A simple command in the script. dash reads `cmd &> f` as `cmd &` then `> f` (the command runs
 * in the background), while the sh of macOS, Fedora or Arch is bash and runs it in the shell:
 * under sh, what such a command changes is unknown after it.
 */
function modelSimpleCommand(run: Run, st: State, cmd: Command, depth: number): void {
  if (st.dialect === 'posix' && cmd.redirects.some((r) => r.type === 'Redirect' && (r.operator === '&>' || r.operator === '&>>'))) {
    const inner = clone(st);
    modelCommand(run, inner, cmd, depth);
    forget(st, inner);
  } else modelCommand(run, st, cmd, depth);
}

function modelCommand(run: Run, st: State, cmd: Command, depth: number): void {
  for (const p of cmd.prefix) nestedScripts(run, st, p, depth);
  for (const s of cmd.suffix) nestedScripts(run, st, s, depth);
  // `$(< f)` has no command name: before the return below.
  redirectedFiles(run, st, cmd.redirects);

  // Assignments: alone they set shell variables; before a command they only reach its environment.
  const env = new Map<string, Arg>();
  for (const p of cmd.prefix) {
    if (p.type !== 'Assignment') continue;
    steeringAssignment(run, p.name, 'the command');
    const v =
      p.value.type === 'Word' && !p.append && p.index === undefined
        ? evalAssignment(run, st, p.value)
        : { unknown: `${p.name} is an array` };
    env.set(p.name, v);
  }
  if (!cmd.name) {
    for (const [k, v] of env) isKnown(v) ? st.vars.set(k, v) : st.vars.delete(k);
    return;
  }
  const argv: Arg[] = [];
  for (const w of [cmd.name, ...cmd.args]) {
    if (w.type === 'Assignment') {
      // `export X=…`, `declare X=…`: an argument that looks like an assignment.
      const v =
        w.value.type === 'Word' && !w.append && w.index === undefined
          ? evalAssignment(run, st, w.value)
          : { unknown: `${w.name} is an array` };
      argv.push(isKnown(v) ? `${w.name}=${v}` : ({ unknown: v.unknown, ...{ assign: w.name } } as Arg));
    } else argv.push(...evalWord(run, st, w));
  }
  // `exec < f` alone gives the shell itself that stdin, for every command after it.
  if (argv.length === 1 && argv[0] === 'exec' && cmd.redirects.some(redirectsStdin)) st.stdinRedirected = true;
  if (run.includes) run.includes.at = cmd.pos;
  execArgv(run, st, argv, env, cmd.redirects, depth);
}

export function execArgv(run: Run, st: State, argv: Arg[], env: Map<string, Arg>, redirects: readonly Redirection[], depth: number): void {
  if (argv.length === 0) return;
  const name0 = argv[0]!;
  if (!isKnown(name0)) {
    unpin(run, `the command name comes from an expansion (${name0.unknown})`);
    return;
  }
  const name = name0;
  const base = name.includes('/') ? path.basename(name) : name;
  const args = argv.slice(1);

  if (name.includes('/')) pinExecuted(run, st, name, 'program', { st: childState(st, env), interpreter: undefined });
  if (run.includes?.call(st, name, depth)) return; // a function shadows a builtin too
  if (stateBuiltin(run, st, name, args, depth)) return;
  if (st.functions.has(name)) return; // modelled where defined
  if (!name.includes('/') && !BUILTINS.has(name)) pathLookup(run, name);
  modelProgram(run, st, base, args, env, redirects, depth);
}

/** Builtins that change the state (cd, export, unset, source, eval…); false for any other command. */
function stateBuiltin(run: Run, st: State, name: string, args: Arg[], depth: number): boolean {
  if (name === 'cd' || name === 'pushd') {
    changeDirectory(run, st, name, args);
    return true;
  }
  if (name === 'popd') {
    forgetDirectory(st);
    return true;
  }
  if (variableBuiltin(run, st, name, args)) return true;
  if (name === 'builtin' && st.dialect === 'posix') {
    unpin(run, 'sh has no builtin command; what the line runs is not modelled');
    return true;
  }
  if (name === 'trap') {
    // In a script's own walk a handler's text is walked where it is set: what it sources counts.
    const handler = args[0] === '--' ? args[1] : args[0];
    if (!run.includes) unpin(run, 'trap runs a command string when a signal or the exit comes; that is not modelled');
    else if (!isKnown(handler)) unpin(run, 'the command sets a trap whose text cannot be determined');
    else if (args.length > 1 && handler !== '-' && !handler.startsWith('-')) modelScript(run, clone(st), handler, depth + 1);
    return true;
  }
  if (name === 'alias') {
    unpin(run, 'the command defines an alias; what it expands to is not modelled');
    return true;
  }
  if (name === 'source' || name === '.') {
    const file = args[0] === '--' ? args[1] : args[0];
    if (run.includes) {
      run.includes.source(st, file, depth);
      return true;
    }
    if (!isKnown(file)) unpin(run, `${name} of a file that cannot be determined`);
    else pinExecuted(run, st, file, 'sourced file', { st, interpreter: st.dialect === 'bash' ? 'bash' : 'sh', sourced: true });
    // What the sourced file does to the directory and variables is not modelled.
    forgetDirectory(st);
    for (const k of [...st.vars.keys()]) if (!st.exported.has(k)) st.vars.delete(k);
    return true;
  }
  if (name === 'eval') {
    if (!args.every(isKnown)) {
      unpin(run, 'eval of text that cannot be determined');
      return true;
    }
    modelScript(run, st, (args as string[]).join(' '), depth + 1);
    return true;
  }
  return false;
}

/** A program (or a wrapper, shell, interpreter, runner): model what it runs. */
function modelProgram(
  run: Run,
  st: State,
  base: string,
  args: Arg[],
  env: Map<string, Arg>,
  redirects: readonly Redirection[],
  depth: number,
): void {
  // Wrappers: look through to the command they run.
  if (WRAPPERS.has(base)) {
    const before = new Set(env.keys());
    const inner = unwrap(base, args, env);
    // env's own `NAME=value` words (the command's prefix assignments were checked already).
    for (const k of env.keys()) if (!before.has(k)) steeringAssignment(run, k, 'env');
    if (!inner.ok) unpin(run, `cannot tell which command ${base} runs (${inner.why})`);
    else if (inner.command.length > 0)
      execArgv(
        run,
        // A command word `time` (after `command`, `env`…) is /usr/bin/time: a child process.
        base === 'exec' || base === 'command' || base === 'builtin' ? st : childState(st, env),
        inner.command,
        base === 'env' ? new Map() : env,
        redirects,
        depth,
      );
    return;
  }

  if (SHELLS.has(base)) modelShell(run, st, base, args, env, redirects, depth);
  else if (PYTHON.test(base)) modelPython(run, st, base, args, redirects);
  else if (NODE_LIKE.has(base) || base === 'deno') {
    const sub = isKnown(args[0]) && (args[0] === 'run' || args[0] === 'x');
    if (base === 'bun' && sub && !scriptFileName(args[1])) modelPackageRunner(run, st, base, args);
    else if ((base === 'deno' || base === 'bun') && sub) modelNode2(run, st, base, args.slice(1), redirects);
    else if (base === 'deno') unpin(run, `deno ${isKnown(args[0]) ? args[0] : '…'} is not modelled`);
    else if (base === 'bun' && isKnown(args[0]) && !args[0].startsWith('-') && !/[./]/.test(args[0]))
      modelPackageRunner(run, st, base, args);
    else modelNode2(run, st, base, args, redirects);
  } else if (SCRIPTED.has(base)) modelScripted(run, st, base, args, redirects);
  else if (base === 'npx' || base === 'pnpx' || base === 'bunx') modelNpx(run, st, base, args);
  else if (PACKAGE_RUNNERS.has(base)) modelPackageRunner(run, st, base, args);
  else if (RECIPE_RUNNERS.has(base)) unpin(run, `${base} runs recipes its own file defines; they are not modelled`);
  else if (TOOLCHAINS.has(base))
    unpin(run, `${base} builds or runs what its project files (a directory, a package, a script table) name; that is not modelled`);
  else if (base === 'xargs' || (base === 'find' && args.some((a) => a === '-exec' || a === '-execdir')))
    unpin(run, `${base} runs commands built from its input`);
  else if (COMMAND_RUNNERS.has(base)) unpin(run, `${base} runs a command from its arguments in a way that is not modelled`);
  else readOperands(run, st, base, args);
}

function modelShell(
  run: Run,
  st: State,
  base: string,
  args: Arg[],
  env: Map<string, Arg>,
  redirects: readonly Redirection[],
  depth: number,
): void {
  const read = readShellArgs(args);
  if (read.problem) {
    unpin(run, `${base} is given ${read.problem}`);
    return;
  }
  // The startup file of an interactive shell runs before its commands.
  for (const rc of read.rcfiles) {
    if (!isKnown(rc)) {
      unpin(run, `${base} names a startup file that cannot be determined (${rc.unknown})`);
      return;
    }
    pinExecuted(run, st, rc, `${base} startup file`);
  }
  if (read.text !== undefined) {
    const text = args[read.text];
    if (text === undefined) unpin(run, `${base} -c without a command`);
    else if (!isKnown(text)) unpin(run, `${base} -c runs text that cannot be determined (${text.unknown})`);
    else modelScript(run, childState(st, env), text, depth + 1, dialectOf(base));
    return;
  }
  if (read.script !== undefined) {
    // The first operand is the script (resolved in the current directory, then PATH).
    const script = args[read.script]!;
    if (!isKnown(script)) unpin(run, `${base} runs a script that cannot be determined`);
    else pinScript(run, childState(st, env), script, base);
    // Its arguments, as any program's: a data file named there (`sh guard.sh hooks/deny.txt`) is pinned.
    readOperands(run, st, base, args.slice(read.script + 1));
    return;
  }
  stdinScript(run, st, base, redirects, depth, (text) => modelScript(run, childState(st, env), text, depth + 1, dialectOf(base)));
}
