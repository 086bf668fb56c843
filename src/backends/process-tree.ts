/**
 * Finding and signalling the processes a command hook owns.
 *
 * A hook runs as the leader of its own process group, so one `kill(-pgid)` reaches
 * everything that stayed in the group. What the group cannot reach is a descendant that
 * called setsid()/setpgid() to escape it; on Linux we find those through /proc by parent
 * links while the tree is still intact (at kill time), and by a mark in their environment
 * (RUN_MARK_ENV, one random value per hook run) when the links are gone: a double fork leaves
 * the grandchild a child of init, but its /proc/PID/environ still holds the mark it inherited.
 * A descendant that clears or rewrites its environment, or runs as another user, is out of
 * reach (docs/security.md, "Escapes"). Elsewhere only the group is used.
 *
 * Every entry carries the process start time, so a pid that was reused by an unrelated
 * process between the snapshot and the signal is never hit.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** How a process we started ended (an MCP server: ./stdio-transport.ts). */
export interface ServerExit {
  code: number | null;
  signal: string | null;
}

export interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** Single-letter state from /proc/<pid>/stat (R, S, D, Z, ...). */
  state: string;
  /** Start time in clock ticks since boot; identifies the process across pid reuse. */
  start: string;
}

// Found out at first use, not at import: a hook that exits by itself never needs /proc.
let procFs: boolean | undefined;

/** True when /proc-based tree tracking is available (Linux). */
export function hasProcFs(): boolean {
  procFs ??= process.platform === 'linux' && readProcEntry(process.pid) !== undefined;
  return procFs;
}

function readProcEntry(pid: number): ProcEntry | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself contain spaces or ')'.
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is stat field 3 (state); field N is fields[N - 3].
  const state = fields[0];
  const ppid = Number(fields[1]);
  const pgid = Number(fields[2]);
  const start = fields[19];
  if (state === undefined || start === undefined || !Number.isInteger(ppid) || !Number.isInteger(pgid)) {
    return undefined;
  }
  return { pid, ppid, pgid, state, start };
}

/** All processes visible in /proc (empty when /proc is unavailable). */
export function listProcesses(): ProcEntry[] {
  if (!hasProcFs()) return [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcEntry[] = [];
  for (const name of names) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue; // only numeric entries are processes
    const entry = readProcEntry(Number(name));
    if (entry) out.push(entry);
  }
  return out;
}

/**
 * The processes owned by a hook whose leader had pid `leader` (= its pgid): every member
 * of the group, plus every descendant (by parent links) of the leader or of a member,
 * including those that moved to another group or session. Zombies are left out.
 */
export function ownedProcesses(leader: number, all: ProcEntry[] = listProcesses(), mark?: string): ProcEntry[] {
  const children = new Map<number, ProcEntry[]>();
  for (const p of all) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const owned = new Map<number, ProcEntry>();
  const needle = mark === undefined ? undefined : Buffer.from(`${RUN_MARK_ENV}=${mark}\0`);
  const queue: ProcEntry[] = all.filter(
    (p) => p.pgid === leader || p.pid === leader || (needle !== undefined && environHas(p.pid, needle)),
  );
  while (queue.length > 0) {
    const p = queue.pop()!;
    if (owned.has(p.pid)) continue;
    owned.set(p.pid, p);
    for (const child of children.get(p.pid) ?? []) queue.push(child);
  }
  return [...owned.values()].filter((p) => p.state !== 'Z' && p.state !== 'X');
}

/** Names one hook run in the environment of everything the hook starts (see the top of the file). */
export const RUN_MARK_ENV = 'AGENT_HOOKS_RUN';

let runs = 0;
/**
 * A RUN_MARK_ENV value: unique per run, not secret (a process carrying another run's mark was
 * started by someone who could signal it anyway); not node:crypto, which dispatch does not load.
 */
export function newRunMark(): string {
  return `${process.pid}.${++runs}.${Math.random().toString(36).slice(2)}`;
}

/** Whether the environment the process started with holds `needle` (`NAME=value\0`) as one whole entry. */
function environHas(pid: number, needle: Buffer): boolean {
  let env: Buffer;
  try {
    env = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return false; // gone, or another user's
  }
  const at = env.indexOf(needle);
  return at === 0 || (at > 0 && env[at - 1] === 0);
}

/** Still running (not gone, not a zombie) and still the same process as when recorded. */
export function isLive(entry: ProcEntry): boolean {
  const now = readProcEntry(entry.pid);
  return now !== undefined && now.start === entry.start && now.state !== 'Z' && now.state !== 'X';
}

/** Signal a whole process group; a group that is already gone is not an error. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nothing left in the group. EPERM: not ours to signal.
  }
}

/** Signal the entries that escaped the group, re-checking identity first. */
export function signalEscaped(entries: readonly ProcEntry[], pgid: number, signal: NodeJS.Signals): void {
  for (const e of entries) {
    if (e.pgid === pgid && readProcEntry(e.pid)?.pgid === pgid) continue; // reached by signalGroup
    if (!isLive(e)) continue;
    try {
      process.kill(e.pid, signal);
    } catch {
      // Exited in between.
    }
  }
}

/** Whether any process is left in the group (zombies count on systems without /proc). */
export function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
