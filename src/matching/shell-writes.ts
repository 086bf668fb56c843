/**
 * The files a Bash command may write, for the engine's rule that the agent cannot edit its own
 * guards (src/engine/guarded-files.ts). Read with the same parser as `Bash(…)` rules (unbash):
 * output redirections (`>`, `>>`, `>|`, `&>`, `<>`), the operands of programs that write, move or
 * delete what they name (`tee`, `cp`, `mv`, `rm`, `sed -i`, `dd of=`, …), past the runners that
 * run a command unchanged (`sudo`, `env`, `xargs`: shell-readings.ts) and inside `bash -c`/`eval`
 * texts. A target built from an expansion (`$D/guard.sh`, `"$(ls hooks/g*)"`) is kept by every name
 * its text spells, which the caller compares with file names only; so is every target once the
 * command changes directory. A glob or brace target is kept as a pattern (any file it may match),
 * and a `find` that writes (`-delete`, `-exec chmod …`) as its start paths (any file under them).
 * A command whose name is computed (`"$c" x`, `r{m,} x`) may be any writer. A writer `xargs` feeds
 * from a pipe writes what the commands before it name (`ls hooks/* | xargs chmod -x`: `hooks/*`;
 * a `find`: its start paths). A command the parser cannot read yields its text, for the same name
 * comparison.
 */
import { forEachChild, parse, type Redirection, type SyntaxNode, type Word } from 'unbash';
import { type GlobTarget, globOf, globSource, type Part } from './glob-target.js';
import { guardStarts, nestedScripts, readsScriptFromStdin, stdinScript } from './shell-readings.js';

export interface ShellWrites {
  /** Targets spelt in full (no expansion), as written: resolve them against the command's cwd. */
  readonly paths: readonly string[];
  /**
   * Targets known only by their last segment: an expansion, a `cd` before. A name may hold glob
   * characters (`$D/*`): it then stands for every file name the glob matches.
   */
  readonly names: readonly string[];
  /** Glob and brace targets (`hooks/*`, `hooks/guard.{sh,}`): any file they may match. */
  readonly globs: readonly GlobTarget[];
  /**
   * Directories a `find` that writes (`-delete`, `-exec chmod …`) starts from, as written: any file
   * under them may be written.
   */
  readonly trees: readonly string[];
  /** The parser could not read the command: compare `text` with the file names. */
  readonly unread: boolean;
  /** It runs `agent-hooks trust` or `revoke`, which write the trust store. */
  readonly trusts?: boolean;
}

