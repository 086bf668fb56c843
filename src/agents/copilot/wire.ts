/** Copilot CLI's wire format: camelCase or snake_case payloads by event name, flat JSON answers. */
import { COPILOT_NATIVE_EVENTS as NATIVE, COPILOT_TOOL_TABLE as TOOLS } from './facts.js';
import { asInput, camelToSnake, mapKeys, str } from '../shared/facts.js';
import type { Decision } from '../../reduce/reduce.js';
import { failClosedReason, joinContext, out, reasonOf } from '../shared/wire.js';
import type { DispatchInput, WireAdapter } from '../types.js';

function decodePayload(raw: Record<string, unknown>, nativeEvent?: string): DispatchInput | { skip: string; nativeEvent?: string } {
  // camelCase payloads carry no event name: the dispatch line names it (--event).
  const name = nativeEvent ?? str(raw.hook_event_name) ?? str(raw.hookEventName);
  if (!name) return { skip: 'Copilot CLI payloads carry no event name; pass --event <name> in the hook command' };
  const m = NATIVE.get(name);
  if (!m?.event) return { skip: `Copilot CLI event ${JSON.stringify(name)} has no equivalent`, nativeEvent: name };
  const event = m.event;
  const s = mapKeys(raw, camelToSnake); // one shape for both payload formats
  const p: Record<string, unknown> = {
    session_id: str(s.session_id) ?? 'unknown',
    transcript_path: str(s.transcript_path) ?? '',
    cwd: str(s.cwd) ?? process.cwd(),
    hook_event_name: event,
  };
  const tool = str(s.tool_name);
  if (tool !== undefined) {
    p.tool_name = TOOLS.toCanonical(tool);
    p.tool_input = TOOLS.inputToCanonical(tool, asInput(s.tool_args ?? s.tool_input));
  }
  switch (event) {
    case 'PostToolUse':
      p.tool_response = s.tool_result ?? {};
      break;
    case 'PostToolUseFailure':
      p.error = typeof s.error === 'string' ? s.error : JSON.stringify(s.error ?? '');
      break;
    case 'Stop':
    case 'SubagentStop':
      p.stop_hook_active = false;
      if (event === 'SubagentStop') {
        p.agent_id = '';
        p.agent_type = str(s.agent_name) ?? '';
        p.agent_transcript_path = '';
      }
      break;
    case 'SubagentStart':
      p.agent_id = '';
      p.agent_type = str(s.agent_name) ?? '';
      break;
    case 'UserPromptSubmit':
      p.prompt = str(s.prompt) ?? '';
      break;
    case 'SessionStart':
      p.source = str(s.source) ?? 'startup';
      break;
    case 'SessionEnd':
      p.reason = str(s.reason) ?? 'other';
      break;
    case 'PreCompact':
      p.trigger = str(s.trigger) ?? 'auto';
      p.custom_instructions = str(s.custom_instructions) ?? '';
      break;
    case 'Notification':
      p.notification_type = str(s.notification_type) ?? '';
      p.message = str(s.message) ?? '';
      if (typeof s.title === 'string') p.title = s.title;
      break;
    default:
      break;
  }
  return { event, nativeEvent: name, payload: p, raw };
}

/** The answer object being built, and notes for stderr about what Copilot CLI will not read. */
interface Answer {
  o: Record<string, unknown>;
  notes: string[];
  context: string | undefined;
}

function encode(d: Decision, input: DispatchInput) {
  const a: Answer = { o: {}, notes: [], context: joinContext(d) };
  const { o, notes, context } = a;
  switch (d.event) {
    case 'PreToolUse':
      encodePreToolUse(a, d, input);
      break;
    case 'PostToolUse':
      encodePostToolUse(a, d);
      break;
    case 'Stop':
    case 'SubagentStop':
      if (d.blocked) {
        o.decision = 'block';
        o.reason = reasonOf(d);
      }
      break;
    case 'PermissionRequest':
      encodePermissionRequest(a, d);
      break;
    case 'Notification':
    case 'SubagentStart':
      if (context !== undefined) o.additionalContext = context;
      break;
    case 'UserPromptSubmit':
    case 'SessionStart':
      encodePromptOrSessionStart(a, d, input);
      break;
    case 'PostToolUseFailure':
      // Exit 2 hands stderr to the model as recovery guidance.
      if (context !== undefined) return out(undefined, 2, context);
      break;
    default:
      noteUnread(a, d, input);
  }
  return out(Object.keys(o).length ? o : undefined, 0, notes.map((n) => `agent-hooks: ${n}`).join('\n'));
}

