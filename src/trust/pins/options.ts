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
 * `unmodelled`: what runs is found some other way (`node --test` searches the tree, `node --run`
 * runs a package.json script); the hook is unpinned with the option named.
 */
type OptionKind = 'flag' | 'exit' | 'value' | 'code' | 'module' | 'load' | 'file' | 'include' | 'chdir' | 'unmodelled';

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
  /**
   * Node's reading: a one-letter option is a whole word (`-r x`; `-rx` is an error), any other
   * single-dash word is a V8 flag (`-prof`, `-expose-gc`) read like an unknown long option, `_`
   * in a name is `-` (`--experimental_loader`), and no option takes a next word that starts
   * with `-` as its value (node stops: "requires an argument").
   */
  nodeStyle?: true;
  /**
   * Long options not in the table: not modelled (`unknown`), or `either` a flag or an option that
   * takes the next word as its value (an option of a newer node than the table knows): both
   * readings are reported (ReadOptions.ambiguous), and the caller pins what either would run.
   */
  unknownLong: 'either' | 'unknown';
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
  /**
   * Unknown long options (`unknownLong: 'either'`) read as flags here although a word follows
   * them, which they would take as their value if they had one.
   */
  ambiguous?: string[];
}

/**
 * Walk `args` as options of an interpreter described by `table`, up to the script operand.
 * `valued`: unknown long options to read as taking the next word (the other reading of
 * ReadOptions.ambiguous).
 */
export function readOptions(args: readonly Arg[], table: OptionTable, valued?: ReadonlySet<string>): ReadOptions {
  const ambiguous: string[] = [];
  const options: ReadOption[] = [];
  const done = (operand: number, extra: Partial<ReadOptions> = {}): ReadOptions => ({
    options,
    operand,
    ...(ambiguous.length > 0 ? { ambiguous } : {}),
    ...extra,
  });
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!isKnown(a)) return done(i, { problem: `an argument that cannot be determined (${a.unknown})` });
    if (a === '-') return done(i, { stdin: true });
    if (a === '--') return done(i + 1);
    if (!a.startsWith('-') || a.length === 1) return done(i);
    // Each word is one or more options: [name, kind, attached value, whether a value may follow].
    const found: Array<[string, OptionKind, string | undefined, boolean]> = [];
    if (a.startsWith('--') || (table.nodeStyle && table.short[a.slice(1)] === undefined && !/^-[A-Za-z]=/.test(a))) {
      const eq = a.indexOf('=');
      const name = longName(eq < 0 ? a : a.slice(0, eq), table);
      const kind = table.long[name] ?? (table.flagPrefixes?.some((p) => name.startsWith(p)) ? 'flag' : undefined);
      if (kind === undefined) {
        if (table.unknownLong === 'unknown') return done(i, { problem: `option ${name} is not modelled` });
        if (eq < 0 && valued?.has(name)) found.push([name, 'value', undefined, true]);
        else if (eq < 0 && mayBeValue(args[i + 1], table)) ambiguous.push(name);
        if (found.length === 0) continue;
      } else found.push([name, kind, eq < 0 ? undefined : a.slice(eq + 1), true]);
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
      if (kind === 'unmodelled')
        return done(i, { problem: `option ${option} is not modelled: what it runs is not found from the command` });
      const value = kind === 'flag' || kind === 'exit' ? undefined : (attached ?? (mayFollow ? args[++i] : undefined));
      const opt: ReadOption = { option, kind, ...(value !== undefined ? { value } : {}) };
      options.push(opt);
      if (kind === 'code' || kind === 'module') return done(i + 1, { endedBy: opt });
      if (kind === 'exit') return done(args.length);
    }
  }
  return done(args.length);
}

/** A long option's name as the table lists it: node reads `-prof` as `--prof` and `_` as `-`. */
function longName(name: string, table: OptionTable): string {
  if (!table.nodeStyle) return name;
  return `--${name.replace(/^--?/, '').replace(/_/g, '-')}`;
}

