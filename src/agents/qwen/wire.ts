/** Qwen Code's wire format: Claude's conventions with Gemini-style tool ids; what Qwen ignores fails closed. */
import type { EventName } from '../../events/catalog.js';
import { QWEN_MODE_TO_CANONICAL, QWEN_NATIVE_EVENTS, QWEN_TOOL_TABLE, QWEN_UNDELIVERABLE } from './facts.js';
import { asInput, str } from '../shared/facts.js';
import type { Decision } from '../../reduce/reduce.js';
import { claudeOutput, failClosedReason, out, reasonOf, withUndeliverableNotes } from '../shared/wire.js';
import type { DispatchInput, DispatchOutput, WireAdapter } from '../types.js';

export const qwenWire: WireAdapter = {
  name: 'qwen',
  decodePayload(raw, nativeEvent) {
    const name = nativeEvent ?? str(raw.hook_event_name);
    if (!name) return { skip: 'payload has no hook_event_name (pass --event)' };
    const m = QWEN_NATIVE_EVENTS.get(name);
    if (!m?.event) return { skip: `Qwen Code event ${JSON.stringify(name)} has no equivalent`, nativeEvent: name };
    const payload: Record<string, unknown> = { ...raw, hook_event_name: m.event };
    if (typeof raw.tool_name === 'string') {
      payload.tool_name = QWEN_TOOL_TABLE.toCanonical(raw.tool_name);
      payload.tool_input = QWEN_TOOL_TABLE.inputToCanonical(raw.tool_name, asInput(raw.tool_input));
    }
    if (typeof raw.permission_mode === 'string')
      payload.permission_mode = QWEN_MODE_TO_CANONICAL[raw.permission_mode] ?? raw.permission_mode;
    payload.transcript_path ??= '';
    return { event: m.event as EventName, nativeEvent: name, payload, raw };
  },
  encodeDecision: (d, input) => withUndeliverableNotes(QWEN_UNDELIVERABLE, d, encodeQwen(d, input)),
  noop: () => out(undefined),
  stderrReadAsOutput: true,
};

/**
 * The decision in Claude's convention, minus what Qwen would not honour: a rewrite and an output
 * replacement fail closed (deny / withhold with a reason), and Stop's `continue:false` (which
 * Qwen reads as "keep going") is left out: the agent is stopping already.
 */
export function encodeQwen(d: Decision, input: DispatchInput): DispatchOutput {
  const tool = str(input.payload.tool_name) ?? '';
  const notes: string[] = [];
  let e: Decision = d;
  if (d.event === 'PreToolUse' && d.updatedInput && d.decision !== 'deny' && d.decision !== 'block') {
    e = { ...d, decision: 'deny', blocked: true, reason: failClosedReason(d, 'rewrite', 'Qwen Code'), updatedInput: undefined };
    notes.push('Qwen Code ignores updatedInput; the call was denied instead of running unchanged');
  } else if ((d.event === 'PostToolUse' || d.event === 'PostToolUseFailure') && d.updatedOutput !== undefined) {
    const replacement = typeof d.updatedOutput === 'string' ? d.updatedOutput : JSON.stringify(d.updatedOutput);
    const why = d.blocked ? `${reasonOf(d)}\n\n` : '';
    const withheld = `${why}the tool output was withheld: a hook replaced it, which Qwen Code cannot apply. Replacement: ${replacement}`;
    // A block alone still hands Qwen's model the original output next to the reason (Qwen Code
    // 0.24.4, test/agents); continue:false puts the stop reason in the output's place.
    e = { ...d, updatedOutput: undefined, blocked: true, reason: withheld, continue: false, stopReason: withheld };
    notes.push('Qwen Code cannot replace tool output; the output was withheld (decision: block, continue: false) instead');
  } else if ((d.event === 'Stop' || d.event === 'SubagentStop') && !d.continue) {
    // continue:false wins over a block in the engine: the agent stops, which on Stop is saying nothing.
    e = { ...d, continue: true, stopReason: undefined, blocked: false, decision: undefined, reason: undefined };
    notes.push(`Qwen Code reads continue:false on ${d.event} as "keep going"; left out, so the agent stops`);
  }
  const json = claudeOutput(e, { toolName: tool, mapInput: (i) => QWEN_TOOL_TABLE.inputToNative(tool, i) });
  return out(json, 0, notes.map((n) => `agent-hooks: ${n}`).join('\n'));
}
