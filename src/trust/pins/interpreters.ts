/** Interpreters and package runners of the shell model (pins.ts): which script each one runs. */
import { existsSync } from './observed-fs.js';
import path from 'node:path';
import type { Redirection } from 'unbash';
import { fileURLToPath } from 'node:url';
import {
  isKnown,
  pinExecuted,
  pinFile,
  pinScript,
  pinTree,
  redirectsStdin,
  referencedArgs,
  resolveIn,
  unpin,
  type Arg,
  type Run,
  type State,
} from './model.js';
import {
  LUA_OPTIONS,
  NODE_OPTIONS,
  PERL_OPTIONS,
  PHP_OPTIONS,
  RUBY_OPTIONS,
  readOptions,
  type OptionTable,
  type ReadOption,
  type ReadOptions,
} from './options.js';
import { evalWord } from './words.js';
import { envFileOptions } from './env-file.js';

/** An interpreter without a script reads it from stdin: follow `< file` and literal here-docs. */
export function stdinScript(
  run: Run,
  st: State,
  base: string,
  redirects: readonly Redirection[],
  depth: number,
  literal?: (text: string) => void,
): void {
  void depth;
  const input = redirects.find(redirectsStdin);
  if (!input) {
    // stdin is the hook payload (JSON), or a pipe (see Pipeline), unless a redirection around
    // this command gave it another one.
    if (st.stdinRedirected) unpin(run, `${base} reads its script from a redirection of an enclosing command; that is not modelled`);
    return;
  }
  if (input.type === 'Redirect' && input.operator === '<&') {
    unpin(run, `${base} reads its script from another file descriptor; that is not modelled`);
    return;
  }
  if (input.type === 'Redirect') {
    const target = input.target;
    const v = target ? evalWord(run, st, target) : [];
    if (v.length !== 1 || !isKnown(v[0])) {
      unpin(run, `${base} reads its script from a file that cannot be determined`);
      return;
    }
    pinScript(run, st, v[0], base, false);
    return;
  }
  if (input.type === 'HereDoc' && literal && (input.delimiter?.quoted || !input.body.parts?.some((p) => p.type !== 'Literal'))) {
    literal(input.body.text);
    return;
  }
  unpin(run, `${base} reads its script from a here-document or here-string that is not modelled`);
}

/** Pin what one option names, by its kind (options.ts); false when the hook had to be unpinned. */
function pinOption(run: Run, st: State, base: string, o: ReadOption, addsDirs: boolean, lookup: (name: string) => void): boolean {
  if (o.kind === 'flag' || o.kind === 'exit' || o.kind === 'value') return true;
  const v = o.value;
  if (!isKnown(v)) {
    unpin(
      run,
      `${base} ${o.option} ${v === undefined ? 'is missing its value' : `is given a value that cannot be determined (${v.unknown})`}`,
    );
    return false;
  }
  switch (o.kind) {
    case 'code':
      // The code is in the config, but what it loads, imports or runs (`exec(open('g.py').read())`,
      // `require('./g')`, `do "g.pl"`) is not read from it: never pinned to nothing.
      unpin(run, `${base} ${o.option} runs inline code; what it loads or runs is not modelled`);
      return false;
    case 'file':
      pinExecuted(run, st, v, `${base} ${o.option}`);
      return true;
    case 'include': {
      const dir = resolveIn(st, v);
      if (dir === undefined) {
        unpin(run, `${base} ${o.option} ${v} is relative to a directory that cannot be determined`);
        return false;
      }
      pinTree(run, dir); // what the script loads from there
      return true;
    }
    case 'chdir':
      unpin(run, `${base} ${o.option} changes the directory its script is found in; that is not modelled`);
      return false;
    case 'load': {
      if (v.startsWith('data:')) return true;
      let p = v;
      if (v.startsWith('file:')) {
        try {
          p = fileURLToPath(v);
        } catch {
          unpin(run, `${base} ${o.option} ${v} is not a file URL that can be read`);
          return false;
        }
      }
      if (path.isAbsolute(p) || /^\.\.?[\\/]/.test(p)) {
        pinScript(run, st, p, base);
        return true;
      }
      if (addsDirs) {
        unpin(run, `${base} ${o.option} ${v} is looked up in directories the command adds; that is not modelled`);
        return false;
      }
      const before = run.pins.unpinned.length;
      lookup(v);
      return run.pins.unpinned.length === before;
    }
    default:
      return true;
  }
}

/**
 * Read an interpreter's options with `table`, pin what they load, then the script operand and
 * the path-like words after it (or the script read from stdin).
 */
