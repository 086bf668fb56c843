/**
 * The adversarial hooks, as data: what each does, and exactly what the engine must report.
 * Shared by the engine test (hooks.test.ts) and the CLI test (cli.test.ts).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture } from './helpers.js';

/**
 * Which policy decides the verdict: failureBehavior, timeoutBehavior, none (the hook succeeded),
 * exit 2, or `engine`: the engine could not start the guard, its own failure, denied whatever the
 * hook's failure policy (docs/security.md, issue 39 class 2).
 */
export type PolicyKind = 'failure' | 'timeout' | 'none' | 'blocking' | 'engine';

export interface HostileHook {
  name: string;
  /** The command handler (without env; the suite adds its tag). */
  handler: Record<string, unknown>;
  /** The hook's working directory: 'removed' = a directory deleted before the run. */
  cwd?: 'removed' | 'own';
  /** A large tool_input.command (bytes), for the stdin cases. */
  payloadBytes?: number;
  record: {
    outcome: string;
    exitCode: number | null;
    signal?: string | null;
    stdoutTruncated?: boolean;
    stderrTruncated?: boolean;
    error?: RegExp;
  };
  policy: PolicyKind;
}

const MB10 = 10 * 1024 * 1024;
/** Prints `{"a":` n times, then 1, then n closing braces, with no shell recursion. */
const nested = (n: number, prefix = '', suffix = '') =>
  `awk 'BEGIN{printf "%s", ${JSON.stringify(prefix)}; for(i=0;i<${n};i++) printf "{\\"a\\":"; printf "1"; for(i=0;i<${n};i++) printf "}"; printf "%s", ${JSON.stringify(suffix)}}'`;

