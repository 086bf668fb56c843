/** Shared helpers for the command backend tests: fixtures and process bookkeeping. */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  pgid: number;
  state: string;
}

function readStat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid, state: f[0]!, pgid: Number(f[2]) };
  } catch {
    return undefined;
  }
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
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(Number(name));
    if (s && s.pgid === pgid && s.state !== 'Z' && s.state !== 'X') out.push(s.pid);
  }
  return out;
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

/**
 * A `cat` for the engine's drainers (src/backends/capture.ts): a directory holding a script that
 * notes its pid, then becomes the real cat. Put `dir` first on the PATH of the process that
 * starts the drainers; `pids()` are the drainers started since.
 */
export function fakeCat(parent: string): { dir: string; pids: () => number[] } {
  const dir = mkdtempSync(join(parent, 'fake-cat-'));
  const marks = join(dir, 'pids');
  const real = execFileSync('sh', ['-c', 'command -v cat'], { encoding: 'utf8' }).trim();
  writeFileSync(join(dir, 'cat'), `#!/bin/sh\necho $$ >> '${marks}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  const pids = () => (existsSync(marks) ? readFileSync(marks, 'utf8').trim().split('\n').map(Number) : []);
  return { dir, pids };
}
