/** Gemini CLI's wire format: its payloads decoded, decisions answered as top-level `decision` JSON. */
import { G, GEMINI_UNDELIVERABLE, type GeminiLike } from './facts.js';
import { asInput, str } from '../shared/facts.js';
import type { Decision } from '../../reduce/reduce.js';
import { commonFields, failClosedReason, joinContext, joinMessages, out, reasonOf, withUndeliverableNotes } from '../shared/wire.js';
import type { DispatchInput, WireAdapter } from '../types.js';

/** Gemini's payload → canonical. */
function decodePayload(raw: Record<string, unknown>, nativeEvent?: string): DispatchInput | { skip: string; nativeEvent?: string } {
  const name = nativeEvent ?? str(raw.hook_event_name);
  if (!name) return { skip: 'payload has no hook_event_name (pass --event)' };
  const m = G.events.find((e) => e.native === name);
  if (!m?.event) return { skip: `Gemini CLI event ${JSON.stringify(name)} has no equivalent`, nativeEvent: name };
  const event = m.event;
  const p = commonFields(raw, event);
  switch (event) {
    case 'PreToolUse':
    case 'PostToolUse': {
      const native = str(raw.tool_name) ?? '';
      p.tool_name = G.tools.toCanonical(native);
      p.tool_input = G.tools.inputToCanonical(native, asInput(raw.tool_input));
      if (raw.mcp_context !== undefined) p.mcp_context = raw.mcp_context;
      if (event === 'PostToolUse') p.tool_response = raw.tool_response ?? {};
      break;
    }
    case 'UserPromptSubmit':
      p.prompt = str(raw.prompt) ?? '';
      break;
    case 'Stop':
      p.stop_hook_active = raw.stop_hook_active === true;
      if (typeof raw.prompt_response === 'string') p.last_assistant_message = raw.prompt_response;
      if (typeof raw.prompt === 'string') p.prompt = raw.prompt;
      break;
    case 'SessionStart':
      p.source = str(raw.source) ?? 'startup';
      break;
    case 'SessionEnd':
      p.reason = str(raw.reason) ?? 'other';
      break;
    case 'PreCompact':
      p.trigger = str(raw.trigger) ?? 'auto';
      p.custom_instructions = '';
      break;
    case 'Notification':
      p.notification_type = str(raw.notification_type) ?? '';
      p.message = str(raw.message) ?? '';
      if (raw.details !== undefined) p.details = raw.details;
      break;
    default:
      break;
  }
  return { event, nativeEvent: name, payload: p, raw };
}

/** The engine's decision → Gemini's output (exit 0, JSON on stdout). */
export function encodeGeminiLike(
  d: Decision,
  tools: GeminiLike['tools'],
  toolName: string | undefined,
  agent: string,
  hookEventName: string,
) {
  const o: Record<string, unknown> = {};
  const hso: Record<string, unknown> = { hookEventName };
  const notes: string[] = [];
  const context = joinContext(d);
  switch (d.event) {
    case 'PreToolUse':
      if (d.decision === 'deny' || d.decision === 'block') {
        o.decision = 'deny';
        o.reason = reasonOf(d);
      } else if (d.decision === 'ask') {
        // BeforeTool `decision: "ask"` (Gemini CLI since March 2026) asks the user itself.
        o.decision = 'ask';
        if (d.reason !== undefined) o.reason = d.reason;
      } else if (d.decision === 'defer') {
        o.decision = 'deny';
        o.reason = failClosedReason(d, 'ask', agent);
      } else {
        if (d.decision === 'allow') o.decision = 'allow';
        if (d.decision === 'allow' && d.reason !== undefined) o.reason = d.reason;
        if (d.updatedInput) hso.tool_input = tools.inputToNative(toolName ?? '', d.updatedInput);
      }
      if (context !== undefined) notes.push(`${agent} takes no additionalContext before a tool runs; left out`);
      break;
    case 'PostToolUse':
      // AfterTool `decision: "deny"` replaces the tool's result with the reason: the one way to
      // replace output (there is no output field), and the feedback channel of a block.
      if (d.updatedOutput !== undefined) {
        const replacement = typeof d.updatedOutput === 'string' ? d.updatedOutput : JSON.stringify(d.updatedOutput);
        o.decision = 'deny';
        o.reason = d.blocked ? `${replacement}\n\n${reasonOf(d)}` : replacement;
      } else if (d.blocked) {
        o.decision = 'deny';
        o.reason = reasonOf(d);
      }
      if (context !== undefined) hso.additionalContext = context;
      break;
    case 'UserPromptSubmit':
    case 'Stop':
      if (d.blocked) {
        o.decision = 'deny';
        o.reason = reasonOf(d);
      }
      if (context !== undefined && d.event === 'UserPromptSubmit') hso.additionalContext = context;
      else if (context !== undefined) notes.push(`${agent} takes no additionalContext after the agent answers; left out`);
      break;
    case 'SessionStart':
      if (context !== undefined) hso.additionalContext = context;
      break;
    default:
      if (d.blocked) notes.push(`${agent} cannot block ${hookEventName}; the block was not passed on`);
      if (context !== undefined) notes.push(`${agent} takes no additionalContext on ${hookEventName}; left out`);
  }
  if (!d.continue) {
    o.continue = false;
    if (d.stopReason !== undefined) o.stopReason = d.stopReason;
  }
  const message = joinMessages(d);
  if (message !== undefined) o.systemMessage = message;
  if (Object.keys(hso).length > 1) o.hookSpecificOutput = hso;
  return out(Object.keys(o).length ? o : undefined, 0, notes.map((n) => `agent-hooks: ${n}`).join('\n'));
}

export const geminiWire: WireAdapter = {
  name: 'gemini',
  decodePayload,
  encodeDecision: (d, input) =>
    withUndeliverableNotes(
      GEMINI_UNDELIVERABLE,
      d,
      encodeGeminiLike(d, G.tools, str(input.payload.tool_name), 'Gemini CLI', input.nativeEvent),
    ),
  noop: () => out(undefined),
  stderrReadAsOutput: true,
};