export function modelInterpreter(
  run: Run,
  st: State,
  base: string,
  args: Arg[],
  redirects: readonly Redirection[],
  table: OptionTable,
  hooks: { lookup: (name: string) => void; module?: (name: string) => void; option?: (o: ReadOption) => boolean },
): void {
  const read = readOptions(args, table);
  if (!read.problem && read.ambiguous !== undefined) {
    // An option the table does not know, followed by a word: a flag (the word is the script) or
    // an option of a newer version taking that word as its value (the script comes after). What
    // either reading would run is pinned; with two or more such options the readings multiply,
    // and the hook is unpinned instead.
    const valued = readOptions(args, table, new Set(read.ambiguous));
    const unknown = [...read.ambiguous, ...(valued.problem ? [] : (valued.ambiguous ?? []))];
    if (unknown.length > 1) {
      unpin(run, `${base}: options ${unknown.join(', ')} are not modelled, and each may take the word after it as its value`);
      return;
    }
    modelReading(run, st, base, args, redirects, read, hooks);
    modelReading(run, st, base, args, redirects, valued, hooks);
    return;
  }
  modelReading(run, st, base, args, redirects, read, hooks);
}

/** Pin what one reading of an interpreter's options runs: what they load, then the script. */
function modelReading(
  run: Run,
  st: State,
  base: string,
  args: Arg[],
  redirects: readonly Redirection[],
  read: ReadOptions,
  hooks: { lookup: (name: string) => void; module?: (name: string) => void; option?: (o: ReadOption) => boolean },
): void {
  if (read.problem) {
    unpin(run, `${base}: ${read.problem}`);
    return;
  }
  const addsDirs = read.options.some((o) => o.kind === 'include');
  for (const o of read.options) {
    if (hooks.option && !hooks.option(o)) return;
    if (o.kind === 'module') {
      if (!isKnown(o.value)) {
        unpin(run, `${base} ${o.option} runs a module that cannot be determined`);
        return;
      }
      hooks.module?.(o.value);
      continue;
    }
    if (!pinOption(run, st, base, o, addsDirs, hooks.lookup)) return;
  }
  if (read.endedBy) {
    referencedArgs(run, st, args.slice(read.operand)); // the arguments of the code or module
    return;
  }
  if (read.operand >= args.length) {
    if (!read.options.some((o) => o.kind === 'exit')) stdinScript(run, st, base, redirects, 0);
    return;
  }
  if (read.stdin) {
    unpin(run, `${base} - reads its script from stdin`);
    return;
  }
  const script = args[read.operand]!;
  if (!isKnown(script)) {
    unpin(run, `${base} runs a script that cannot be determined`);
    return;
  }
  pinScript(run, st, script, base);
  referencedArgs(run, st, args.slice(read.operand + 1));
}

export function modelNode2(run: Run, st: State, base: string, args: Arg[], redirects: readonly Redirection[]): void {
  // A bare specifier is resolved through node_modules, which may be the workspace's own.
  const lookup = (name: string) => unpin(run, `${base} loads the package ${name}; what it resolves to is not modelled`);
  modelInterpreter(run, st, base, args, redirects, NODE_OPTIONS, {
    lookup,
    option: (o) =>
      (o.option === '--env-file' || o.option === '--env-file-if-exists') && isKnown(o.value)
        ? envFileOptions(run, st, `${base} ${o.option}=${o.value}`, o.value, (opt, what) => pinOption(run, st, what, opt, false, lookup))
        : true,
  });
}

/** ruby and perl: their option tables, and perl's debugger startup file. */
function modelRubyPerl(run: Run, st: State, base: string, args: Arg[], redirects: readonly Redirection[]): void {
  // perl reads further switches from the rest of an option word after a space (`'-F: -d'`).
  if (base === 'perl' && args.some((a) => isKnown(a) && a.startsWith('-') && /\s/.test(a))) {
    unpin(run, 'perl is given an option word with a space in it, whose rest perl reads as more options; that is not modelled');
    return;
  }
  // Libraries by name come from the interpreter's own paths (neither searches the current
  // directory by default); `-I` adds directories, and then the lookup is not modelled.
  modelInterpreter(run, st, base, args, redirects, base === 'ruby' ? RUBY_OPTIONS : PERL_OPTIONS, {
    lookup: () => {},
    // perl's debugger runs ./.perldb, else ~/.perldb, before the script (recorded even when missing).
    option: (o) => {
      if (base === 'perl' && o.option === '-d') {
        if (st.cwd !== undefined) pinFile(run, path.join(st.cwd, '.perldb'));
        pinFile(run, path.join(run.ctx.homeDir, '.perldb'));
      }
      return true;
    },
  });
}

