/**
 * Reading an interpreter's options as the interpreter does (pins.ts): which of them run code,
 * load a module or a file, and where the script operand starts. Every spelling an interpreter
 * accepts is read alike — `-m mod` and `-mmod`, `-Bm mod` (a cluster of one-letter options),
 * `--require x` and `--require=x` — because a spelling read as a plain flag is a file that runs
 * without being pinned. An option the table does not know is reported, so the model can unpin
 * the hook rather than guess where its value ends.
 */
import { isKnown, type Arg } from './model.js';

/**
 * What an option's value is: inline `code`; a `module` looked up by name; a file `load`ed before
 * the script (a path, or a name looked up like a module); a `file` read for settings that can
 * load code (an env file with NODE_OPTIONS, an ini file); a directory the interpreter searches
 * (`include`) or changes to (`chdir`); a plain `value`. `flag`: no value. `exit`: prints and exits.
 */
export type OptionKind = 'flag' | 'exit' | 'value' | 'code' | 'module' | 'load' | 'file' | 'include' | 'chdir';

export interface OptionTable {
  /**
   * One-letter options. `optional`: a value only when attached (`-i.bak`), the rest of the word,
   * or with `match` only what the pattern takes of it, the rest being more options (`perl -lne`).
   */
  short: Readonly<Record<string, OptionKind | { kind: OptionKind; optional: true; match?: RegExp }>>;
  /** Long options taken as flags by prefix (`--disable-gems`). */
  flagPrefixes?: readonly string[];
  /** `--name` options, taking their value as `--name=v` or as the next word. */
  long: Readonly<Record<string, OptionKind>>;
  /** One-letter options may be run together (`-Bm mod`); otherwise `-xyz` must be listed whole. */
  clusters: boolean;
  /** Long options not in the table: flags (node's many `--no-…`), or not modelled. */
  unknownLong: 'flag' | 'unknown';
}

export interface ReadOption {
  option: string;
  kind: OptionKind;
  /** The value, when the option takes one (undefined when the words ran out). */
  value?: Arg;
}

export interface ReadOptions {
  options: ReadOption[];
  /** Index of the first operand (the script), or args.length. */
  operand: number;
  /** `-`: the script is read from stdin. */
  stdin?: boolean;
  /** An option the table does not know, or a word that cannot be determined, at this point. */
  problem?: string;
  /** Options end at code or a module (`-c …`, `-m mod`): what follows is its arguments. */
  endedBy?: ReadOption;
}

/** Walk `args` as options of an interpreter described by `table`, up to the script operand. */
export function readOptions(args: readonly Arg[], table: OptionTable): ReadOptions {
  const options: ReadOption[] = [];
  const done = (operand: number, extra: Partial<ReadOptions> = {}): ReadOptions => ({ options, operand, ...extra });
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!isKnown(a)) return done(i, { problem: `an argument that cannot be determined (${a.unknown})` });
    if (a === '-') return done(i, { stdin: true });
    if (a === '--') return done(i + 1);
    if (!a.startsWith('-') || a.length === 1) return done(i);
    // Each word is one or more options: [name, kind, attached value, whether a value may follow].
    const found: Array<[string, OptionKind, string | undefined, boolean]> = [];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      const kind = table.long[name] ?? (table.flagPrefixes?.some((p) => name.startsWith(p)) ? 'flag' : undefined);
      if (kind === undefined) {
        if (table.unknownLong === 'unknown') return done(i, { problem: `option ${name} is not modelled` });
        continue;
      }
      found.push([name, kind, eq < 0 ? undefined : a.slice(eq + 1), true]);
    } else if (table.short[a.slice(1)] !== undefined && !table.clusters) {
      const entry = table.short[a.slice(1)]!;
      found.push([a, typeof entry === 'string' ? entry : entry.kind, undefined, typeof entry === 'string']);
    } else {
      // One letter and what is attached to it; with clusters, letters until one takes a value.
      for (let j = 1; j < a.length; j++) {
        const entry = table.short[a[j]!];
        if (entry === undefined) return done(i, { problem: `option -${a[j]} is not modelled` });
        const kind = typeof entry === 'string' ? entry : entry.kind;
        const rest = a.slice(j + 1);
        if (kind === 'flag' || kind === 'exit') {
          found.push([`-${a[j]}`, kind, undefined, false]);
          if (rest !== '' && !table.clusters) return done(i, { problem: `option ${a} is not modelled` });
          continue;
        }
        if (typeof entry !== 'string' && entry.match) {
          // An optional value of a known shape (`perl -l` takes octal digits): `-l0e` is -l0 then -e.
          const took = entry.match.exec(rest)?.[0] ?? '';
          found.push([`-${a[j]}`, took === '' ? 'flag' : kind, took === '' ? undefined : took, false]);
          j += took.length;
          continue;
        }
        const attached = rest === '' ? undefined : !table.clusters && rest.startsWith('=') ? rest.slice(1) : rest;
        // An optional value not given: the option alone (`perl -i`, `ruby -x`).
        if (attached === undefined && typeof entry !== 'string') found.push([`-${a[j]}`, 'flag', undefined, false]);
        else found.push([`-${a[j]}`, kind, attached, typeof entry === 'string']);
        break;
      }
    }
    for (const [option, kind, attached, mayFollow] of found) {
      const value = kind === 'flag' || kind === 'exit' ? undefined : (attached ?? (mayFollow ? args[++i] : undefined));
      const opt: ReadOption = { option, kind, ...(value !== undefined ? { value } : {}) };
      options.push(opt);
      if (kind === 'code' || kind === 'module') return done(i + 1, { endedBy: opt });
      if (kind === 'exit') return done(args.length);
    }
  }
  return done(args.length);
}

