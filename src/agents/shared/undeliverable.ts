/**
 * Cells of the real-agents matrix that no answer of ours can make the agent honour, because
 * the agent's own code drops the effect or never fires the event (each read from the installed
 * agent; docs/dialects.md "Not deliverable by the agent"). None is a fail-open: a context that
 * never arrives lets no denied action through; a hook that never fires is the agent's fact,
 * and the blocking cases (Droid's prompt submit) are reported loudly by `check --agent droid`.
 * An `answer` entry is one dispatch closes by ending the agent (src/dispatch/end-agent.ts).
 * Dispatch's note for a dropped context is src/agents/shared/wire.ts (withUndeliverableNotes).
 */
import type { Diagnostic, NormalizedHook } from '../../types.js';
import type { Undeliverable } from '../types.js';

/**
 * Config-time warnings for hooks the agent will never run, or whose answer it cannot apply.
 * Whether a hook returns a context cannot be told from its config, so `context` entries are
 * left to dispatch's note.
 */
export function undeliverableWarnings(agentTitle: string, list: readonly Undeliverable[], hooks: readonly NormalizedHook[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const u of list) {
    if (u.part === 'context') continue;
    for (const h of hooks.filter((x) => x.event === u.event)) {
      out.push({
        level: 'warning',
        ...(h.source.file ? { file: h.source.file } : {}),
        path: h.source.path,
        message: u.part === 'fire' ? fireMessage(agentTitle, u) : answerMessage(agentTitle, u),
      });
    }
  }
  return out;
}

function fireMessage(agentTitle: string, u: Undeliverable): string {
  const lead = u.blocking ? `THIS GUARD WILL NEVER RUN on ${agentTitle}` : `${agentTitle} never runs this hook`;
  return `${lead}: ${u.event} hooks are not fired by the agent (${u.version}): ${u.what}`;
}

function answerMessage(agentTitle: string, u: Undeliverable): string {
  const lead = u.blocking ? `THIS GUARD CANNOT STOP IT on ${agentTitle}` : `${agentTitle} cannot apply every answer of this hook`;
  return `${lead}: ${u.event} (${u.version}): ${u.what}`;
}
