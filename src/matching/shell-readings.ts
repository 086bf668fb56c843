/**
 * Where a simple command's own command starts, past what runs it. Two readings, because the two
 * kinds of rule err in opposite directions:
 *
 *   - grant (an allow rule): only wrappers that run their command as it is written, each read
 *     with the options that take a value, so `timeout 5 touch a` is `touch a` (Claude Code
 *     2.1.328 allows it under `Bash(touch *)`); `env`, `exec`, `xargs`, `sudo` and the like are
 *     not looked through, since they change what runs or add words to it.
 *   - guard (`if`, deny, ask): every reading that could name what runs. Past any command runner,
 *     every later word that is not an option may start the command (`xargs rm`, `sudo -u x rm`,
 *     `find . -exec rm {} ;`); a path is also read by its base name (`/bin/rm` as `rm`); a
 *     program's leading options are also read as absent (`git -C dir push` as `git push`). A
 *     loose reading here costs at most a hook run or a denial too many, never one too few.
 */

import type { Command } from 'unbash';
import { readShellArgs } from '../util/shell-args.js';

/** Options that take the next word as their value, per grant wrapper (coreutils 9, bash). */
const GRANT_WRAPPERS: Readonly<Record<string, { values: readonly string[]; operands: number }>> = {
  timeout: { values: ['-s', '-k', '--signal', '--kill-after'], operands: 1 }, // the duration
  nice: { values: ['-n', '--adjustment'], operands: 0 },
  nohup: { values: [], operands: 0 },
  stdbuf: { values: ['-i', '-o', '-e', '--input', '--output', '--error'], operands: 0 },
  command: { values: [], operands: 0 },
  time: { values: ['-f', '-o', '--format', '--output'], operands: 0 },
};

/**
 * Programs that run a command given in their arguments. Read loosely (every later word that is
 * not an option may be the command), so an option grammar of theirs never hides it.
 */
const RUNNERS: ReadonlySet<string> = new Set([
  ...Object.keys(GRANT_WRAPPERS),
  'env',
  'exec',
  'builtin',
  'xargs',
  'sudo',
  'doas',
  'su',
  'find',
  'flock',
  'chrt',
  'taskset',
  'ionice',
  'setsid',
  'chronic',
  'unbuffer',
  'watch',
  'nsenter',
  'unshare',
  'chroot',
  'runuser',
  'strace',
  'ltrace',
  'firejail',
  'proxychains',
  'proxychains4',
  'torsocks',
  'rlwrap',
  'parallel',
  'npx',
  'pnpx',
  'bunx',
  'uvx',
]);

/** Shells whose `-c` text is a script of its own; `eval` joins its words into one. */
const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox', 'fish']);

/** Bounds: words looked at past a runner, and how many readings one command may add. */
const MAX_RUNNER_WORDS = 64;
const MAX_STARTS = 48;

const isOption = (v: string | undefined): boolean => v !== undefined && v.length > 1 && v.startsWith('-');
const baseName = (v: string): string => v.slice(v.lastIndexOf('/') + 1);

/** Word indexes where the command may start under a grant: 0, and past each grant wrapper. */
export function grantStarts(words: readonly string[]): number[] {
  const starts = [0];
  let i = 0;
  for (let guard = 0; guard < 8; guard++) {
    const table = GRANT_WRAPPERS[words[i] ?? ''];
    if (!table) break;
    let next = i + 1;
    for (;;) {
      const v = words[next];
      if (v === '--') {
        next++;
        break;
      }
      if (!isOption(v)) break;
      next += table.values.includes(v as string) ? 2 : 1;
    }
    next += table.operands;
    if (next >= words.length) break;
    starts.push(next);
    i = next;
  }
  return starts;
}

/** Word indexes where the command may start under a guard (a superset of grantStarts). */
export function guardStarts(words: readonly string[]): number[] {
  const starts = new Set(grantStarts(words));
  const queue = [...starts];
  while (queue.length > 0 && starts.size < MAX_STARTS) {
    const at = queue.shift() as number;
    const name = words[at];
    if (name === undefined || !RUNNERS.has(baseName(name))) continue;
    const end = Math.min(words.length, at + 1 + MAX_RUNNER_WORDS);
    for (let j = at + 1; j < end && starts.size < MAX_STARTS; j++) {
      const v = words[j] ?? '';
      if (isOption(v) || starts.has(j)) continue;
      starts.add(j);
      queue.push(j);
    }
  }
  return [...starts].sort((a, b) => a - b);
}

