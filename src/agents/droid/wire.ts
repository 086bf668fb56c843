/** Factory Droid's wire format: Claude's, with Droid's tool names; what Droid ignores fails closed. */
import type { EventName } from '../../events/catalog.js';
import { DROID_NATIVE_EVENTS, DROID_TOOL_TABLE, DROID_UNDELIVERABLE } from './facts.js';
import { str } from '../shared/facts.js';
import type { Decision } from '../../reduce/reduce.js';
import { claudeOutput, failClosedReason, out, reasonOf, withUndeliverableNotes } from '../shared/wire.js';
import type { DispatchOutput, WireAdapter } from '../types.js';

/**
 * Claude's convention, except where Droid 0.225 (`droid exec`, test/agents) does not do what
 * Claude does: an `ask` runs the call unasked, and `updatedToolOutput` is ignored, so the
 * original output reaches the model. Both fail closed: ask → deny with the reason; a
 * replacement → the output withheld with `continue: false`, which Droid does honour there.
 */
function encodeDroid(d: Decision, toolName: string | undefined): DispatchOutput {
  const notes: string[] = [];
  let e = d;
  if (d.event === 'PreToolUse' && (d.decision === 'ask' || d.decision === 'defer')) {
    e = { ...d, decision: 'deny', blocked: true, reason: failClosedReason(d, 'ask', 'Factory Droid') };
    notes.push('Factory Droid runs the call when a hook asks; denied instead');
  } else if (d.event === 'PostToolUse' && d.updatedOutput !== undefined && !toolName?.startsWith('mcp__')) {
    const replacement = typeof d.updatedOutput === 'string' ? d.updatedOutput : JSON.stringify(d.updatedOutput);
    const withheld = `${d.blocked ? `${reasonOf(d)}\n\n` : ''}the tool output was withheld: a hook replaced it, which Factory Droid cannot apply. Replacement: ${replacement}`;
    e = { ...d, updatedOutput: undefined, continue: false, stopReason: withheld, blocked: true, decision: 'block', reason: withheld };
    notes.push('Factory Droid ignores updatedToolOutput; the output was withheld (continue: false) instead');
  }
  return out(claudeOutput(e, { toolName }), 0, notes.map((n) => `agent-hooks: ${n}`).join('\n'));
}

export const droidWire: WireAdapter = {
  name: 'droid',
  decodePayload(raw, nativeEvent) {
    const name = nativeEvent ?? str(raw.hook_event_name);
    if (!name) return { skip: 'payload has no hook_event_name (pass --event)' };
    if (!DROID_NATIVE_EVENTS.has(name)) return { skip: `Factory Droid event ${JSON.stringify(name)} has no equivalent`, nativeEvent: name };
    const payload: Record<string, unknown> = { ...raw, hook_event_name: name };
    if (typeof raw.tool_name === 'string') payload.tool_name = DROID_TOOL_TABLE.toCanonical(raw.tool_name);
    return { event: name as EventName, nativeEvent: name, payload, raw };
  },
  encodeDecision: (d, input) => withUndeliverableNotes(DROID_UNDELIVERABLE, d, encodeDroid(d, str(input.payload.tool_name))),
  noop: () => out(undefined),
};
