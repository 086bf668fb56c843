/**
 * Helpers of the wire adapters: a decision in Claude Code's output convention (also what the
 * policy server answers), the pieces other conventions are built from, and the canonical fields
 * of an agent's payload. Lean: no zod, no engine.
 */
import type { EventName } from '../../events/catalog.js';
import type { Decision } from '../../reduce/reduce.js';
import type { Undeliverable } from '../types.js';
import type { DispatchInput, DispatchOutput } from '../types.js';

// ---------------------------------------------------------------------------------------------
// Outputs

export function out(stdout: string | Record<string, unknown> | undefined, exitCode = 0, stderr = ''): DispatchOutput {
  const text = stdout === undefined ? '' : typeof stdout === 'string' ? stdout : `${JSON.stringify(stdout)}\n`;
  return { stdout: text, stderr: stderr && !stderr.endsWith('\n') ? `${stderr}\n` : stderr, exitCode };
}

export function joinContext(d: Decision): string | undefined {
  return d.additionalContext.length ? d.additionalContext.join('\n\n') : undefined;
}

export function joinMessages(d: Decision): string | undefined {
  return d.systemMessages.length ? d.systemMessages.join('\n') : undefined;
}

/** Reason shown when a decision has none (several agents require a non-empty reason). */
export function reasonOf(d: Decision, fallback = 'blocked by hook'): string {
  const r = d.reason?.trim();
  return r ? r : fallback;
}

/** A decision the agent cannot express (ask, rewrite) becomes a deny: fail closed, and say why. */
export function failClosedReason(d: Decision, what: 'ask' | 'rewrite', agent: string): string {
  if (what === 'ask') return `approval required (${agent} hooks cannot ask the user): ${reasonOf(d, 'a hook asked for confirmation')}`;
  return `a hook rewrote this call, which ${agent} cannot apply; retry with this input instead: ${JSON.stringify(d.updatedInput)}`;
}

/** Why dispatch ends an agent that cannot replace a tool's output (DispatchOutput.endAgent). */
export function endReason(agent: string, input: DispatchInput): string {
  const tool = typeof input.payload.tool_name === 'string' ? ` of ${input.payload.tool_name}` : '';
  return `a hook replaced the output${tool}, which ${agent} cannot apply or withhold; the agent was ended so the original does not reach the model`;
}

/**
 * The decision in Claude Code's output convention (hookSpecificOutput, decision/reason, universal
 * fields). `mapInput` renames a rewritten tool_input for agents that share the shape but not the
 * tool vocabulary (Qwen). Returns undefined when there is nothing to say.
 */
export function claudeOutput(
  d: Decision,
  opts: { toolName?: string; mapInput?: (input: Record<string, unknown>) => unknown; honoured?: ReadonlySet<string> } = {},
): Record<string, unknown> | undefined {
  const o: Record<string, unknown> = {};
  const hso: Record<string, unknown> = { hookEventName: d.event };
  const context = joinContext(d);
  const keep = (k: string) => !opts.honoured || opts.honoured.has(k);
  switch (d.event) {
    case 'PreToolUse':
      if (d.decision && d.decision !== 'block') {
        hso.permissionDecision = d.decision;
        if (d.reason !== undefined) hso.permissionDecisionReason = d.reason;
      } else if (d.decision === 'block') {
        hso.permissionDecision = 'deny';
        hso.permissionDecisionReason = reasonOf(d);
      }
      if (d.updatedInput) hso.updatedInput = opts.mapInput ? opts.mapInput(d.updatedInput) : d.updatedInput;
      break;
    case 'PermissionRequest':
      if (d.decision === 'allow') {
        const decision: Record<string, unknown> = { behavior: 'allow' };
        if (d.updatedInput) decision.updatedInput = opts.mapInput ? opts.mapInput(d.updatedInput) : d.updatedInput;
        if (Array.isArray(d.eventOutput.updatedPermissions) && d.eventOutput.updatedPermissions.length)
          decision.updatedPermissions = d.eventOutput.updatedPermissions;
        hso.decision = decision;
      } else if (d.decision === 'deny') {
        const decision: Record<string, unknown> = { behavior: 'deny', message: reasonOf(d, 'denied by hook') };
        if (d.eventOutput.interrupt === true) decision.interrupt = true;
        hso.decision = decision;
      }
      break;
    default:
      if (d.blocked || d.decision === 'block') {
        o.decision = 'block';
        o.reason = reasonOf(d);
      }
      if (d.updatedOutput !== undefined) {
        const mcp = typeof opts.toolName === 'string' && opts.toolName.startsWith('mcp__');
        hso[mcp ? 'updatedMCPToolOutput' : 'updatedToolOutput'] = d.updatedOutput;
      }
      for (const [k, v] of Object.entries(d.eventOutput)) if (keep(k) && k !== 'env') hso[k] = v;
  }
  if (context !== undefined) hso.additionalContext = context;
  if (!d.continue) {
    o.continue = false;
    if (d.stopReason !== undefined) o.stopReason = d.stopReason;
  }
  const message = joinMessages(d);
  if (message !== undefined) o.systemMessage = message;
  if (Object.keys(hso).length > 1) o.hookSpecificOutput = hso;
  return Object.keys(o).length ? o : undefined;
}

/** Common canonical fields from whatever the agent sent. */
export function commonFields(
  raw: Record<string, unknown>,
  event: EventName,
  extra: { sessionKeys?: string[]; cwd?: string } = {},
): Record<string, unknown> {
  const sessionKey = (extra.sessionKeys ?? ['session_id']).find((k) => typeof raw[k] === 'string');
  const p: Record<string, unknown> = {
    session_id: sessionKey ? raw[sessionKey] : 'unknown',
    transcript_path: typeof raw.transcript_path === 'string' ? raw.transcript_path : '',
    cwd: extra.cwd ?? (typeof raw.cwd === 'string' ? raw.cwd : process.cwd()),
    hook_event_name: event,
  };
  if (typeof raw.permission_mode === 'string') p.permission_mode = raw.permission_mode;
  return p;
}

/** The note dispatch prints when a decision carries something the agent drops (never on exit 2: stderr is the reason then). */
export function withUndeliverableNotes(list: readonly Undeliverable[], d: Decision, o: DispatchOutput): DispatchOutput {
  if (o.exitCode === 2) return o;
  const notes = list
    .filter((u) => u.event === d.event && u.part === 'context' && d.additionalContext.length > 0)
    .map((u) => `agent-hooks: additionalContext on ${u.event} is not deliverable by the agent (${u.version}): ${u.what}; left out\n`);
  return notes.length ? { ...o, stderr: o.stderr + notes.join('') } : o;
}
