/** Shared helpers for the command backend tests: fixtures and process bookkeeping. */
import { chmodSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'hooks');

export function fixture(name: string): string {
  return join(FIXTURES, name);
}

/** Git does not always keep modes: make the shell fixtures executable, except the one that must not be. */
export function prepareFixtures(): void {
  for (const name of readdirSync(FIXTURES)) {
    if (name.endsWith('.sh')) chmodSync(fixture(name), name === 'not-executable.sh' ? 0o644 : 0o755);
  }
}

export const HAS_PROC = process.platform === 'linux';

interface Stat {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
  pgid: number;
}

function readStat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read from the last ')'.
    const close = text.lastIndexOf(')');
    const f = text.slice(close + 2).split(' ');
    return { pid, comm: text.slice(text.indexOf('(') + 1, close), state: f[0]!, ppid: Number(f[1]), pgid: Number(f[2]) };
  } catch {
    return undefined;
  }
}

/** Live (not zombie) processes that pass `keep`, read from /proc. */
function liveProcesses(keep: (s: Stat) => boolean): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(Number(name));
    if (s && s.state !== 'Z' && s.state !== 'X' && keep(s)) out.push(s.pid);
  }
  return out;
}

/** Non-zombie members of a process group (zombies are dead; nothing here reaps orphans promptly). */
export function liveGroupMembers(pgid: number): number[] {
  if (!HAS_PROC) {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  return liveProcesses((s) => s.pgid === pgid);
}

export function isPidLive(pid: number): boolean {
  if (!HAS_PROC) {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  const s = readStat(pid);
  return s !== undefined && s.state !== 'Z' && s.state !== 'X';
}

/** SIGKILL signals arrive asynchronously: give the kernel a moment before judging. */
export async function waitUntil(check: () => boolean, ms = 1000): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Records every group and stray pid a test creates, and kills what is left afterwards. */
export class ProcessTracker {
  readonly groups = new Set<number>();
  readonly pids = new Set<number>();
  /** Set by a test that leaves a process running on purpose. */
  allowLeftovers = false;

  readonly onSpawn = (pid: number): void => {
    this.groups.add(pid);
  };

  /** Kills what is left; returns the groups that still had live members (after a short settle). */
  async cleanup(): Promise<number[]> {
    const leaking: number[] = [];
    for (const pgid of this.groups) {
      if (!(await waitUntil(() => liveGroupMembers(pgid).length === 0, 500))) leaking.push(pgid);
    }
    for (const pgid of this.groups) {
      if (liveGroupMembers(pgid).length > 0) {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    for (const pid of this.pids) {
      if (isPidLive(pid)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    this.groups.clear();
    this.pids.clear();
    const allowed = this.allowLeftovers;
    this.allowLeftovers = false;
    return allowed ? [] : leaking;
  }
}

/** Live children of `parent` whose command name is `comm` (Linux /proc). */
export function childrenNamed(parent: number, comm: string): number[] {
  return liveProcesses((s) => s.ppid === parent && s.comm === comm);
}

/**
 * Every child named `comm` of `parent()` seen alive, sampled every 10 ms until `stop()`;
 * `onFirst` is called once, with the first one seen.
 */
export function watchChildren(
  parent: () => number | undefined,
  comm: string,
  onFirst?: (pid: number) => void,
): { seen: () => number[]; stop: () => void } {
  const seen = new Set<number>();
  const sampler = setInterval(() => {
    const p = parent();
    if (p === undefined) return;
    const before = seen.size;
    for (const pid of childrenNamed(p, comm)) seen.add(pid);
    if (before === 0 && seen.size > 0) onFirst?.([...seen][0]!);
  }, 10);
  return { seen: () => [...seen], stop: () => clearInterval(sampler) };
}