const OUTPUT_OPERATORS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
/** Programs whose every operand may be written, replaced or deleted, a directory with all under it. */
const WRITE_ALL = new Set([
  ...['tee', 'rm', 'rmdir', 'unlink', 'shred', 'truncate', 'touch', 'chmod', 'chown', 'chgrp', 'patch', 'setfacl', 'chattr'],
  // Editors run by the command, and compressors, which replace the file they are given.
  ...['ed', 'ex', 'vi', 'vim', 'nvim', 'nano', 'emacs', 'gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'unzstd'],
]);
/** Programs that write their last operand, or into the directory of `-t DIR`. */
const WRITE_LAST = new Set(['cp', 'install', 'ln', 'rsync']);
const IN_PLACE = new Set(['sed', 'perl', 'ruby', 'gsed']);
/** Programs that write the file an option names (`curl -o F`, `--output=F`, `-oF`). */
const OPTION_WRITES: Readonly<Record<string, readonly string[]>> = {
  curl: ['-o', '--output'],
  wget: ['-O', '--output-document'],
  sort: ['-o', '--output'],
  shuf: ['-o', '--output'],
  openssl: ['-out'],
  cc: ['-o'],
  gcc: ['-o'],
  clang: ['-o'],
  git: ['--output'],
  find: ['-fprint', '-fprint0', '-fprintf', '-fls'],
};
/** `git` subcommands that rewrite, move or delete the paths they name (checkout: after `--`, or `.`). */
const GIT_WRITES = new Set(['checkout', 'restore', 'rm', 'mv']);
const CHANGES_DIR = new Set(['cd', 'pushd', 'popd']);
const MAX_DEPTH = 3;
const DYNAMIC = new Set(['CommandExpansion', 'ProcessSubstitution', 'SimpleExpansion', 'ParameterExpansion', 'ArithmeticExpansion']);

const baseName = (v: string): string => v.slice(v.lastIndexOf('/') + 1);
/** A command name from an expansion, a brace or a glob: which program runs is not read here. */
const COMPUTED = /[$`*?[{]/;
/** The file names an expansion's text spells (`$D/guard.sh`, `${x:-guard.sh}`, `$(ls hooks/guard.sh)`). */
const spelledNames = (text: string): string[] =>
  text
    .split(/[\s/"'`$(){};|&<>\\=:,]+/)
    .map((t) => t.replace(/^[-#%+!@^]+/, ''))
    .filter((t) => t !== '');
const hasDynamic = (parts: readonly Part[] | undefined): boolean => (parts ?? []).some((p) => DYNAMIC.has(p.type) || hasDynamic(p.parts));
const isDynamic = (w: Word): boolean => hasDynamic(w.parts as readonly Part[] | undefined) || w.text.startsWith('~');

/** What the reading of one command has found so far. */
interface Reading {
  paths: string[];
  names: string[];
  globs: GlobTarget[];
  trees: string[];
  /**
   * Every word and assigned value of the command: what an expanded target or a computed program
   * may spell (`f=hooks/guard.sh; rm "$f"`, `for f in hooks/*`, `g(){ rm "$@"; }; g hooks/guard.sh`).
   */
  spelled: string[];
  expanded: boolean;
  cd: boolean;
  unread: boolean;
  trusts: boolean;
}

export function shellWrites(command: string): ShellWrites {
  const r: Reading = {
    paths: [],
    names: [],
    globs: [],
    trees: [],
    spelled: [],
    expanded: false,
    cd: false,
    unread: false,
    trusts: false,
  };
  const read = (text: string, depth: number): void => {
    let script: SyntaxNode;
    try {
      script = parse(text) as SyntaxNode;
    } catch {
      r.unread = true;
      return;
    }
    if ('errors' in script && Array.isArray(script.errors) && script.errors.length > 0) r.unread = true;
    const visit = (node: SyntaxNode): void => {
      if (node.type === 'Pipeline') {
        const stages = node.commands as readonly SyntaxNode[];
        const fed = stages.findIndex((c, i) => i > 0 && xargsWrites(wordsOf(c).map((w) => w.value)));
        for (const stage of fed > 0 ? stages.slice(0, fed) : []) addListed(r, stage);
      }
      r.spelled.push(...assignedTexts(node), ...wordsOf(node).map((w) => w.text));
      if (node.type === 'Command') {
        for (const x of node.redirects ?? []) {
          const file = fileTarget(x);
          if (file) addTarget(r, file);
        }
        const words = wordsOf(node);
        const values = words.map((w) => w.value);
        const stdin = stdinScript(node, false);
        // `agent-hooks trust`, `npx agent-hooks@1 revoke`, a path to its bin: the store is the user's to write.
        const cli = values.findIndex((v) => /(^|\/)agent-hooks(@[^/]*)?(\/|$)/.test(v));
        if (cli >= 0 && values.slice(cli + 1).some((v) => v === 'trust' || v === 'revoke')) r.trusts = true;
        for (const start of guardStarts(values)) {
          addCommandWrites(r, words, start);
          const rest = values.slice(start);
          const nested = [...nestedScripts(rest), ...(typeof stdin === 'string' && readsScriptFromStdin(rest) ? [stdin] : [])];
          if (depth < MAX_DEPTH) for (const text of nested) read(text, depth + 1);
          else if (nested.length > 0) r.unread = true;
        }
        // `xargs rm <<< hooks/guard.sh`: the words it is fed are its operands.
        if (typeof stdin === 'string' && xargsWrites(values)) r.trees.push(...stdin.split(/\s+/).filter(Boolean));
      }
      forEachChild(node, visit);
    };
    visit(script);
  };
  read(command, 0);
  if (r.expanded) r.names.push(...r.spelled.flatMap(spelledNames));
  const { paths, names, globs, trees, unread, trusts } = r;
  return r.cd ? withoutDirectories({ paths, names, globs, trees, unread, trusts }) : { paths, names, globs, trees, unread, trusts };
}

/** A word that may be written; spelt in full, it goes to `literal` (`paths`, or `trees` for all under it). */
function addTarget(r: Reading, w: Word, literal: string[] = r.paths): void {
  const glob = isDynamic(w) ? undefined : globOf(w.parts as readonly Part[] | undefined);
  if (isDynamic(w)) {
    r.names.push(...spelledNames(w.text));
    r.expanded = true;
  } else if (glob) r.globs.push(glob);
  else literal.push(w.value);
}

/** What the command starting at `words[start]` writes, as the program it names does. */
function addCommandWrites(r: Reading, words: readonly Word[], start: number): void {
  const values = words.map((w) => w.value);
  const name = baseName(values[start] ?? '');
  const args = values.slice(start + 1);
  const computed = COMPUTED.test(values[start] ?? '');
  if (CHANGES_DIR.has(name) || (name === 'env' && args.some((v) => /^(-C|--chdir)/.test(v)))) r.cd = true;
  // An expanded program (`"$@"`, `"${a[@]}"`): which one runs, on which words, is the command's whole text.
  if (/[$`]/.test(values[start] ?? '')) r.expanded = true;
  const operands = words.slice(start + 1).filter((w) => !w.value.startsWith('-'));
  const intoDir = args.some((v) => /^-t|^--target-directory/.test(v));
  const options = OPTION_WRITES[name];
  if (options) addOptionTargets(r, words.slice(start + 1), options);
  if (name === 'git') {
    addGitWrites(r, words.slice(start + 1));
    return;
  }
  if (name === 'mv') {
    // What is moved takes all under it away; it lands at the destination, or inside it.
    for (const w of intoDir ? operands : operands.slice(0, -1)) addTarget(r, w, r.trees);
    if (intoDir) r.names.push(...operands.map((w) => baseName(w.value)));
    else if (operands.length > 1) addTarget(r, operands[operands.length - 1] as Word);
  } else if (WRITE_ALL.has(name) || computed) {
    for (const w of operands) addTarget(r, w, r.trees);
  } else if (IN_PLACE.has(name) && args.some((v) => /^-[A-Za-z]*i|^--in-place/.test(v))) {
    for (const w of operands) addTarget(r, w);
  } else if (WRITE_LAST.has(name) && operands.length > 0) {
    // Copied whole (`cp -rT src hooks`), the destination is written with all under it.
    if (intoDir) r.names.push(...operands.map((w) => baseName(w.value)));
    else addTarget(r, operands[operands.length - 1] as Word, recursive(name, args) ? r.trees : r.paths);
  } else if (name === 'find' && findWrites(args)) {
    addFound(r, args);
  } else if (name === 'dd') {
    for (const w of operands) if (w.value.startsWith('of=')) addTarget(r, afterPrefix(w, 3));
  }
  if ((name === 'mv' || WRITE_LAST.has(name)) && operands.length > 1 && !intoDir) {
    addInto(r, operands.slice(0, -1), operands[operands.length - 1] as Word, name === 'mv' || recursive(name, args));
  }
}

/** Whether a copy takes directories whole: rsync always, cp and install with `-r`, `-R`, `-a`. */
const recursive = (name: string, args: readonly string[]): boolean =>
  name === 'rsync' || (name !== 'ln' && args.some((v) => /^-[A-Za-z]*[rRa]|^--(recursive|archive)$/.test(v)));

/** `git rm`, `git mv`, `git restore` and `git checkout -- F` (or `.`): what they name, all under it. `-C dir` is a `cd`. */
function addGitWrites(r: Reading, args: readonly Word[]): void {
  let i = 0;
  for (; i < args.length && (args[i] as Word).value.startsWith('-'); i++) {
    const v = (args[i] as Word).value;
    if (v === '-C') r.cd = true;
    if (['-C', '-c', '--git-dir', '--work-tree', '--namespace'].includes(v)) i++;
  }
  const sub = args[i]?.value ?? '';
  if (!GIT_WRITES.has(sub)) return;
  const rest = args.slice(i + 1);
  const dashes = rest.findIndex((w) => w.value === '--');
  const named =
    sub === 'checkout'
      ? dashes >= 0
        ? rest.slice(dashes + 1)
        : rest.filter((w) => /^\.{1,2}(\/|$)|[*?[]/.test(w.value))
      : rest.filter((w) => !w.value.startsWith('-'));
  for (const w of named) addTarget(r, w, r.trees);
}

/** The file an output redirection writes: `>&` only with a file name, not a descriptor (`2>&1`, `>&-`). */
function fileTarget(x: Redirection): Word | undefined {
  if (x.type !== 'Redirect' || !x.target) return undefined;
  return OUTPUT_OPERATORS.has(x.operator) || (x.operator === '>&' && !/^(\d+|-)$/.test(x.target.value)) ? x.target : undefined;
}

/**
 * A destination that may be a directory: each source lands at `dest/<its name>` (and all under it,
 * copied or moved whole); a source's contents (`src/`, `src/.`) anywhere under `dest`.
 */
function addInto(r: Reading, sources: readonly Word[], dest: Word, whole: boolean): void {
  const literal = (w: Word) => !isDynamic(w) && !globOf(w.parts as readonly Part[] | undefined);
  for (const src of sources) {
    const name = baseName(src.value.replace(/\/+$/, ''));
    const contents = src.value.endsWith('/') || name === '.' || name === '';
    if (literal(dest) && literal(src)) {
      const at = contents ? dest.value : `${dest.value.replace(/\/+$/, '')}/${name}`;
      (whole || contents ? r.trees : r.paths).push(at);
    } else if (literal(dest)) {
      // `cp src/*.sh dist/`: entries of the destination the source's name may take.
      const one = isDynamic(src) || contents ? '*' : name.replace(/\{[^}]*\}/g, '*');
      r.globs.push({ base: dest.value, rest: new RegExp(`^${globSource(one)}$`), text: `${dest.value}/${one}` });
    } else {
      r.names.push(...(contents ? ['*'] : spelledNames(src.text)));
      r.expanded ||= isDynamic(src) || isDynamic(dest);
    }
  }
}

/** The files named by a writing option: its next word (also after a cluster, `-sSo F`), or the text after `--output=` or `-o`. */
function addOptionTargets(r: Reading, words: readonly Word[], options: readonly string[]): void {
  const clusters = options.filter((o) => !o.startsWith('--')).map((o) => new RegExp(`^-[A-Za-z]*${o.slice(1)}$`));
  words.forEach((w, i) => {
    const next = words[i + 1];
    if ((options.includes(w.value) || clusters.some((c) => c.test(w.value))) && next) {
      addTarget(r, next);
      return;
    }
    const long = options.find((o) => o.startsWith('--') && w.value.startsWith(`${o}=`));
    const short = options.find((o) => !o.startsWith('--') && w.value.startsWith(o) && w.value.length > o.length);
    if (long) addTarget(r, afterPrefix(w, long.length + 1));
    else if (short) addTarget(r, afterPrefix(w, short.length));
  });
}

/** The word without its first `n` characters (`of=` of dd's `of=FILE`). Its parts are a getter, which a spread drops. */
function afterPrefix(w: Word, n: number): Word {
  const [first, ...rest] = (w.parts ?? []) as readonly Part[];
  const parts = first ? [{ ...first, text: first.text.slice(n), value: first.value?.slice(n) }, ...rest] : undefined;
  return { type: 'Word', text: w.text.slice(n), value: w.value.slice(n), parts } as unknown as Word;
}

/** What a `find` reaches: under its start paths, only what its `-name` names if it has one. */
function addFound(r: Reading, args: readonly string[]): void {
  const named = findNamed(args);
  for (const start of findStarts(args)) {
    if (named) r.globs.push({ ...named, base: start });
    else r.trees.push(start);
  }
}

/** What a command feeding `xargs` through a pipe prints: what it names, or any file under it. */
function addListed(r: Reading, node: SyntaxNode): void {
  const words = wordsOf(node);
  if (baseName(words[0]?.value ?? '') === 'find')
    addFound(
      r,
      words.slice(1).map((w) => w.value),
    );
  else for (const w of words.slice(1)) if (!w.value.startsWith('-')) addTarget(r, w, r.trees);
}

/** After a `cd`, where a relative target is is unknown: its name is what remains. */
function withoutDirectories(w: ShellWrites): ShellWrites {
  return {
    paths: [],
    names: [...w.names, ...w.paths.map(baseName), ...w.globs.map((g) => baseName(g.text))],
    globs: [],
    // A relative start is somewhere unknown: any file may be under it.
    trees: w.trees.some((t) => !t.startsWith('/')) ? ['/'] : w.trees,
    unread: w.unread,
    trusts: w.trusts,
  };
}

/** The values a node gives a variable: an assignment's (`f=x`, `a=(x y)`), a `for` loop's words. */
function assignedTexts(node: SyntaxNode): string[] {
  if (node.type === 'For') return (node.wordlist ?? []).map((w) => w.text);
  if (node.type !== 'Command') return [];
  return [...(node.prefix ?? []), ...(node.suffix ?? [])].flatMap((a) =>
    a.type === 'Assignment' && a.value ? ('elements' in a.value ? a.value.elements : [a.value]).map((w) => w.text) : [],
  );
}

/** A simple command's name and arguments; none for a compound command. */
function wordsOf(node: SyntaxNode): Word[] {
  if (node.type !== 'Command') return [];
  return [node.name, ...(node.suffix ?? [])].filter((w): w is Word => w?.type === 'Word');
}

/** A program that may write what it is given: a known writer, a shell or runner, a computed name. */
const mayWrite = (v: string): boolean => {
  const name = baseName(v);
  return WRITE_ALL.has(name) || WRITE_LAST.has(name) || IN_PLACE.has(name) || name === 'dd' || FIND_RUNS.has(name) || COMPUTED.test(v);
};

/** `xargs` (reading its arguments from standard input) running a program that may write them. */
function xargsWrites(values: readonly string[]): boolean {
  const starts = guardStarts(values);
  return starts.some((s) => baseName(values[s] ?? '') === 'xargs' && starts.some((t) => t > s && mayWrite(values[t] ?? '')));
}

/** `find` primaries that write: `-delete`, or an `-exec`/`-execdir`/`-ok`/`-okdir` running what may write. */
function findWrites(args: readonly string[]): boolean {
  return args.some((v, i) => {
    if (v === '-delete') return true;
    return FIND_ACTIONS.includes(v) && mayWrite(args[i + 1] ?? '');
  });
}

const FIND_ACTIONS = ['-delete', '-exec', '-execdir', '-ok', '-okdir'];
/** Commands that run other commands: what they write under find is not read. */
const FIND_RUNS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'eval', 'xargs', 'env', 'sudo', 'command', 'exec']);

/**
 * A `find` expression that is a plain conjunction with `-name X` (or `-iname X`) before its first
 * action: what it reaches is any path below a start with a segment X (a directory it names holds
 * what `rm -r` or `chmod -R` reach). Undefined when there is no such test, when X is computed, or
 * with an `-o`, `!`, `-not`, `,` or parenthesis.
 */
function findNamed(args: readonly string[]): Omit<GlobTarget, 'base'> | undefined {
  if (args.some((v) => ['-o', '-or', '!', '-not', ',', '(', ')'].includes(v))) return undefined;
  const acting = args.findIndex((v) => FIND_ACTIONS.includes(v));
  const tests = acting < 0 ? args : args.slice(0, acting);
  const at = tests.findIndex((v) => v === '-name' || v === '-iname');
  const name = tests[at + 1];
  if (at < 0 || name === undefined || /[/$`]/.test(name)) return undefined;
  return { rest: new RegExp(`^(?:.*/)?${globSource(name)}(?:/.*)?$`, tests[at] === '-iname' ? 'i' : ''), text: name };
}

/** find's start paths: the words before its first expression word, past `-H`/`-L`/`-P`/`-D x`/`-O`; `.` if none. */
function findStarts(args: readonly string[]): string[] {
  let i = 0;
  while (i < args.length && /^-([HLP]|O\d*|D)$/.test(args[i] as string)) i += args[i] === '-D' ? 2 : 1;
  const starts: string[] = [];
  for (; i < args.length; i++) {
    const v = args[i] as string;
    if (v.startsWith('-') || v === '(' || v === '!' || v === ',') break;
    // A start computed or expanded (`"$D"`, `~`, `h*`) may be anywhere.
    starts.push(/[$`~*?[{]/.test(v) ? '/' : v);
  }
  return starts.length > 0 ? starts : ['.'];
}
