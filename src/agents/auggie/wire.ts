/**
 * Auggie's wire format: Claude's convention with its own payload (`conversation_id`,
 * `workspace_roots`, `tool_output`, `PromptSubmit`) and tool names, `decision`/`reason` also
 * inside hookSpecificOutput where Auggie reads them (PostToolUse, Stop). What Auggie 0.36.0 does
 * not do: an ask runs the call in `--print` (denied instead); a replaced output cannot be applied,
 * nor the original withheld (runPostToolUseHook only appends `[Hook Context]` to it, and ignores
 * `continue: false`), so dispatch ends the agent before the original reaches the model
 * (src/dispatch/end-agent.ts); the answer below is only what it reads if it cannot be ended.
 * A blocked prompt ends the agent too: Auggie has sent it already (PromptSubmit is not awaited),
 * so that only stops the agent acting on it (the matrix keeps the cell FAILS OPEN).
 */
import type { EventName } from '../../events/catalog.js';
import type { Decision } from '../../reduce/reduce.js';
import { asInput, str } from '../shared/facts.js';
import { claudeOutput, commonFields, endReason, failClosedReason, out, reasonOf, withUndeliverableNotes } from '../shared/wire.js';
import type { DispatchInput, DispatchOutput, WireAdapter } from '../types.js';
import { AUGGIE_NATIVE_EVENTS, AUGGIE_PROCESS, AUGGIE_TOOL_TABLE as TOOLS, AUGGIE_UNDELIVERABLE } from './facts.js';

function decodePayload(raw: Record<string, unknown>, nativeEvent?: string): DispatchInput | { skip: string; nativeEvent?: string } {
  const name = nativeEvent ?? str(raw.hook_event_name);
  if (!name) return { skip: 'payload has no hook_event_name (pass --event)' };
  const m = AUGGIE_NATIVE_EVENTS.get(name);
  if (!m?.event) return { skip: `Auggie event ${JSON.stringify(name)} has no equivalent`, nativeEvent: name };
  const event: EventName = m.event;
  const roots = raw.workspace_roots;
  const root = Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : undefined;
  const p: Record<string, unknown> = { ...raw, ...commonFields(raw, event, { sessionKeys: ['conversation_id', 'session_id'], cwd: root }) };
  if (typeof raw.tool_name === 'string') {
    const mcp = raw.is_mcp_tool === true;
    p.tool_name = mcp ? `mcp__auggie__${raw.tool_name}` : TOOLS.toCanonical(raw.tool_name);
    p.tool_input = mcp ? asInput(raw.tool_input) : TOOLS.inputToCanonical(raw.tool_name, asInput(raw.tool_input));
    if (event === 'PostToolUse') p.tool_response = raw.tool_error ?? raw.tool_output;
  }
  if (event === 'UserPromptSubmit') p.prompt = str(raw.user_prompt) ?? '';
  if (event === 'Stop') p.stop_hook_active = false;
  return { event, nativeEvent: name, payload: p, raw };
}

function encodeAuggie(d: Decision, input: DispatchInput): DispatchOutput {
  const tool = str(input.payload.tool_name) ?? '';
  const notes: string[] = [];
  let ended: string | undefined;
  let e = d;
  if (d.event === 'PreToolUse' && (d.decision === 'ask' || d.decision === 'defer')) {
    e = { ...d, decision: 'deny', blocked: true, reason: failClosedReason(d, 'ask', 'Auggie') };
    notes.push('Auggie runs the call when a hook asks in --print mode; denied instead');
  } else if (d.event === 'PostToolUse' && d.updatedOutput !== undefined) {
    const replacement = typeof d.updatedOutput === 'string' ? d.updatedOutput : JSON.stringify(d.updatedOutput);
    const withheld = `${d.blocked ? `${reasonOf(d)}\n\n` : ''}a hook replaced this tool output, which Auggie cannot apply: use this output instead of the one above: ${replacement}`;
    e = { ...d, updatedOutput: undefined, continue: false, stopReason: withheld, blocked: true, decision: 'block', reason: withheld };
    ended = endReason('Auggie', input);
  } else if (d.event === 'UserPromptSubmit' && (d.blocked || !d.continue)) {
    // firePromptSubmitHook does not wait for its hooks: the prompt has been sent; stop the agent acting on it.
    ended = `a hook blocked this prompt (${reasonOf(d, d.stopReason ?? 'blocked by hook')}), but Auggie sends a prompt without waiting for its PromptSubmit hooks, so it already reached the model; the agent was ended so it stops acting on it`;
  }
  const json = claudeOutput(e, { toolName: tool, mapInput: (i) => TOOLS.inputToNative(tool, i) });
  // Auggie reads PostToolUse's and Stop's decision and reason inside hookSpecificOutput.
  if (json && (e.event === 'PostToolUse' || e.event === 'Stop') && json.decision === 'block') {
    const hso = (json.hookSpecificOutput ?? { hookEventName: e.event }) as Record<string, unknown>;
    json.hookSpecificOutput = { ...hso, decision: 'block', reason: json.reason };
  }
  const hso = json?.hookSpecificOutput as Record<string, unknown> | undefined;
  if (json && hso) {
    // Auggie reads additionalContext at the top level on every event (inside, only on the tool events and SessionStart).
    if (hso.additionalContext !== undefined) json.additionalContext = hso.additionalContext;
    if (e.event === 'UserPromptSubmit') hso.hookEventName = 'PromptSubmit';
  }
  const o = out(json, 0, notes.map((n) => `agent-hooks: ${n}`).join('\n'));
  return ended === undefined ? o : { ...o, endAgent: { reason: ended, agent: AUGGIE_PROCESS } };
}

export const auggieWire: WireAdapter = {
  name: 'auggie',
  decodePayload,
  encodeDecision: (d, input) => withUndeliverableNotes(AUGGIE_UNDELIVERABLE, d, encodeAuggie(d, input)),
  noop: () => out(undefined),
};