const flags = (letters: string): Record<string, 'flag'> => Object.fromEntries([...letters].map((l) => [l, 'flag' as const]));

/** CPython 3 (`python3 --help`): one-letter options cluster; `-c` and `-m` end the options. */
export const PYTHON_OPTIONS: OptionTable = {
  short: { ...flags('bBdEiIOPqRsStuvx'), c: 'code', m: 'module', W: 'value', X: 'value', Q: 'value', h: 'exit', V: 'exit', '?': 'exit' },
  long: {
    '--check-hash-based-pycs': 'value',
    '--help': 'exit',
    '--help-env': 'exit',
    '--help-xoptions': 'exit',
    '--help-all': 'exit',
    '--version': 'exit',
  },
  clusters: true,
  unknownLong: 'unknown',
};

/**
 * Node (and tsx, ts-node and bun, which take its options): long options without a value are many
 * (`--no-warnings`, `--enable-source-maps`, …) and read as flags; those that take one are listed,
 * so their value is not taken for the script.
 */
export const NODE_OPTIONS: OptionTable = {
  short: { e: 'code', p: 'code', pe: 'code', r: 'load', C: 'value', i: 'flag', c: 'flag', v: 'exit', h: 'exit' },
  long: {
    '--eval': 'code',
    '--print': 'code',
    '--require': 'load',
    '--import': 'load',
    '--loader': 'load',
    '--experimental-loader': 'load',
    '--preload': 'load',
    '--env-file': 'file',
    '--env-file-if-exists': 'file',
    '--openssl-config': 'file',
    '--experimental-policy': 'file',
    '--snapshot-blob': 'file',
    '--input-type': 'value',
    '--title': 'value',
    '--conditions': 'value',
    '--experimental-default-type': 'value',
    '--stack-size': 'value',
    '--max-old-space-size': 'value',
    '--max-semi-space-size': 'value',
    '--unhandled-rejections': 'value',
    '--dns-result-order': 'value',
    '--redirect-warnings': 'value',
    '--diagnostic-dir': 'value',
    '--report-dir': 'value',
    '--report-directory': 'value',
    '--report-filename': 'value',
    '--cpu-prof-dir': 'value',
    '--cpu-prof-name': 'value',
    '--heap-prof-dir': 'value',
    '--heap-prof-name': 'value',
    '--icu-data-dir': 'value',
    '--inspect-port': 'value',
    '--debug-port': 'value',
    '--test-reporter': 'value',
    '--test-reporter-destination': 'value',
    '--test-name-pattern': 'value',
    '--watch-path': 'value',
    '--trace-event-categories': 'value',
    '--trace-event-file-pattern': 'value',
    '--secure-heap': 'value',
    '--secure-heap-min': 'value',
    '--disable-proto': 'value',
    '--help': 'exit',
    '--version': 'exit',
    '--v8-options': 'exit',
  },
  clusters: false,
  unknownLong: 'flag',
};

