/**
 * Where sh's grammar differs from the bash grammar the parser reads, and which commands run what
 * a pipe feeds them (shell.ts models the commands themselves; src/util/shell-args.ts reads a
 * shell's own command line).
 */
import path from 'node:path';
import { forEachChild, type Command, type parse, type SyntaxNode, type Word } from 'unbash';
import { readShellArgs } from '../../util/shell-args.js';
import { isKnown, MAX_DEPTH, NODE_LIKE, PYTHON, SCRIPTED, SHELLS, unpin, type Arg, type Run, type State } from './model.js';
import { unwrap, WRAPPERS } from './wrappers.js';

/** The grammar a shell named `base` reads. */
export function dialectOf(base: string): State['dialect'] {
  return base === 'bash' || base === 'zsh' ? 'bash' : 'posix';
}

/**
 * The parser reads bash; sh (dash on Debian) reads `$'…'` and `$"…"` as `$` and a quoted string,
 * and `time -f …` as /usr/bin/time with options: the hook is unpinned where they appear. (`&>`,
 * which dash reads as `&` and `>` and a bash-as-sh as a redirection, is modelled: see modelSimpleCommand.)
 */
export function posixDifferences(run: Run, script: ReturnType<typeof parse>): void {
  const visit = (n: SyntaxNode): void => {
    if (n.type === 'AnsiCQuoted' || n.type === 'LocaleString') {
      unpin(run, `the command uses ${n.type === 'AnsiCQuoted' ? "$'…'" : '$"…"'} quoting, which sh reads otherwise than bash`);
      return;
    }
    if (n.type === 'Pipeline' && n.prefixes?.some((p) => p.type === 'Time')) {
      const first = n.commands[0];
      if (first?.type === 'Command' && first.name?.value.startsWith('-'))
        unpin(run, 'the command runs time with options, which sh runs as /usr/bin/time; that is not modelled');
    }
    forEachChild(n, visit);
  };
  for (const c of script.commands) visit(c);
}

/** Whether a command fed by a pipe runs what it is fed (a shell or interpreter reading its script from stdin). */
export function readsStdinScript(_run: Run, _st: State, cmd: Command): boolean {
  let argv: Arg[] = cmd.name ? [cmd.name, ...cmd.args.filter((a): a is Word => a.type === 'Word')].map((w) => w.value) : [];
  // Through wrappers (`… | env sh`, `… | timeout 5 bash -e`), as the command runs.
  for (let hops = 0; hops < MAX_DEPTH && isKnown(argv[0]) && WRAPPERS.has(path.basename(argv[0])); hops++) {
    const inner = unwrap(path.basename(argv[0]), argv.slice(1), new Map());
    if (!inner.ok) return true; // cannot tell: as if it read its stdin
    argv = inner.command;
  }
  if (!isKnown(argv[0])) return argv.length > 0;
  const name = path.basename(argv[0]);
  if (!SHELLS.has(name) && !PYTHON.test(name) && !NODE_LIKE.has(name) && !SCRIPTED.has(name)) return false;
  const rest = argv.slice(1);
  if (SHELLS.has(name)) {
    const read = readShellArgs(rest);
    return read.problem !== undefined || read.stdin;
  }
  return rest.length === 0 || rest.includes('-');
}