/**
 * The command's words read with the program's leading options left out: `git -C dir push x` as
 * `git push x`, `npm --prefix p publish` as `npm publish`. Each word after an option may be that
 * option's value, so every cut that leaves out options and at most one value after each is tried.
 */
export function withoutLeadingOptions(words: readonly string[]): string[][] {
  const readings: string[][] = [];
  if (!isOption(words[1])) return readings;
  let j = 1;
  while (j < words.length && readings.length < 8) {
    if (isOption(words[j])) {
      j++;
      if (j < words.length && !isOption(words[j])) readings.push([words[0] as string, ...words.slice(j)]);
      continue;
    }
    if (!isOption(words[j - 1])) break;
    j++;
    if (j < words.length) readings.push([words[0] as string, ...words.slice(j)]);
  }
  return readings;
}

/** The command read by its program's base name (`/bin/rm -f x` as `rm -f x`), if it has a path. */
export function byBaseName(words: readonly string[]): string[] | undefined {
  const name = words[0];
  if (name === undefined || !name.includes('/') || baseName(name) === '') return undefined;
  return [baseName(name), ...words.slice(1)];
}

/**
 * Whether the command is a shell that reads its script from standard input: no `-c`, and `-s`
 * or no script operand after its options (`sh`, `bash -s x`, `bash -e`, `sh -o pipefail`), as
 * the shell reads its command line (src/util/shell-args.ts). `sh x.sh` runs a file and
 * `bash -c '…'` a text (nestedScripts), neither reads stdin.
 */
export function readsScriptFromStdin(words: readonly string[]): boolean {
  const name = baseName(words[0] ?? '');
  return SHELLS.has(name) && name !== 'busybox' && readShellArgs(words.slice(1)).stdin;
}

/**
 * The script texts a command hands to a shell: a shell's `-c` text (any word after an option
 * cluster holding `c`; loosely, every such word), `eval`'s words joined, a `trap` handler, what
 * `env -S` splits. Empty when none.
 */
export function nestedScripts(words: readonly string[]): string[] {
  const name = baseName(words[0] ?? '');
  if (name === 'eval') return words.length > 1 ? [words.slice(1).join(' ')] : [];
  // `trap 'rm x' EXIT` runs its text when the shell exits.
  if (name === 'trap') return words.length > 2 && !(words[1] ?? '-').startsWith('-') ? [words[1] as string] : [];
  if (name === 'env') {
    // `env -S 'rm x'` splits its text into the command it runs.
    const at = words.findIndex((w, i) => i > 0 && /^(-S|--split-string=?)/.test(w));
    const split = words[at] ?? '';
    const text = /^(-S|--split-string)$/.test(split)
      ? words.slice(at + 1)
      : [split.replace(/^(-S|--split-string=)/, ''), ...words.slice(at + 1)];
    return at > 0 ? [text.join(' ')] : [];
  }
  if (!SHELLS.has(name)) return [];
  const at = words.findIndex((w, i) => i > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(w));
  if (at < 0) return [];
  return words.slice(at + 1).filter((w) => !isOption(w));
}

export const UNKNOWN_SCRIPT = Symbol('unknown script');

/**
 * What a shell reading its script from stdin reads: the text of a here-document or here-string
 * on descriptor 0 (the last redirection of it wins, as in the shell), UNKNOWN_SCRIPT when stdin
 * is a file or another descriptor, or a pipe; undefined when the command leaves stdin as it is.
 */
export function stdinScript(cmd: Command, piped: boolean): string | typeof UNKNOWN_SCRIPT | undefined {
  let script: string | typeof UNKNOWN_SCRIPT | undefined = piped ? UNKNOWN_SCRIPT : undefined;
  for (const r of cmd.redirects) {
    if (r.descriptor !== undefined && (r.descriptor.type !== 'FileDescriptor' || r.descriptor.value !== 0)) continue;
    if (r.type === 'HereDoc') script = r.body.text;
    else if (r.type === 'HereString') script = r.target?.value ?? UNKNOWN_SCRIPT;
    else if (r.operator === '<' || r.operator === '<>' || r.operator === '<&') script = UNKNOWN_SCRIPT;
  }
  return script;
}