/** Ruby (`ruby --help`): `-e` runs code, `-r` requires a library or file, `-I` adds to the load path. */
export const RUBY_OPTIONS: OptionTable = {
  short: {
    ...flags('acdlnpsSvwy'),
    e: 'code',
    r: 'load',
    I: 'include',
    C: 'chdir',
    E: 'value',
    F: 'value',
    x: { kind: 'chdir', optional: true },
    W: { kind: 'value', optional: true, match: /^(?:[0-2]|:[\w-]+)?/ },
    K: { kind: 'value', optional: true, match: /^[eEsSuUnN]?/ },
    T: { kind: 'value', optional: true, match: /^[0-9]*/ },
    '0': { kind: 'value', optional: true, match: /^[0-7]*/ },
    i: { kind: 'value', optional: true },
    h: 'exit',
  },
  flagPrefixes: ['--disable-', '--enable-'],
  long: {
    '--enable': 'value',
    '--disable': 'value',
    '--encoding': 'value',
    '--external-encoding': 'value',
    '--internal-encoding': 'value',
    '--jit': 'flag',
    '--yjit': 'flag',
    '--verbose': 'flag',
    '--backtrace-limit': 'value',
    '--dump': 'value',
    '--version': 'exit',
    '--copyright': 'exit',
    '--help': 'exit',
  },
  clusters: true,
  unknownLong: 'unknown',
};

/** Perl (`perlrun`): `-e`/`-E` run code, `-M`/`-m` use a module, `-I` adds to @INC, `-d:Mod` loads a debugger. */
export const PERL_OPTIONS: OptionTable = {
  short: {
    ...flags('acnpsStTuUwWX'),
    e: 'code',
    E: 'code',
    M: 'load',
    m: 'load',
    I: 'include',
    F: 'value',
    d: { kind: 'load', optional: true },
    D: { kind: 'value', optional: true, match: /^[0-9A-Za-z]*/ },
    C: { kind: 'value', optional: true, match: /^[0-9IOESioDALa]*/ },
    i: { kind: 'value', optional: true },
    l: { kind: 'value', optional: true, match: /^[0-7]*/ },
    '0': { kind: 'value', optional: true, match: /^(?:x[0-9A-Fa-f]+|[0-7]*)/ },
    x: { kind: 'chdir', optional: true },
    v: 'exit',
    V: 'exit',
    h: 'exit',
  },
  long: { '--help': 'exit', '--version': 'exit' },
  clusters: true,
  unknownLong: 'unknown',
};

/** Lua 5.x (`lua -h`): `-e` runs code, `-l` requires a module (found through package.path, `./?.lua` first). */
export const LUA_OPTIONS: OptionTable = {
  short: { e: 'code', l: 'load', i: 'flag', v: 'flag', E: 'flag', W: 'flag' },
  long: {},
  clusters: false,
  unknownLong: 'unknown',
};

/** PHP CLI (`php -h`): `-r` runs code, `-f` names the script, `-d` sets an ini entry, `-c` reads an ini file. */
export const PHP_OPTIONS: OptionTable = {
  short: {
    r: 'code',
    B: 'code',
    R: 'code',
    E: 'code',
    f: 'file',
    F: 'file',
    d: 'value',
    c: 'file',
    n: 'flag',
    e: 'flag',
    H: 'flag',
    q: 'flag',
    a: 'flag',
    l: 'flag',
    s: 'flag',
    w: 'flag',
    i: 'exit',
    m: 'exit',
    v: 'exit',
    h: 'exit',
    z: 'file',
  },
  long: { '--ini': 'exit', '--help': 'exit', '--version': 'exit' },
  clusters: false,
  unknownLong: 'unknown',
};
