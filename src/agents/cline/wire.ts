/**
 * Cline's wire format: its payload (`hookName`, `tool_call`/`tool_result`, `workspaceRoots`) in,
 * stdout JSON out, exit 0 always (Cline never reads the exit code). Its only stop is `cancel`,
 * which ends the whole task, not just the call: every deny, ask, block and a replaced output
 * (which Cline cannot apply) is a cancel whose reason says so.
 */
import type { EventName } from '../../events/catalog.js';
import type { Decision } from '../../reduce/reduce.js';
import { asInput, isObject, str } from '../shared/facts.js';
import { commonFields, failClosedReason, joinContext, out, reasonOf } from '../shared/wire.js';
import type { DispatchInput, DispatchOutput, WireAdapter } from '../types.js';
import { CLINE_TOOL_TABLE as TOOLS, clineEvent } from './facts.js';

const ENDS_TASK = 'Cline can only cancel: the whole task was ended, not just this call';

/** A Cline tool call in canonical terms: run_commands is Bash (one command per line), editor an Edit or, creating, a Write. */
function canonicalCall(name: string, input: Record<string, unknown>): { tool: string; input: Record<string, unknown> } {
  if (name === 'run_commands') {
    const list = Array.isArray(input.commands) ? input.commands.map(String) : typeof input.commands === 'string' ? [input.commands] : [];
    return { tool: 'Bash', input: { command: list.join('\n') } };
  }
  if (name === 'editor' && input.old_text == null && input.insert_line == null)
    return { tool: 'Write', input: { file_path: input.path, content: input.new_text } };
  const tool = TOOLS.toCanonical(name);
  return { tool, input: TOOLS.inputToCanonical(name, input) as Record<string, unknown> };
}

/** A rewritten canonical input as the Cline tool reads it. */
function nativeInput(tool: string, input: Record<string, unknown>): unknown {
  if (tool === 'Bash') return { commands: [String(input.command ?? '')] };
  return TOOLS.inputToNative(tool, input);
}

function decodePayload(raw: Record<string, unknown>, nativeEvent?: string): DispatchInput | { skip: string; nativeEvent?: string } {
  const name = nativeEvent ?? str(raw.hookName) ?? str(raw.hook_event_name);
  if (!name) return { skip: 'payload has no hookName (pass --event)' };
  const m = clineEvent(name);
  if (!m?.event)
    return { skip: `Cline event ${JSON.stringify(name)} has no equivalent${m?.note ? ` (${m.note})` : ''}`, nativeEvent: name };
  const event: EventName = m.event;
  const roots = raw.workspaceRoots;
  const root =
    Array.isArray(roots) && typeof roots[0] === 'string'
      ? roots[0]
      : isObject(raw.workspaceInfo)
        ? str(raw.workspaceInfo.rootPath)
        : undefined;
  const p: Record<string, unknown> = { ...raw, ...commonFields(raw, event, { sessionKeys: ['taskId', 'session_id'], cwd: root }) };
  const call = isObject(raw.tool_call) ? raw.tool_call : isObject(raw.tool_result) ? raw.tool_result : undefined;
  if (call && typeof call.name === 'string') {
    const c = canonicalCall(call.name, asInput(call.input));
    p.tool_name = c.tool;
    p.tool_input = c.input;
    if (call.id !== undefined) p.tool_use_id = call.id;
    if (event === 'PostToolUse') p.tool_response = call.error ?? call.output;
  }
  if (event === 'UserPromptSubmit') p.prompt = isObject(raw.userPromptSubmit) ? (str(raw.userPromptSubmit.prompt) ?? '') : '';
  if (event === 'SessionStart') p.source = m.native === 'TaskResume' ? 'resume' : 'startup';
  if (event === 'Stop') p.stop_hook_active = false;
  return { event, nativeEvent: m.native, payload: p, raw };
}

const cancel = (reason: string): DispatchOutput => out({ cancel: true, errorMessage: `${reason} (${ENDS_TASK})` });

function encodeCline(d: Decision, input: DispatchInput): DispatchOutput {
  const context = joinContext(d);
  if (d.event === 'PreToolUse') {
    if (d.decision === 'ask' || d.decision === 'defer') return cancel(failClosedReason(d, 'ask', 'Cline'));
    if (d.blocked || d.decision === 'deny' || d.decision === 'block' || !d.continue)
      return cancel(reasonOf(d, d.stopReason ?? 'blocked by hook'));
  } else if (d.updatedOutput !== undefined) {
    const replacement = typeof d.updatedOutput === 'string' ? d.updatedOutput : JSON.stringify(d.updatedOutput);
    return cancel(
      `a hook replaced this tool output, which Cline cannot apply, so the original does not reach the model. Replacement: ${replacement}`,
    );
  } else if (d.blocked || d.decision === 'block' || !d.continue) {
    return cancel(reasonOf(d, d.stopReason ?? 'blocked by hook'));
  }
  const o: Record<string, unknown> = {};
  if (d.event === 'PreToolUse' && d.updatedInput) o.overrideInput = nativeInput(str(input.payload.tool_name) ?? '', d.updatedInput);
  if (context !== undefined) o.context = context;
  return out(Object.keys(o).length ? o : undefined);
}

export const clineWire: WireAdapter = {
  name: 'cline',
  decodePayload,
  encodeDecision: encodeCline,
  noop: () => out(undefined),
};
