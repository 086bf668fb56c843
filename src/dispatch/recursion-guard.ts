/**
 * The recursion guard: a hook that itself calls `agent-hooks dispatch` (directly, or through an
 * agent it starts) gets a no-op answer, so hooks do not run hooks without end.
 *
 * The variable alone cannot switch it on: the agent's environment (a poisoned shell profile, an
 * `env` block in settings) reaches every dispatch the agent starts, and any value there turned
 * every guard off. Dispatch sets `AGENT_HOOKS_DISPATCH=<pid>:<start time>` for its hooks, and a
 * dispatch honours it only when that process is its own ancestor (parent links), started at that
 * time (so a reused pid does not count), and is a `dispatch`. The agent is never a descendant of
 * a dispatch it runs hooks for, so nothing it sets passes. Where the parent links cannot be read
 * (no /proc and no `ps`) the guard is not honoured: hooks run (docs/security.md, "Escapes").
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ProcInfo {
  ppid: number;
  /** Start time in clock ticks since boot (Linux); '' where unknown. */
  start: string;
  args: string[];
}

/** Ancestors looked at before giving up (a hook's shell, an agent, its shell, …). */
const MAX_DEPTH = 32;

/** The value dispatch gives its hooks: this process, named so a reused pid does not match. */
export function dispatchMarker(): string {
  return `${process.pid}:${procStart(process.pid) ?? ''}`;
}

/** True when `value` names a running `dispatch` that is an ancestor of this process. */
export function calledFromDispatch(value: string | undefined, lookup: (pid: number) => ProcInfo | undefined = processLookup()): boolean {
  const m = /^(\d+):(\d*)$/.exec(value ?? '');
  if (!m) return false;
  const pid = Number(m[1]);
  const start = m[2]!;
  let at = process.ppid;
  for (let depth = 0; depth < MAX_DEPTH && at > 1; depth++) {
    const info = lookup(at);
    if (!info) return false;
    if (at === pid) return info.start === start && info.args.includes('dispatch');
    at = info.ppid;
  }
  return false;
}

/** Parent links and arguments of any process: /proc where there is one, else one `ps` run. */
export function processLookup(): (pid: number) => ProcInfo | undefined {
  if (procInfo(process.pid)) return procInfo;
  const table = psTable();
  return (pid) => table.get(pid);
}

/** From /proc (Linux). */
function procInfo(pid: number): ProcInfo | undefined {
  try {
    const fields = statFields(pid);
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return { ppid: Number(fields[1]), start: fields[19] ?? '', args };
  } catch {
    return undefined;
  }
}

/** A process's start time alone: the marker needs no command line (one file read less per dispatch). */
function procStart(pid: number): string | undefined {
  try {
    return statFields(pid)[19] ?? '';
  } catch {
    return undefined;
  }
}

/** /proc/PID/stat from field 3 on. The command name (field 2) is in parentheses and may itself hold spaces or ')'. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** From one `ps` run (macOS, BSD): parent links and arguments, no start time (pids are matched alone). */
export function psTable(text?: string): Map<number, ProcInfo> {
  let out = text;
  if (out === undefined) {
    const r = spawnSync('/bin/ps', ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'args='], { encoding: 'utf8', timeout: 2000 });
    out = r.status === 0 ? r.stdout : '';
  }
  const table = new Map<number, ProcInfo>();
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (m) table.set(Number(m[1]), { ppid: Number(m[2]), start: '', args: m[3]!.split(/\s+/) });
  }
  return table;
}