/** Whether `next` could be the value of an option before it (node never takes a `-word`). */
function mayBeValue(next: Arg | undefined, table: OptionTable): boolean {
  if (next === undefined) return false;
  return !(table.nodeStyle && isKnown(next) && next.startsWith('-') && next !== '-');
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

/** Long options of one kind, from a list of names without their dashes. */
const longs = <K extends OptionKind>(kind: K, names: string): Record<string, K> =>
  Object.fromEntries(
    names
      .split(/\s+/)
      .filter(Boolean)
      .map((n) => [`--${n}`, kind]),
  );

/**
 * Node (and tsx, ts-node and bun, which take its options). Node's own options that take a value
 * take the next word too (`--title x`); V8's take one only after `=` (`--stack-size 100` is an
 * error, so listing the common ones as `value` changes nothing that runs). Options known to take
 * no value are listed, the `--no-…` negations are all flags, and those that take one are listed,
 * so their value is not read as the script. Any other long option (one of a newer node, a V8
 * flag) may be either: both readings are pinned.
 * Lists from `node --help` of 20.20, with the options of 22–24 added.
 */
export const NODE_OPTIONS: OptionTable = {
  short: { e: 'code', p: 'code', pe: 'code', r: 'load', C: 'value', i: 'flag', c: 'flag', v: 'exit', h: 'exit' },
  flagPrefixes: ['--no-'],
  long: {
    ...longs(
      'flag',
      `
      abort-on-uncaught-exception allow-addons allow-child-process allow-wasi allow-worker build-snapshot
      check cpu-prof disable-sigusr1 disable-wasm-trap-handler
      disallow-code-generation-from-strings enable-etw-stack-walking enable-fips
      enable-network-family-autoselection enable-source-maps entry-url experimental-addon-modules
      experimental-detect-module experimental-eventsource experimental-import-meta-resolve
      experimental-network-imports experimental-network-inspection experimental-permission
      experimental-print-required-tla experimental-require-module experimental-shadow-realm
      experimental-sqlite experimental-strip-types experimental-test-coverage
      experimental-test-module-mocks experimental-test-snapshots experimental-transform-types
      experimental-vm-modules experimental-wasm-modules experimental-webstorage experimental-websocket
      expose-gc force-context-aware force-fips force-node-api-uncaught-exceptions-policy
      frozen-intrinsics heap-prof huge-max-old-generation-size insecure-http-parser inspect inspect-brk
      inspect-wait interactive interpreted-frames-native-stack jitless node-memory-debug
      openssl-legacy-provider openssl-shared-config pending-deprecation permission preserve-symlinks
      preserve-symlinks-main prof report-compact report-exclude-env report-exclude-network
      report-on-fatalerror report-on-signal report-uncaught-exception test-force-exit test-only
      test-update-snapshots throw-deprecation tls-max-v1.2 tls-max-v1.3 tls-min-v1.0 tls-min-v1.1
      tls-min-v1.2 tls-min-v1.3 trace-atomics-wait trace-deprecation trace-env trace-env-js-stack
      trace-env-native-stack trace-exit trace-promises trace-sigint trace-sync-io trace-tls
      trace-uncaught trace-warnings track-heap-objects use-bundled-ca use-openssl-ca
      use-system-ca watch watch-preserve-output zero-fill-buffers`,
    ),
    '--eval': 'code',
    '--print': 'code',
    '--require': 'load',
    '--import': 'load',
    '--loader': 'load',
    '--experimental-loader': 'load',
    '--preload': 'load',
    '--test-global-setup': 'load',
    '--env-file': 'file',
    '--env-file-if-exists': 'file',
    '--openssl-config': 'file',
    '--experimental-policy': 'file',
    // Files that name code to run (a config's `nodeOptions.import`, a snapshot builder, a
    // single-executable `main`), and node 24's config file, read from ./node.config.json when
    // the option has no `=`: not modelled.
    '--experimental-config-file': 'unmodelled',
    '--experimental-default-config-file': 'unmodelled',
    '--experimental-sea-config': 'unmodelled',
    '--build-snapshot-config': 'unmodelled',
    '--snapshot-blob': 'file',
    '--test': 'unmodelled',
    '--run': 'unmodelled',
    '--prof-process': 'exit',
    '--completion-bash': 'exit',
    '--help': 'exit',
    '--version': 'exit',
    '--v8-options': 'exit',
    ...longs(
      'value',
      `allow-fs-read allow-fs-write conditions cpu-prof-dir cpu-prof-interval cpu-prof-name debug-port
      diagnostic-dir disable-proto disable-warning dns-result-order experimental-default-type
      heap-prof-dir heap-prof-interval heap-prof-name heapsnapshot-near-heap-limit heapsnapshot-signal
      icu-data-dir input-type inspect-port inspect-publish-uid localstorage-file max-http-header-size
      max-old-space-size max-old-space-size-percentage max-semi-space-size
      network-family-autoselection-attempt-timeout policy-integrity redirect-warnings report-dir
      report-directory report-filename report-signal secure-heap secure-heap-min security-revert
      stack-size test-concurrency test-coverage-branches test-coverage-exclude test-coverage-functions
      test-coverage-include test-coverage-lines test-isolation test-name-pattern test-reporter
      test-reporter-destination test-shard test-skip-pattern test-timeout title tls-cipher-list
      tls-keylog trace-event-categories trace-event-file-pattern trace-require-module
      unhandled-rejections use-largepages v8-pool-size watch-kill-signal watch-path`,
    ),
  },
  clusters: false,
  nodeStyle: true,
  unknownLong: 'either',
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
    // -F takes its pattern attached only (`-F:`, `-F/,/`); -d takes `t` and `:Module` only (`-dI.` is -d then -I).
    F: { kind: 'value', optional: true },
    d: { kind: 'load', optional: true, match: /^t?(?::[\w:]+(?:=[^\s]*)?)?/ },
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