export function modelScripted(run: Run, st: State, base: string, args: Arg[], redirects: readonly Redirection[]): void {
  if (base === 'ruby' || base === 'perl') {
    modelRubyPerl(run, st, base, args, redirects);
    return;
  }
  if (base === 'lua') {
    modelInterpreter(run, st, base, args, redirects, LUA_OPTIONS, {
      // package.path ends with ./?.lua;./?/init.lua: without an installed module of that name, one here runs.
      lookup: (spec) => {
        if (st.cwd === undefined) {
          unpin(run, `${base} -l ${spec}: the directory it searches cannot be determined`);
          return;
        }
        const rel = spec
          .slice(spec.indexOf('=') + 1)
          .split('.')
          .join('/');
        pinFile(run, path.resolve(st.cwd, `${rel}.lua`));
        pinFile(run, path.resolve(st.cwd, rel, 'init.lua'));
      },
    });
    return;
  }
  if (base === 'php') {
    modelInterpreter(run, st, base, args, redirects, PHP_OPTIONS, {
      lookup: () => {},
      option: (o) => {
        // An ini entry that loads code or extensions, or moves where includes are found.
        const entry = o.option === '-d' && isKnown(o.value) ? o.value.split('=')[0]!.trim() : '';
        if (/^(auto_prepend_file|auto_append_file|extension|zend_extension|include_path|extension_dir)$/.test(entry)) {
          unpin(run, `${base} -d ${entry} loads code the command line does not name; that is not modelled`);
          return false;
        }
        return true;
      },
    });
    return;
  }
  const awk = base === 'awk' || base === 'gawk';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!isKnown(a)) {
      unpin(run, `${base} is given an argument that cannot be determined (${a.unknown})`);
      return;
    }
    if (awk) {
      if (a === '-f') {
        const f = args[i + 1];
        if (!isKnown(f)) {
          unpin(run, `${base} -f of a file that cannot be determined`);
          return;
        }
        pinScript(run, st, f, base);
        i++;
        continue;
      }
      if (a === '-v' || a === '-F') {
        i++;
        continue;
      }
      if (a.startsWith('-')) continue;
      // An inline program that runs commands (`system(…)`, `print | "cmd"`, `"cmd" | getline`).
      if (/\bsystem\b|\|/.test(a)) unpin(run, `${base}'s program runs commands (system() or a pipe); what they run is not modelled`);
      referencedArgs(run, st, args.slice(i + 1)); // program text inline, then input files
      return;
    }
    if (a === '-e' || a === '-E') {
      unpin(run, `${base} ${a} runs inline code; what it loads or runs is not modelled`);
      return;
    }
    if (a.startsWith('-')) continue;
    pinScript(run, st, a, base);
    referencedArgs(run, st, args.slice(i + 1));
    return;
  }
  if (!awk) stdinScript(run, st, base, redirects, 0);
}

export function modelNpx(run: Run, st: State, base: string, args: Arg[]): void {
  let i = 0;
  while (isKnown(args[i]) && (args[i] as string).startsWith('-')) i += args[i] === '-p' || args[i] === '--package' ? 2 : 1;
  const bin = args[i];
  if (!isKnown(bin)) {
    unpin(run, `${base} runs a package that cannot be determined`);
    return;
  }
  if (bin.includes('/')) {
    pinScript(run, st, bin, base);
    return;
  }
  if (st.cwd === undefined) {
    unpin(run, `${base} ${bin}: the directory it searches cannot be determined`);
    return;
  }
  // npx looks in node_modules/.bin of the current directory and its parents within the package.
  for (let dir = st.cwd; ; dir = path.dirname(dir)) {
    const cand = path.join(dir, 'node_modules', '.bin', bin);
    if (existsSync(cand)) {
      pinFile(run, cand);
      referencedArgs(run, st, args.slice(i + 1));
      return;
    }
    if (path.dirname(dir) === dir || (run.ctx.gitTopLevel !== undefined && dir === run.ctx.gitTopLevel) || dir === run.ctx.projectDir)
      break;
  }
  pinFile(run, path.join(st.cwd, 'node_modules', '.bin', bin)); // creating it would change what runs
  unpin(run, `${base} ${bin} is not installed in the workspace: it would run a package fetched or found elsewhere`);
}

export function modelPackageRunner(run: Run, st: State, base: string, args: Arg[]): void {
  const sub = args.find((a) => !(isKnown(a) && a.startsWith('-')));
  if (st.cwd !== undefined) pinFile(run, path.join(st.cwd, 'package.json'));
  if (isKnown(sub) && (sub === 'exec' || sub === 'dlx' || sub === 'x'))
    modelNpx(run, st, `${base} ${sub}`, args.slice(args.indexOf(sub) + 1));
  else unpin(run, `${base} ${isKnown(sub) ? sub : '…'} runs what package.json (or the package manager) says; that is not modelled`);
}