/** Writes the hostile scripts into `dir/scripts` and returns the case table. */
export function hostileHooks(dir: string): HostileHook[] {
  const scripts = join(dir, 'scripts');
  mkdirSync(scripts, { recursive: true });
  const script = (name: string, body: string) => {
    const file = join(scripts, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };
  const forkTree = script(
    'fork-tree.sh',
    `# Every process ignores SIGTERM and forks $2 children until depth $1; all keep stdout open.
trap '' TERM
if [ "$1" -gt 0 ]; then
  i=0
  while [ "$i" -lt "$2" ]; do sh "$0" $(($1 - 1)) "$2" & i=$((i + 1)); done
fi
while :; do sleep 1; done`,
  );
  const missing = join(scripts, 'does-not-exist.sh');
  rmSync(missing, { force: true });

  return [
    {
      name: 'ignores SIGTERM',
      handler: { command: `trap '' TERM; while :; do sleep 1; done`, timeout: 0.5 },
      record: { outcome: 'timeout', exitCode: null, signal: 'SIGKILL', error: /timed out after 500 ms/ },
      policy: 'timeout',
    },
    {
      name: 'forks children that fork (40 processes ignoring SIGTERM), times out',
      handler: { command: `exec sh "${forkTree}" 3 3`, timeout: 1 },
      record: { outcome: 'timeout', exitCode: null, signal: 'SIGKILL' },
      policy: 'timeout',
    },
    {
      name: 'forks a tree, then the leader exits 0 while the tree holds stdout',
      handler: { command: `sh "${forkTree}" 2 3 & echo started` },
      record: { outcome: 'success', exitCode: 0, stdoutTruncated: false },
      policy: 'none',
    },
    {
      name: 'double-forks an orphan that holds stdout, then exits 0',
      handler: { command: `( ( trap '' TERM; while :; do sleep 1; done ) & ); echo detached` },
      record: { outcome: 'success', exitCode: 0 },
      policy: 'none',
    },
    {
      name: 'a descendant escapes the group and session (setsid), times out',
      handler: { command: `"${fixture('escape-setsid.sh')}" "${join(scripts, 'setsid.pid')}"`, timeout: 0.5 },
      record: { outcome: 'timeout', exitCode: null },
      policy: 'timeout',
    },
    {
      name: 'closes stdout at once and keeps running',
      handler: { command: `exec 1>&-; trap '' TERM; while :; do sleep 1; done`, timeout: 0.5 },
      record: { outcome: 'timeout', exitCode: null },
      policy: 'timeout',
    },
    {
      name: 'floods stdout and stderr endlessly (yes), times out',
      handler: { command: `(yes >&2 &); yes`, timeout: 0.5 },
      record: { outcome: 'timeout', exitCode: null, stdoutTruncated: true, stderrTruncated: true },
      policy: 'timeout',
    },
    {
      name: 'writes 256 KiB of random binary',
      handler: { command: `printf B; head -c 262144 /dev/urandom` },
      record: { outcome: 'success', exitCode: 0, stdoutTruncated: false },
      policy: 'none',
    },
    {
      name: 'writes 5 MB of random binary (past the cap)',
      handler: { command: `printf B; head -c 5000000 /dev/urandom` },
      record: { outcome: 'success', exitCode: 0, stdoutTruncated: true },
      policy: 'none',
    },
    {
      name: 'writes invalid UTF-8',
      handler: { command: `"${fixture('invalid-utf8.sh')}"` },
      record: { outcome: 'success', exitCode: 0, stdoutTruncated: false },
      policy: 'none',
    },
    {
      name: 'writes a 10 MB single line of text',
      handler: { command: `head -c ${MB10} /dev/zero | tr '\\0' a` },
      record: { outcome: 'success', exitCode: 0, stdoutTruncated: true },
      policy: 'none',
    },
    {
      name: 'writes a 10 MB single line of JSON (cut by the cap: unreadable)',
      handler: { command: `printf '{"systemMessage":"'; head -c ${MB10} /dev/zero | tr '\\0' a; printf '"}'` },
      record: { outcome: 'non_blocking_error', exitCode: 0, stdoutTruncated: true, error: /exceeded the output cap/ },
      policy: 'failure',
    },
    {
      name: 'writes a 10 MB single line to stderr and exits 2',
      handler: { command: `head -c ${MB10} /dev/zero | tr '\\0' e >&2; exit 2` },
      record: { outcome: 'blocking', exitCode: 2, stderrTruncated: true },
      policy: 'blocking',
    },
    {
      name: 'prints JSON nested 100,000 levels deep (in updatedInput)',
      handler: {
        command: nested(100_000, '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":', '}}'),
      },
      record: { outcome: 'non_blocking_error', exitCode: 0, error: /nested deeper than 512 levels/ },
      policy: 'failure',
    },
    {
      name: 'prints JSON nested 100,000 levels deep (an unknown field)',
      handler: { command: nested(100_000, '{"x":', '}') },
      record: { outcome: 'non_blocking_error', exitCode: 0, error: /nested deeper than 512 levels/ },
      policy: 'failure',
    },
    {
      name: 'prints arrays nested 100,000 levels deep and exits 1',
      handler: {
        command: `awk 'BEGIN{printf "{\\"x\\":"; for(i=0;i<100000;i++) printf "["; for(i=0;i<100000;i++) printf "]"; printf "}"}'; exit 1`,
      },
      record: { outcome: 'non_blocking_error', exitCode: 1, error: /nested deeper than 512 levels/ },
      policy: 'failure',
    },
    {
      name: 'exits by SIGKILL',
      handler: { command: 'kill -KILL $$' },
      record: { outcome: 'non_blocking_error', exitCode: null, signal: 'SIGKILL', error: /signal SIGKILL/ },
      policy: 'failure',
    },
    {
      name: 'exits by SIGTERM',
      handler: { command: 'kill -TERM $$' },
      record: { outcome: 'non_blocking_error', exitCode: null, signal: 'SIGTERM', error: /signal SIGTERM/ },
      policy: 'failure',
    },
    {
      name: 'closes stdin at once',
      handler: { command: `"${fixture('closes-stdin.sh')}"` },
      payloadBytes: 90_000,
      record: { outcome: 'success', exitCode: 0 },
      policy: 'none',
    },
    {
      name: 'never reads stdin (payload larger than a pipe buffer)',
      handler: { command: `"${fixture('never-reads-stdin.sh')}"` },
      payloadBytes: 90_000,
      record: { outcome: 'success', exitCode: 0 },
      policy: 'none',
    },
    {
      name: 'exits at once without reading stdin',
      handler: { command: 'exit 0' },
      payloadBytes: 90_000,
      record: { outcome: 'success', exitCode: 0 },
      policy: 'none',
    },
    {
      name: 'is not executable (shell form: exit 126)',
      handler: { command: `"${fixture('not-executable.sh')}"` },
      record: { outcome: 'non_blocking_error', exitCode: 126, error: /status code 126/ },
      policy: 'failure',
    },
    {
      name: 'is not executable (exec form: cannot start)',
      handler: { command: fixture('not-executable.sh'), args: [] },
      record: { outcome: 'error', exitCode: null, error: /permission denied/ },
      policy: 'engine',
    },
    {
      name: 'does not exist (shell form: exit 127)',
      handler: { command: `"${missing}"` },
      record: { outcome: 'non_blocking_error', exitCode: 127, error: /status code 127/ },
      policy: 'failure',
    },
    {
      name: 'does not exist (exec form: cannot start)',
      handler: { command: missing, args: [] },
      record: { outcome: 'error', exitCode: null, error: /command not found/ },
      policy: 'engine',
    },
    {
      // The agent deleted its current directory: the hook runs in the project instead (a note says so).
      name: 'its working directory was removed',
      handler: { command: 'echo ran' },
      cwd: 'removed',
      record: { outcome: 'success', exitCode: 0 },
      policy: 'none',
    },
    {
      name: 'removes its own working directory, then forks',
      handler: { command: `rmdir "$PWD" && sh -c 'echo child ran'` },
      cwd: 'own',
      record: { outcome: 'success', exitCode: 0 },
      policy: 'none',
    },
  ];
}

/** The case names, for declaring tests before the fixtures exist. */
export function hostileHookNames(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'agent-hooks-hardening-names-'));
  try {
    return hostileHooks(dir).map((c) => c.name);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
