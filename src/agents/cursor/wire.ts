/** Cursor's wire format: flat payloads (tool-specific events imply the tool), `permission` answers. */
import { CURSOR_NATIVE_EVENTS as NATIVE, CURSOR_TOOL_TABLE as TOOLS } from './facts.js';
import { asInput, isObject, parseMaybeJson, str } from '../shared/facts.js';
import type { Decision } from '../../reduce/reduce.js';
import { commonFields, failClosedReason, joinContext, joinMessages, out, reasonOf } from '../shared/wire.js';
import type { DispatchInput, WireAdapter } from '../types.js';

function workspaceCwd(raw: Record<string, unknown>): string {
  if (typeof raw.cwd === 'string') return raw.cwd;
  const roots = raw.workspace_roots;
  return Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : process.cwd();
}

function decodePayload(raw: Record<string, unknown>, nativeEvent?: string): DispatchInput | { skip: string; nativeEvent?: string } {
  const name = nativeEvent ?? str(raw.hook_event_name);
  if (!name) return { skip: 'payload has no hook_event_name (pass --event)' };
  const m = NATIVE.get(name);
  if (!m?.event) return { skip: `Cursor event ${JSON.stringify(name)} has no equivalent`, nativeEvent: name };
  const event = m.event;
  const p = commonFields(raw, event, { sessionKeys: ['conversation_id', 'session_id'], cwd: workspaceCwd(raw) });
  switch (name) {
    case 'beforeShellExecution':
    case 'afterShellExecution':
      p.tool_name = 'Bash';
      p.tool_input = { command: str(raw.command) ?? '' };
      if (name === 'afterShellExecution') p.tool_response = { stdout: str(raw.output) ?? '', duration: raw.duration };
      break;
    case 'beforeMCPExecution':
    case 'afterMCPExecution':
      p.tool_name = `mcp__cursor__${str(raw.tool_name) ?? 'unknown'}`;
      p.tool_input = asInput(raw.tool_input);
      if (name === 'afterMCPExecution') p.tool_response = parseMaybeJson(raw.result_json) ?? {};
      break;
    case 'beforeReadFile':
      p.tool_name = 'Read';
      p.tool_input = { file_path: str(raw.file_path) ?? '' };
      break;
    case 'afterFileEdit':
      p.tool_name = 'Edit';
      p.tool_input = { file_path: str(raw.file_path) ?? '', edits: Array.isArray(raw.edits) ? raw.edits : [] };
      p.tool_response = {};
      break;
    case 'preToolUse':
    case 'postToolUse':
    case 'postToolUseFailure': {
      const tool = str(raw.tool_name) ?? '';
      p.tool_name = TOOLS.toCanonical(tool);
      p.tool_input = TOOLS.inputToCanonical(tool, asInput(raw.tool_input));
      if (typeof raw.tool_use_id === 'string') p.tool_use_id = raw.tool_use_id;
      if (name === 'postToolUse') p.tool_response = parseMaybeJson(raw.tool_output) ?? {};
      if (name === 'postToolUseFailure') p.error = str(raw.error_message) ?? '';
      break;
    }
    case 'beforeSubmitPrompt':
      p.prompt = str(raw.prompt) ?? '';
      break;
    case 'stop':
    case 'subagentStop':
      p.stop_hook_active = typeof raw.loop_count === 'number' && raw.loop_count > 0;
      if (name === 'subagentStop') {
        p.agent_id = str(raw.subagent_id) ?? '';
        p.agent_type = str(raw.subagent_type) ?? '';
        p.agent_transcript_path = str(raw.agent_transcript_path) ?? '';
        if (typeof raw.summary === 'string') p.last_assistant_message = raw.summary;
      }
      break;
    case 'subagentStart':
      p.agent_id = str(raw.subagent_id) ?? '';
      p.agent_type = str(raw.subagent_type) ?? '';
      break;
    case 'sessionStart':
      p.source = 'startup';
      break;
    case 'sessionEnd':
      p.reason = str(raw.reason) ?? 'other';
      break;
    case 'preCompact':
      p.trigger = str(raw.trigger) ?? 'auto';
      p.custom_instructions = '';
      break;
    default:
      break;
  }
  return { event, nativeEvent: name, payload: p, raw };
}

const PERMISSION_EVENTS = new Set(['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile']);

function encode(d: Decision, input: DispatchInput) {
  const native = input.nativeEvent;
  const o: Record<string, unknown> = {};
  const notes: string[] = [];
  const context = joinContext(d);
  const deny = (reason: string) => {
    o.permission = 'deny';
    o.user_message = reason;
    o.agent_message = reason;
  };
  if (PERMISSION_EVENTS.has(native)) {
    const canAsk = native !== 'beforeReadFile';
    const canRewrite = native === 'preToolUse';
    if (d.decision === 'deny' || d.decision === 'block') deny(reasonOf(d));
    else if ((d.decision === 'ask' || d.decision === 'defer') && canAsk) {
      o.permission = 'ask';
      if (d.reason) {
        o.user_message = d.reason;
        o.agent_message = d.reason;
      }
    } else if (d.decision === 'ask' || d.decision === 'defer') deny(failClosedReason(d, 'ask', 'Cursor beforeReadFile'));
    else if (d.updatedInput && !canRewrite) deny(failClosedReason(d, 'rewrite', `Cursor ${native}`));
    else if (!d.continue) deny(d.stopReason?.trim() || 'stopped by hook');
    else if (d.decision === 'allow' || d.updatedInput) {
      o.permission = 'allow';
      if (d.updatedInput) o.updated_input = TOOLS.inputToNative(str(input.payload.tool_name) ?? '', d.updatedInput);
    }
    if (context !== undefined) notes.push('Cursor takes no additional context before a tool runs; left out');
  } else if (native === 'beforeSubmitPrompt') {
    if (d.blocked || !d.continue) {
      o.continue = false;
      o.user_message = d.blocked ? reasonOf(d) : d.stopReason?.trim() || 'stopped by hook';
    }
    if (context !== undefined) notes.push('Cursor takes no additional context on beforeSubmitPrompt; left out');
  } else if (native === 'stop' || native === 'subagentStop') {
    if (d.blocked) o.followup_message = reasonOf(d);
  } else if (native === 'sessionStart') {
    if (context !== undefined) o.additional_context = context;
    if (isObject(d.eventOutput.env)) o.env = d.eventOutput.env;
  } else if (native === 'postToolUse') {
    if (context !== undefined) o.additional_context = context;
    if (d.updatedOutput !== undefined && str(input.payload.tool_name)?.startsWith('mcp__')) o.updated_mcp_tool_output = d.updatedOutput;
    if (d.blocked) notes.push('Cursor cannot block after a tool ran; the block was not passed on');
  } else {
    if (d.blocked) notes.push(`Cursor cannot block ${native}; the block was not passed on`);
    if (context !== undefined) notes.push(`Cursor takes no additional context on ${native}; left out`);
  }
  const message = joinMessages(d);
  if (message !== undefined && o.user_message === undefined && (native === 'preCompact' || PERMISSION_EVENTS.has(native)))
    o.user_message = message;
  return out(o, 0, notes.map((n) => `agent-hooks: ${n}`).join('\n'));
}

/** What Cursor reads from a hook's output, in the Claude convention. */
export const cursorWire: WireAdapter = {
  name: 'cursor',
  decodePayload,
  encodeDecision: encode,
  noop: () => out({}),
};
