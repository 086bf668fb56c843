/**
 * Ending the agent that called dispatch, for a decision the agent has no answer for and that it
 * would otherwise let through (a PostToolUse output replacement in Auggie or Letta Code: each
 * only appends a hook's answer to the tool output, so the original reaches the model on the
 * next request). The agent waits for its hook before that request, so dispatch ends the agent
 * while it waits and answers nothing: the turn stops before the model reads anything. Auggie's
 * blocked prompt is ended the same way if the agent is still there (it does not wait for that
 * hook; once it has exited, dispatch is re-parented and ends nothing).
 *
 * The agent is the nearest ancestor that is not a shell (a hook line may run through `sh -c`), and
 * only if its command line names that agent: dispatch run by hand from a terminal, or under a
 * wrapper, must never end the user's shell session or the wrapper.
 * It gets SIGTERM (its own shutdown path), then SIGKILL if it is still there after the grace
 * time. Dispatch ignores the signals an agent's shutdown may pass to its hooks: dying before the
 * agent would hand it an error, which it reads as "proceed".
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { EndAgent } from '../agents/types.js';
import { processLookup, type ProcInfo } from './recursion-guard.js';

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox']);
const MAX_DEPTH = 8;
const TERM_GRACE_MS = 5000;
const KILL_WAIT_MS = 3000;
const POLL_MS = 50;

/**
 * The pid of the agent above this process (shells skipped) when its program (the command line's
 * first two words: an interpreter and its script, or a binary) matches `agent`; undefined when
 * the links cannot be read or the first other process is not the agent.
 */
export function agentPid(
  agent: RegExp,
  lookup: (pid: number) => ProcInfo | undefined = processLookup(),
  from = process.ppid,
): number | undefined {
  let at = from;
  for (let depth = 0; depth < MAX_DEPTH && at > 1; depth++) {
    const info = lookup(at);
    if (!info) return undefined;
    // A login shell names itself `-bash`.
    if (!SHELLS.has(basename(info.args[0] ?? '').replace(/^-/, ''))) return agent.test(info.args.slice(0, 2).join(' ')) ? at : undefined;
    at = info.ppid;
  }
  return undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie has ended; its parent has not collected it yet.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return true;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function gone(pid: number, withinMs: number): Promise<boolean> {
  for (let waited = 0; waited < withinMs; waited += POLL_MS) {
    if (!alive(pid)) return true;
    await sleep(POLL_MS);
  }
  return !alive(pid);
}

/**
 * The agent's stderr (a terminal, file or pipe; not a socket, which /proc cannot open), else the
 * controlling terminal. Best effort: dispatch's own stderr carries the reason too.
 */
function tell(pid: number, text: string): void {
  for (const target of [`/proc/${pid}/fd/2`, '/dev/tty']) {
    try {
      appendFileSync(target, text);
      return;
    } catch {
      // next
    }
  }
}

/**
 * Ends the agent with `reason` on its own stderr (where its user reads it; best effort) and
 * returns true once it is gone. False when it cannot be found or outlives SIGKILL: the caller
 * then answers as it would have.
 */
export async function endAgent({ reason, agent }: EndAgent, parentAtStart: number): Promise<boolean> {
  // Re-parented: the agent has exited already (an event it does not wait for), and the new parent is not it.
  if (process.ppid !== parentAtStart) return true;
  const pid = agentPid(agent);
  if (pid === undefined) return false;
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => {});
  tell(pid, `\nagent-hooks: ended the agent: ${reason}\n`);
  try {
    process.kill(pid, 'SIGTERM');
    if (await gone(pid, TERM_GRACE_MS)) return true;
    process.kill(pid, 'SIGKILL');
    return await gone(pid, KILL_WAIT_MS);
  } catch {
    return !alive(pid);
  }
}
