/** Codex's wire format: Claude's payload with its own tool names; outputs stricter than Claude's. */
import type { EventName } from '../../events/catalog.js';
import { CODEX_NATIVE_EVENTS as NATIVE, CODEX_TOOL_TABLE as TOOLS } from './facts.js';
import { str } from '../shared/facts.js';
import type { Decision } from '../../reduce/reduce.js';
import { failClosedReason, joinContext, joinMessages, out, reasonOf } from '../shared/wire.js';
import type { DispatchOutput, WireAdapter } from '../types.js';

function encode(d: Decision, toolName: string | undefined): DispatchOutput {
  const o: Record<string, unknown> = {};
  const hso: Record<string, unknown> = { hookEventName: d.event };
  const notes: string[] = [];
  const context = joinContext(d);
  const message = joinMessages(d);
  switch (d.event) {
    case 'PreToolUse': {
      // Codex PreToolUse: deny (with a reason) or allow+updatedInput; no ask, no bare allow, no continue:false.
      let deny: string | undefined;
      if (d.decision === 'deny' || d.decision === 'block') deny = reasonOf(d);
      else if (d.decision === 'ask' || d.decision === 'defer') deny = failClosedReason(d, 'ask', 'Codex');
      else if (!d.continue) deny = d.stopReason?.trim() || 'stopped by hook';
      if (deny !== undefined) {
        hso.permissionDecision = 'deny';
        hso.permissionDecisionReason = deny;
      } else if (d.updatedInput) {
        hso.permissionDecision = 'allow';
        hso.updatedInput = d.updatedInput;
      }
      if (context !== undefined) hso.additionalContext = context;
      break;
    }
    case 'PermissionRequest':
      if (d.decision === 'allow' && d.updatedInput) {
        hso.decision = { behavior: 'deny', message: failClosedReason(d, 'rewrite', 'Codex') };
      } else if (d.decision === 'allow') {
        hso.decision = { behavior: 'allow' };
        if (Array.isArray(d.eventOutput.updatedPermissions) && d.eventOutput.updatedPermissions.length)
          notes.push('updatedPermissions is not supported by Codex; left out');
      } else if (d.decision === 'deny') {
        hso.decision = { behavior: 'deny', message: reasonOf(d, 'denied by hook') };
        if (d.eventOutput.interrupt === true) notes.push('interrupt is not supported by Codex; left out');
      }
      if (!d.continue) notes.push('continue:false is not supported on PermissionRequest by Codex; left out');
      break;
    case 'PreCompact':
      // Codex reads only the universal fields here; exit 2 is the blocking convention it shares with Claude.
      if (d.blocked) return out(undefined, 2, reasonOf(d));
      break;
    default:
      if (d.blocked && (d.event === 'PostToolUse' || d.event === 'UserPromptSubmit' || d.event === 'Stop' || d.event === 'SubagentStop')) {
        o.decision = 'block';
        o.reason = reasonOf(d);
      }
      if (d.updatedOutput !== undefined) {
        if (toolName?.startsWith('mcp__')) hso.updatedMCPToolOutput = d.updatedOutput;
        else if (d.event === 'PostToolUse') {
          // Codex replaces only MCP output; a block hands the model the reason instead of the result.
          const replacement = typeof d.updatedOutput === 'string' ? d.updatedOutput : JSON.stringify(d.updatedOutput);
          o.decision = 'block';
          o.reason = `${d.blocked ? `${reasonOf(d)}\n\n` : ''}the tool output was withheld: a hook replaced it, which Codex cannot apply to ${toolName ?? 'this tool'}. Replacement: ${replacement}`;
          notes.push('Codex can replace only MCP tool output; the output was withheld (decision: block) instead');
        } else notes.push(`Codex cannot replace output on ${d.event}; left out`);
      }
      if (context !== undefined && ['PostToolUse', 'UserPromptSubmit', 'SessionStart', 'SubagentStart'].includes(d.event))
        hso.additionalContext = context;
      else if (context !== undefined) notes.push(`Codex takes no additionalContext on ${d.event}; left out`);
  }
  if (!d.continue && d.event !== 'PreToolUse' && d.event !== 'PermissionRequest') {
    o.continue = false;
    if (d.stopReason !== undefined) o.stopReason = d.stopReason;
  }
  if (message !== undefined) o.systemMessage = message;
  if (Object.keys(hso).length > 1) o.hookSpecificOutput = hso;
  return out(Object.keys(o).length ? o : undefined, 0, notes.map((n) => `agent-hooks: ${n}`).join('\n'));
}

export const codexWire: WireAdapter = {
  name: 'codex',
  decodePayload(raw, nativeEvent) {
    const name = nativeEvent ?? str(raw.hook_event_name);
    if (!name) return { skip: 'payload has no hook_event_name (pass --event)' };
    const m = NATIVE.get(name);
    if (!m?.event) return { skip: `Codex event ${JSON.stringify(name)} has no equivalent`, nativeEvent: name };
    const payload: Record<string, unknown> = { ...raw, hook_event_name: m.event };
    if (payload.transcript_path === null) payload.transcript_path = '';
    if (typeof raw.tool_name === 'string') payload.tool_name = TOOLS.toCanonical(raw.tool_name);
    return { event: m.event as EventName, nativeEvent: name, payload, raw };
  },
  encodeDecision: (d, input) => encode(d, str(input.payload.tool_name)),
  noop: () => out(undefined),
};
