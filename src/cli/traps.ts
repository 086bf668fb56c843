/**
 * The classic ways a hook fails quietly, read from what `run` captured (docs/cli.md, "What
 * happened"): JSON with log lines around it (read as plain text, so its decision is lost),
 * exit 126/127 or "command not found" on an event the hook could block, and a crash of such
 * a hook that the failure policy turned into "proceed".
 */
import { eventFacts, type EventName } from '../events/facts.js';
import type { Decision, HookRecord } from '../reduce/reduce.js';

function isJsonObject(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

/** 1-based line of a JSON object in stdout that is not the whole of it, or undefined. */
export function buriedJsonLine(stdout: string): number | undefined {
  const trimmed = stdout.trim();
  if (trimmed === '' || isJsonObject(trimmed)) return undefined;
  const lines = stdout.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.startsWith('{') && isJsonObject(line)) return i + 1;
  }
  // A pretty-printed object after a log line: from the first line that opens one to the end.
  const start = lines.findIndex((l) => l.trim() === '{' || l.startsWith('{'));
  if (start > 0 && isJsonObject(lines.slice(start).join('\n').trim())) return start + 1;
  return undefined;
}

const NOT_FOUND = /(command not found|: not found|No such file or directory|can't open|cannot execute)/i;

function hookName(h: HookRecord): string {
  return [h.source.file, h.source.path].filter(Boolean).join(' ') || h.id;
}

export function traps(decision: Decision): string[] {
  const spec = eventFacts(decision.event as EventName);
  const out: string[] = [];
  for (const h of decision.hooks) {
    const name = hookName(h);
    const stdout = h.io?.stdout ?? '';
    const stderr = h.io?.stderr ?? '';
    const line = h.exitCode === 0 ? buriedJsonLine(stdout) : undefined;
    if (line !== undefined) {
      out.push(
        `${name}: stdout has a JSON object on line ${line} with other output around it; only a stdout that is nothing but JSON is read as JSON, so it was taken as plain text and its decision ignored. Print logs to stderr.`,
      );
    }
    if (!spec.canBlock || h.decision !== undefined) continue;
    const crashed = h.outcome === 'non_blocking_error' || h.outcome === 'error' || h.outcome === 'timeout';
    const proceeds = h.policy === undefined || h.policy === 'ignore';
    if (h.exitCode === 126 || h.exitCode === 127) {
      out.push(
        `${name}: exit ${h.exitCode} (${h.exitCode === 127 ? 'command not found: a missing interpreter or script' : 'not executable'}); this hook could block ${decision.event} but never ran${proceeds ? ', and the action proceeds' : ''}.${firstLine(stderr)}`,
      );
    } else if (crashed && proceeds) {
      const how = h.outcome === 'timeout' ? 'timed out' : h.exitCode !== null ? `failed with exit ${h.exitCode}` : 'failed';
      // The agent's own rule, not this engine's failureBehavior option: the fix is in the script.
      const fix =
        h.outcome === 'timeout'
          ? 'A hook that times out does not block; make it finish within its timeout.'
          : 'To block, print the reason to stderr and exit 2: exit 2 blocks; exit 1 is a non-blocking error in Claude Code.';
      out.push(
        `${name}: ${how} on ${decision.event}, which it could block; its failure policy is ignore, so the action proceeds as if it allowed. ${fix}${firstLine(stderr)}`,
      );
    } else if (h.outcome === 'success' && NOT_FOUND.test(stderr)) {
      out.push(
        `${name}: exited 0 but its stderr says something was not found (a tool it calls, like jq, missing?); it decided nothing.${firstLine(stderr)}`,
      );
    }
  }
  return out;
}

function firstLine(stderr: string): string {
  const line = stderr.trim().split('\n', 1)[0]?.trim();
  return line ? ` stderr: ${line.length > 200 ? `${line.slice(0, 200)}…` : line}` : '';
}
