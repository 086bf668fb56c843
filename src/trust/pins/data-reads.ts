/**
 * Files a shell command reads or writes as data (issue 39). In a script's own walk
 * (shell-includes.ts) they go to the walk's `data` hook: a file read through `<` or as an operand
 * of cat, head, tail, grep (`-f`), jq (`--from-file`, `--slurpfile`, `--rawfile`) at a path the
 * model evaluates is pinned by includes.ts when it is a regular file in the workspace, unless the
 * hook writes it (`>`, `>>`, `<>`, tee). On the command line a `<` file and path-like operands of
 * other programs are pinned as before (referencedArgs).
 */
import type { Redirection } from 'unbash';
import { isKnown, referencedArgs, type Arg, type Run, type State } from './model.js';
import { evalWord } from './words.js';

const WRITES = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

/** The files a command's (or a compound command's) redirections read and write. */
export function redirectedFiles(run: Run, st: State, redirects: readonly Redirection[]): void {
  for (const r of redirects) {
    if (r.type !== 'Redirect' || !r.target || (r.operator !== '<' && (!run.includes || !WRITES.has(r.operator)))) continue;
    const v = evalWord(run, st, r.target);
    if (v.length !== 1 || !isKnown(v[0]) || /^&?\d*-?$/.test(v[0])) continue;
    if (run.includes) run.includes.data(st, [v[0]], r.operator !== '<');
    else referencedArgs(run, st, [v[0].includes('/') ? v[0] : `./${v[0]}`]);
  }
}

/** How a reading command takes its arguments. */
interface Syntax {
  /** Short options taking a value. */
  short: string;
  /** Long options taking values, by how many. */
  long: Record<string, number>;
  /** Options whose (last) value is a file read. */
  reads?: string[];
  /** The first operand is a program (grep's pattern, jq's filter) unless one of these gave it. */
  program?: string[];
  /** After one of these, operands are not files (`jq --args`). */
  noFiles?: string[];
  /** The operands are written (tee). */
  writes?: boolean;
}

const GREP: Syntax = {
  short: 'efmABCdD',
  long: Object.fromEntries(
    'regexp file max-count context after-context before-context label include exclude exclude-from exclude-dir binary-files devices directories group-separator'
      .split(' ')
      .map((o) => [`--${o}`, 1]),
  ),
  reads: ['f', '--file', '--exclude-from'],
  program: ['e', 'f', '--regexp', '--file'],
};

const SYNTAX: Record<string, Syntax> = {
  cat: { short: '', long: {} },
  head: { short: 'nc', long: { '--lines': 1, '--bytes': 1 } },
  tail: { short: 'ncs', long: { '--lines': 1, '--bytes': 1, '--sleep-interval': 1, '--pid': 1, '--max-unchanged-stats': 1 } },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  jq: {
    short: 'fL',
    long: { '--from-file': 1, '--indent': 1, '--arg': 2, '--argjson': 2, '--slurpfile': 2, '--rawfile': 2 },
    reads: ['f', '--from-file', '--slurpfile', '--rawfile'],
    program: ['f', '--from-file'],
    noFiles: ['--args', '--jsonargs'],
  },
  tee: { short: '', long: {}, writes: true },
};

/** The operands of `base` (a program the walk does not model otherwise): files read or written as data; path-like ones on the command line. */
export function readOperands(run: Run, st: State, base: string, args: Arg[]): void {
  if (!run.includes) {
    referencedArgs(run, st, args);
    return;
  }
  const syntax = SYNTAX[base];
  if (syntax === undefined) return;
  const { read, operands } = parseOperands(syntax, args);
  run.includes.data(st, read, false);
  run.includes.data(st, operands, syntax.writes === true);
}

/** Files named by options, and the file operands (`-` and undeterminable words left out). */
function parseOperands(syntax: Syntax, args: Arg[]): { read: string[]; operands: string[] } {
  const read: string[] = [];
  const operands: Arg[] = [];
  let programGiven = false;
  let files = true;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!options || !isKnown(a) || a === '-' || !a.startsWith('-')) {
      operands.push(a);
      continue;
    }
    if (a === '--') {
      options = false;
      continue;
    }
    let name = '';
    let values: Arg[] = [];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      name = eq < 0 ? a : a.slice(0, eq);
      const count = syntax.long[name] ?? 0;
      values = eq >= 0 ? [a.slice(eq + 1)] : args.slice(i + 1, i + 1 + count);
      if (eq < 0) i += count;
      if (syntax.noFiles?.includes(name)) files = false;
    } else {
      // A cluster (`-qf FILE`): flags up to one taking a value, the rest of the word or the next one.
      const at = [...a.slice(1)].findIndex((c) => syntax.short.includes(c));
      if (at < 0) continue;
      name = a[at + 1]!;
      const rest = a.slice(at + 2);
      values = rest !== '' ? [rest] : args.slice(i + 1, i + 2);
      if (rest === '') i++;
    }
    if (syntax.program?.includes(name)) programGiven = true;
    const value = values[values.length - 1];
    if (syntax.reads?.includes(name) && isKnown(value)) read.push(value);
  }
  const named = syntax.program !== undefined && !programGiven ? operands.slice(1) : operands;
  return { read, operands: files ? named.filter((o): o is string => isKnown(o) && o !== '-') : [] };
}