/** An event whose output Copilot CLI does not read: say what was not passed on. */
function noteUnread(a: Answer, d: Decision, input: DispatchInput): void {
  if (d.blocked) a.notes.push(`Copilot CLI does not read ${input.nativeEvent} output; the block was not passed on`);
  if (a.context !== undefined) a.notes.push(`Copilot CLI does not read ${input.nativeEvent} output; the context was not passed on`);
}

/** deny (a block or continue:false) > ask (defer too) > allow (or a rewrite, as modifiedArgs). */
function encodePreToolUse(a: Answer, d: Decision, input: DispatchInput): void {
  const { o } = a;
  const deny = (reason: string) => {
    o.permissionDecision = 'deny';
    o.permissionDecisionReason = reason;
  };
  if (d.decision === 'deny' || d.decision === 'block') deny(reasonOf(d));
  else if (!d.continue) deny(d.stopReason?.trim() || 'stopped by hook');
  else if (d.decision === 'ask' || d.decision === 'defer') {
    o.permissionDecision = 'ask';
    if (d.reason !== undefined) o.permissionDecisionReason = d.reason;
  } else if (d.decision === 'allow' || d.updatedInput) {
    o.permissionDecision = 'allow';
    if (d.reason !== undefined) o.permissionDecisionReason = d.reason;
    if (d.updatedInput) o.modifiedArgs = TOOLS.inputToNative(str(input.payload.tool_name) ?? '', d.updatedInput);
  }
  if (a.context !== undefined) o.additionalContext = a.context;
}

function encodePostToolUse(a: Answer, d: Decision): void {
  const { o } = a;
  // Copilot CLI 1.0 reads additionalContext and modifiedResult (the result the model sees).
  const feedback = [d.blocked ? reasonOf(d) : undefined, a.context].filter((x): x is string => x !== undefined);
  if (feedback.length) o.additionalContext = feedback.join('\n\n');
  if (d.updatedOutput !== undefined)
    o.modifiedResult = {
      resultType: 'success',
      textResultForLlm: typeof d.updatedOutput === 'string' ? d.updatedOutput : JSON.stringify(d.updatedOutput),
    };
}

function encodePermissionRequest(a: Answer, d: Decision): void {
  const { o } = a;
  // Copilot CLI has no way to apply a rewritten input here: fail closed rather than allow the original.
  if (d.decision === 'allow' && d.updatedInput) {
    o.behavior = 'deny';
    o.message = failClosedReason(d, 'rewrite', 'Copilot CLI');
  } else if (d.decision === 'allow') o.behavior = 'allow';
  else if (d.decision === 'deny') {
    o.behavior = 'deny';
    o.message = reasonOf(d, 'denied by hook');
    if (d.eventOutput.interrupt === true || !d.continue) o.interrupt = true;
  }
}

function encodePromptOrSessionStart(a: Answer, d: Decision, input: DispatchInput): void {
  const { o } = a;
  // Copilot CLI 1.0.102 refuses a prompt on decision:"block" and adds additionalContext on both
  // (test/agents); the VS Code-format PascalCase events are not verified, so they keep the note.
  if (input.nativeEvent !== 'userPromptSubmitted' && input.nativeEvent !== 'sessionStart') {
    noteUnread(a, d, input);
    return;
  }
  if (d.event === 'UserPromptSubmit' && (d.blocked || !d.continue)) {
    o.decision = 'block';
    o.reason = d.blocked ? reasonOf(d) : d.stopReason?.trim() || 'stopped by hook';
  } else if (d.blocked || !d.continue) a.notes.push('Copilot CLI cannot refuse a session at sessionStart; the block was not passed on');
  if (a.context !== undefined) o.additionalContext = a.context;
}

export const copilotWire: WireAdapter = {
  name: 'copilot',
  decodePayload,
  encodeDecision: encode,
  noop: () => out(undefined),
};
