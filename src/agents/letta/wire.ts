/**
 * Letta Code's wire format: its payload (`event_type`, `working_directory`, `tool_result`) in, and
 * an answer Letta Code 0.25.9 reads: it reads a PreToolUse hook only by its exit code, so every
 * stop is exit 2 with the reason on stderr (a JSON deny would run the call). What it cannot
 * express fails closed: a rewrite and an ask are denied with the reason; an output replacement
 * ends the agent before the original reaches the model (src/dispatch/end-agent.ts).
 */
import type { EventName } from '../../events/catalog.js';
import type { Decision } from '../../reduce/reduce.js';
import { asInput, isObject, str } from '../shared/facts.js';
import { commonFields, endReason, failClosedReason, joinContext, out, reasonOf, withUndeliverableNotes } from '../shared/wire.js';
import type { DispatchInput, DispatchOutput, WireAdapter } from '../types.js';
import { LETTA_NATIVE_EVENTS, LETTA_PROCESS, LETTA_TOOL_TABLE, LETTA_UNDELIVERABLE } from './facts.js';

const TITLE = 'Letta Code';

function decodePayload(raw: Record<string, unknown>, nativeEvent?: string): DispatchInput | { skip: string; nativeEvent?: string } {
  const name = nativeEvent ?? str(raw.event_type) ?? str(raw.hook_event_name);
  if (!name) return { skip: 'payload has no event_type (pass --event)' };
  if (!LETTA_NATIVE_EVENTS.has(name)) return { skip: `Letta Code event ${JSON.stringify(name)} has no equivalent`, nativeEvent: name };
  const event = name as EventName;
  const p: Record<string, unknown> = {
    ...raw,
    ...commonFields(raw, event, {
      sessionKeys: ['conversation_id', 'agent_id', 'session_id'],
      cwd: str(raw.working_directory) ?? str(raw.cwd),
    }),
  };
  if (typeof raw.tool_name === 'string') {
    p.tool_name = LETTA_TOOL_TABLE.toCanonical(raw.tool_name);
    p.tool_input = LETTA_TOOL_TABLE.inputToCanonical(raw.tool_name, asInput(raw.tool_input));
  }
  if (raw.tool_call_id !== undefined) p.tool_use_id = raw.tool_call_id;
  if (isObject(raw.tool_result)) p.tool_response = raw.tool_result.output;
  if (event === 'PostToolUseFailure') p.error = str(raw.error_message) ?? '';
  if (event === 'SessionStart') p.source = raw.is_new_session === false ? 'resume' : 'startup';
  if (event === 'Stop' || event === 'SubagentStop') p.stop_hook_active ??= false;
  return { event, nativeEvent: name, payload: p, raw };
}

const exit2 = (reason: string, notes: string[] = []): DispatchOutput =>
  out(undefined, 2, [...notes.map((n) => `agent-hooks: ${n}`), reason].join('\n'));

function encodeLetta(d: Decision, input: DispatchInput): DispatchOutput {
  const context = joinContext(d);
  switch (d.event) {
    case 'PreToolUse':
      if (d.decision === 'ask' || d.decision === 'defer') return exit2(failClosedReason(d, 'ask', TITLE));
      if (d.blocked || d.decision === 'deny' || d.decision === 'block' || !d.continue)
        return exit2(reasonOf(d, d.stopReason ?? 'blocked by hook'));
      // Letta Code runs the call as the model wrote it: a rewrite it cannot apply is denied.
      if (d.updatedInput) return exit2(failClosedReason(d, 'rewrite', TITLE));
      return out(undefined);
    case 'PermissionRequest':
      if (d.decision === 'deny' || d.blocked) return exit2(reasonOf(d, 'denied by hook'));
      // Exit 0 approves in Letta Code; without an allow, an error exit leaves the question to it.
      return d.decision === 'allow'
        ? out(undefined)
        : out(undefined, 1, 'agent-hooks: no hook decided this permission; left to Letta Code');
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      if (d.updatedOutput !== undefined) {
        // No answer of a PostToolUse hook takes the output back: say so next to it.
        // Nor withhold it: it reaches the model on the next request, so dispatch ends the agent first.
        const replacement = typeof d.updatedOutput === 'string' ? d.updatedOutput : JSON.stringify(d.updatedOutput);
        return {
          ...exit2(`a hook replaced this tool output, which ${TITLE} cannot apply; use this output instead: ${replacement}`),
          endAgent: { reason: endReason(TITLE, input), agent: LETTA_PROCESS },
        };
      }
      if (d.blocked || d.decision === 'block') return exit2(reasonOf(d));
      return context === undefined ? out(undefined) : out({ hookSpecificOutput: { hookEventName: d.event, additionalContext: context } });
    }
    case 'UserPromptSubmit':
    case 'Stop':
    case 'SubagentStop':
      if (d.blocked || d.decision === 'block' || (d.event === 'UserPromptSubmit' && !d.continue))
        return exit2(reasonOf(d, d.stopReason ?? 'blocked by hook'));
      return d.event === 'UserPromptSubmit' && context !== undefined ? out(`${context}\n`) : out(undefined);
    case 'SessionStart':
      // Letta Code adds a SessionStart hook's plain stdout to the context.
      return context === undefined ? out(undefined) : out(`${context}\n`);
    default:
      return out(undefined);
  }
}

export const lettaWire: WireAdapter = {
  name: 'letta',
  decodePayload,
  encodeDecision: (d, input) => withUndeliverableNotes(LETTA_UNDELIVERABLE, d, encodeLetta(d, input)),
  noop: (nativeEvent) =>
    // An exit 0 approves a permission request in Letta Code: no hook, no approval.
    nativeEvent === 'PermissionRequest'
      ? out(undefined, 1, 'agent-hooks: no hook decided this permission; left to Letta Code')
      : out(undefined),
};
