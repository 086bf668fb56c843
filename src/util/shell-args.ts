/**
 * How a shell reads its own command line (`bash -euo pipefail -c …`): the trust pins read it to
 * find the script a hook runs (src/trust/pins), and Bash rules to find a shell that reads its
 * script from stdin (src/matching/shell-readings.ts).
 */

/** A word of the command line, or one whose value cannot be known (`$(…)`). */
export type ShellArg = string | { unknown: string };

/** A shell's command line read as the shell reads it (bash and dash agree on these). */
export interface ShellArgs {
  problem?: string;
  /** `--rcfile f`, `--init-file f`: read before the commands (an interactive shell). */
  rcfiles: ShellArg[];
  /** Index of the `-c` text (args.length when it is missing). */
  text?: number;
  /** Index of the script operand. */
  script?: number;
  /** The commands come from stdin (`-s`, or no operand). */
  stdin: boolean;
}

/**
 * Options end at the first word that is not one, at `-` or `--`. In a cluster each `o` or `O`
 * takes the next word (`-euo pipefail`), `-c` makes the first operand the command text (it wins
 * over `-s`, as in both shells), and `-s` or no operand reads the commands from stdin.
 */
export function readShellArgs(args: readonly ShellArg[]): ShellArgs {
  const rcfiles: ShellArg[] = [];
  let c = false;
  let s = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (typeof a !== 'string') return { problem: `an argument that cannot be determined (${a.unknown})`, rcfiles, stdin: false };
    if (a === '--' || a === '-') {
      i++;
      break;
    }
    if (a === '--rcfile' || a === '--init-file') {
      rcfiles.push(args[++i] ?? { unknown: `${a} without a file` });
      continue;
    }
    if (a.startsWith('--')) continue; // --posix, --norc, --login, …
    if (!/^[-+]./.test(a)) break;
    for (const ch of a.slice(1)) {
      if (ch === 'o' || ch === 'O') i++;
      else if (a[0] === '-' && ch === 'c') c = true;
      else if (a[0] === '-' && ch === 's') s = true;
    }
  }
  if (c) return { rcfiles, text: Math.min(i, args.length), stdin: false };
  if (s || i >= args.length) return { rcfiles, stdin: true };
  return { rcfiles, script: i, stdin: false };
}
