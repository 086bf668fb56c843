/** Kimi Code's wire format: Claude-like payloads (prompt as text or parts), blocking by exit 2. */
import type { EventName } from '../../events/catalog.js';
import { KIMI_BLOCKING_EVENTS, KIMI_EVENTS, unwrapHookResult } from './facts.js';
import { isObject, str } from '../shared/facts.js';
import type { Decision } from '../../reduce/reduce.js';
import { failClosedReason, joinContext, out, reasonOf } from '../shared/wire.js';
import type { DispatchOutput, WireAdapter } from '../types.js';

const KNOWN = new Set<string>(KIMI_EVENTS);

/** Kimi sends a prompt as text or as content parts; the matcher sees the parts joined. */
function promptText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : typeof p === 'string' ? p : '')).join('');
  return '';
}

function decodePayload(raw: Record<string, unknown>, nativeEvent?: string) {
  const name = nativeEvent ?? str(raw.hook_event_name);
  if (!name) return { skip: 'payload has no hook_event_name (pass --event)' };
  if (!KNOWN.has(name)) return { skip: `Kimi event ${JSON.stringify(name)} is unknown`, nativeEvent: name };
  const event = name as EventName;
  const p: Record<string, unknown> = { ...raw, hook_event_name: event, transcript_path: str(raw.transcript_path) ?? '' };
  if (raw.tool_call_id !== undefined && p.tool_use_id === undefined) p.tool_use_id = raw.tool_call_id;
  if (raw.tool_output !== undefined && p.tool_response === undefined) p.tool_response = raw.tool_output;
  if (raw.prompt !== undefined) p.prompt = promptText(raw.prompt);
  switch (event) {
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure':
    case 'PermissionRequest':
    case 'PermissionResult':
      p.tool_input = isObject(raw.tool_input) ? raw.tool_input : {};
      if (event === 'PostToolUse') p.tool_response ??= {};
      if (event === 'PostToolUseFailure') p.error = str(raw.error) ?? '';
      break;
    case 'Stop':
      p.stop_hook_active = raw.stop_hook_active === true;
      break;
    case 'StopFailure':
      p.error = str(raw.error_type) ?? str(raw.error) ?? 'unknown';
      if (typeof raw.error_message === 'string') p.error_details = raw.error_message;
      break;
    case 'SubagentStart':
    case 'SubagentStop':
      p.agent_type = str(raw.agent_name) ?? str(raw.agent_type) ?? '';
      p.agent_id = str(raw.agent_id) ?? '';
      if (event === 'SubagentStop') {
        p.stop_hook_active = raw.stop_hook_active === true;
        p.agent_transcript_path = str(raw.agent_transcript_path) ?? '';
        if (typeof raw.response === 'string') p.last_assistant_message = raw.response;
      }
      break;
    case 'PreCompact':
      p.trigger = str(raw.trigger) ?? 'auto';
      p.custom_instructions = str(raw.custom_instructions) ?? '';
      break;
    case 'PostCompact':
      p.trigger = str(raw.trigger) ?? 'auto';
      p.compact_summary = str(raw.compact_summary) ?? '';
      break;
    case 'Notification':
      p.notification_type = str(raw.notification_type) ?? '';
      p.message = str(raw.message) ?? str(raw.body) ?? '';
      break;
    case 'SessionStart':
      p.source = str(raw.source) ?? 'startup';
      break;
    case 'SessionEnd':
      p.reason = str(raw.reason) ?? 'other';
      break;
    default:
      break;
  }
  return { event, nativeEvent: name, payload: p, raw };
}

function encode(d: Decision): DispatchOutput {
  const context = joinContext(d);
  if (KIMI_BLOCKING_EVENTS.has(d.event)) {
    let block: string | undefined;
    if (d.blocked || d.decision === 'deny' || d.decision === 'block') block = reasonOf(d);
    else if (d.decision === 'ask' || d.decision === 'defer') block = failClosedReason(d, 'ask', 'Kimi');
    else if (d.updatedInput) block = failClosedReason(d, 'rewrite', 'Kimi');
    else if (!d.continue) block = d.stopReason?.trim() || 'stopped by hook';
    // Exit 2 with the reason on stderr: the blocking convention every Kimi version reads.
    if (block !== undefined) return out(undefined, 2, block);
  }
  if (context !== undefined && d.event === 'UserPromptSubmit') return out(`${d.additionalContext.map(unwrapHookResult).join('\n\n')}\n`);
  if (context !== undefined && d.event === 'SessionStart') return out(`${context}\n`);
  const notes: string[] = [];
  if (context !== undefined) notes.push(`Kimi takes no additional context on ${d.event}; left out`);
  if (d.blocked && !KIMI_BLOCKING_EVENTS.has(d.event)) notes.push(`Kimi cannot block ${d.event}; the block was not passed on`);
  return out(undefined, 0, notes.map((n) => `agent-hooks: ${n}`).join('\n'));
}

export const kimiWire: WireAdapter = {
  name: 'kimi',
  decodePayload,
  encodeDecision: (d) => encode(d),
  noop: () => out(undefined),
};
