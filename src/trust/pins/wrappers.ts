/**
 * Wrappers of the shell model (pins.ts): the command `exec`, `env`, `timeout`, `nice`… run.
 * Each wrapper's options are read as its own getopt reads them (options.ts: clusters such as
 * `-vk 1`, attached values, `--signal KILL` and `--signal=KILL`), so that no value is taken for
 * the command and no command for a value; an option a table does not list stops the reading,
 * and the hook is unpinned rather than guessed at.
 */
import { assignedName, isKnown, type Arg } from './model.js';
import { readOptions, type OptionTable } from './options.js';

const gnu = (short: OptionTable['short'], long: OptionTable['long']): OptionTable => ({
  short,
  long: { '--help': 'exit', '--version': 'exit', ...long },
  clusters: true,
  unknownLong: 'unknown',
});

/**
 * The options of each wrapper (coreutils 9 and util-linux for the programs; bash for `exec`,
 * `command` and the `time` keyword, whose `-p` /usr/bin/time shares). `chdir`: the command runs
 * in another directory, which is not followed (`env -C`); `unmodelled`: its command line is
 * built some other way (`env -S`).
 */
const TABLES: Readonly<Record<string, OptionTable>> = {
  exec: gnu({ a: 'value', c: 'flag', l: 'flag' }, {}),
  command: gnu({ p: 'flag', v: 'exit', V: 'exit' }, {}),
  builtin: gnu({}, {}),
  nohup: gnu({}, {}),
  chronic: gnu({ e: 'flag', v: 'flag' }, {}),
  setsid: gnu({ c: 'flag', f: 'flag', w: 'flag' }, { '--ctty': 'flag', '--fork': 'flag', '--wait': 'flag' }),
  time: gnu(
    { f: 'value', o: 'value', a: 'flag', v: 'flag', p: 'flag', q: 'flag' },
    { '--format': 'value', '--output': 'value', '--append': 'flag', '--verbose': 'flag', '--portability': 'flag', '--quiet': 'flag' },
  ),
  nice: gnu({ n: 'value' }, { '--adjustment': 'value' }),
  ionice: gnu(
    { c: 'value', n: 'value', p: 'exit', P: 'exit', u: 'exit', t: 'flag' },
    { '--class': 'value', '--classdata': 'value', '--pid': 'exit', '--pgid': 'exit', '--uid': 'exit', '--ignore': 'flag' },
  ),
  stdbuf: gnu({ i: 'value', o: 'value', e: 'value' }, { '--input': 'value', '--output': 'value', '--error': 'value' }),
  timeout: gnu(
    { k: 'value', s: 'value', v: 'flag', f: 'flag', p: 'flag' },
    { '--kill-after': 'value', '--signal': 'value', '--verbose': 'flag', '--foreground': 'flag', '--preserve-status': 'flag' },
  ),
  env: gnu(
    { i: 'flag', u: 'value', C: 'chdir', S: 'unmodelled', 0: 'flag', v: 'flag' },
    {
      '--ignore-environment': 'flag',
      '--unset': 'value',
      '--chdir': 'chdir',
      '--split-string': 'unmodelled',
      '--null': 'flag',
      '--debug': 'flag',
      '--list-signal-handling': 'flag',
      // A signal list only after `=` (`--ignore-signal=PIPE`); alone they take no word.
      '--block-signal': 'flag',
      '--default-signal': 'flag',
      '--ignore-signal': 'flag',
    },
  ),
};

/** Names of the wrappers the model looks through. */
export const WRAPPERS: ReadonlySet<string> = new Set(Object.keys(TABLES));

export type Unwrapped = { ok: true; command: Arg[] } | { ok: false; why: string };

/**
 * The command a wrapper runs (none: `command -v`, `ionice -p`), or why it cannot be told. `env`'s
 * `NAME=value` words are added to `env`.
 */
export function unwrap(base: string, args: Arg[], env: Map<string, Arg>): Unwrapped {
  const table = TABLES[base];
  if (table === undefined) return { ok: false, why: `${base} is not a wrapper the model knows` };
  let from = 0;
  // nice's and the old `-5` spelling of an adjustment.
  if (base === 'nice' && isKnown(args[0]) && /^-\d+$/.test(args[0])) from = 1;
  const rest = args.slice(from);
  // A word whose value is not known where an option may stand unpins the hook (readOptions), as
  // it may be an option that takes the next word; only `env`'s `NAME=$(…)` ends the options.
  const cut = base === 'env' ? rest.findIndex((a) => assignedName(a) !== undefined) : -1;
  const read = readOptions(cut < 0 ? rest : rest.slice(0, cut), table);
  if (read.problem) return { ok: false, why: `${base}: ${read.problem}` };
  if (read.options.some((o) => o.kind === 'exit')) return { ok: true, command: [] };
  if (read.options.some((o) => o.kind === 'chdir')) return { ok: false, why: `${base} runs its command in another directory` };
  let i = read.operand;
  if (base === 'env') {
    if (read.stdin) i++; // `env -` is `env -i`
    for (; i < rest.length; i++) {
      const a = rest[i]!;
      const assign = assignedName(a);
      if (assign !== undefined) env.set(assign, a);
      // env takes every word with a `=` as an assignment, whatever its name (`a-b=1`, `BASH_FUNC_f%%=…`).
      else if (isKnown(a) && a.indexOf('=') > 0) env.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
      else break;
    }
  } else if (read.stdin) return { ok: false, why: `${base} is given - where its command should be` };
  if (base === 'timeout') i++; // the duration
  return { ok: true, command: rest.slice(i) };
}
