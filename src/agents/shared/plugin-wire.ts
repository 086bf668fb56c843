/**
 * The wire of the plugin agents (OpenCode, Kilo, Pi): they have no hook config and run no hook
 * commands; our plugin, loaded in the agent, hands each hook call to dispatch (in-process or
 * spawned, src/plugins/) as a payload in Claude's canonical shape with the agent's own event,
 * tool and field names, and applies the answer printed here: one JSON object, a `PluginAnswer`.
 * Lean: no zod, no engine.
 */
import type { EventName } from '../../events/catalog.js';
import type { Decision } from '../../reduce/reduce.js';
import type { DispatchInput, DispatchOutput, EventMapping, WireAdapter } from '../types.js';
import { asInput, str, type ToolTable } from './facts.js';
import { failClosedReason, joinContext, out, reasonOf } from './wire.js';

/** What the plugin applies; `{}` lets the call proceed unchanged. */
export interface PluginAnswer {
  /** The tool call or the prompt does not proceed; this is the reason the model is given. */
  block?: string;
  /** Ask the user (Pi with a UI: `ctx.ui.confirm`); declined → blocked with this reason. */
  ask?: string;
  /** The tool input to run instead, whole, in the agent's field names. */
  input?: Record<string, unknown>;
  /** The tool output the model sees instead of the real one. */
  output?: string;
  /** Context for the model (appended to the tool result or the prompt). */
  context?: string;
  /** Stop: the agent keeps going, given this as the next prompt. */
  continueWith?: string;
}

export interface PluginWireSpec {
  name: 'opencode' | 'kilo' | 'pi';
  title: string;
  events: ReadonlyMap<string, EventMapping>;
  tools: ToolTable;
  /** Whether an ask can reach a person, from the payload (Pi sends `has_ui`); else an ask is a deny. */
  canAsk(raw: Record<string, unknown>): boolean;
}

export function pluginWire(spec: PluginWireSpec): WireAdapter {
  return {
    name: spec.name,
    decodePayload(raw, nativeEvent) {
      const name = nativeEvent ?? str(raw.hook_event_name);
      if (!name) return { skip: 'payload has no hook_event_name (pass --event)' };
      const m = spec.events.get(name);
      if (!m?.event) return { skip: `${spec.title} hook ${JSON.stringify(name)} has no equivalent`, nativeEvent: name };
      const payload: Record<string, unknown> = { ...raw, hook_event_name: m.event };
      if (typeof raw.tool_name === 'string') {
        payload.tool_name = spec.tools.toCanonical(raw.tool_name);
        payload.tool_input = spec.tools.inputToCanonical(raw.tool_name, asInput(raw.tool_input));
      }
      payload.session_id ??= 'unknown';
      payload.transcript_path ??= '';
      payload.cwd ??= process.cwd();
      return { event: m.event as EventName, nativeEvent: name, payload, raw };
    },
    encodeDecision(d, input) {
      const tool = str(input.raw.tool_name) ?? '';
      const answer = answerOf(d, spec, input, (i) => asInput(spec.tools.inputToNative(str(input.payload.tool_name) ?? tool, i)));
      return out(answer as Record<string, unknown>);
    },
    noop: () => out({}),
  };
}

/** The decision as what the plugin can do: block, ask, rewrite, replace, add context, keep going. */
function answerOf(
  d: Decision,
  spec: PluginWireSpec,
  input: DispatchInput,
  toNative: (i: Record<string, unknown>) => Record<string, unknown>,
): PluginAnswer {
  const a: PluginAnswer = {};
  const context = joinContext(d);
  switch (d.event) {
    case 'PreToolUse':
    case 'UserPromptSubmit':
      if (d.decision === 'deny' || d.decision === 'block' || d.blocked) a.block = reasonOf(d);
      else if (!d.continue) a.block = d.stopReason?.trim() || 'a hook stopped the agent';
      else if (d.decision === 'ask' || d.decision === 'defer') {
        if (spec.canAsk(input.raw)) a.ask = reasonOf(d, 'a hook asked for confirmation');
        else a.block = failClosedReason(d, 'ask', spec.title);
      } else if (d.updatedInput) a.input = toNative(d.updatedInput);
      break;
    case 'PostToolUse':
    case 'PostToolUseFailure':
      if (d.updatedOutput !== undefined) a.output = typeof d.updatedOutput === 'string' ? d.updatedOutput : JSON.stringify(d.updatedOutput);
      // Claude gives the model a PostToolUse block's reason next to the result: the tool ran already.
      if (d.blocked || d.decision === 'block') a.context = reasonOf(d);
      break;
    case 'Stop':
    case 'SubagentStop':
      if (d.continue && (d.blocked || d.decision === 'block')) a.continueWith = reasonOf(d);
      break;
  }
  if (context !== undefined && a.block === undefined) a.context = a.context ? `${a.context}\n\n${context}` : context;
  return a;
}

/** The plugin answer dispatch printed, or why it is not one (the plugin then fails closed). */
export function readPluginAnswer(o: DispatchOutput): PluginAnswer | { error: string } {
  const why = (what: string) => ({ error: `${what}${o.stderr.trim() ? `: ${o.stderr.trim().slice(0, 2000)}` : ''}` });
  if (o.exitCode !== 0) return why(`agent-hooks dispatch exited with ${o.exitCode}`);
  let v: unknown;
  try {
    v = JSON.parse(o.stdout);
  } catch {
    return why('agent-hooks dispatch printed no answer');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return why('agent-hooks dispatch printed no answer');
  const a = v as Record<string, unknown>;
  for (const k of ['block', 'ask', 'output', 'context', 'continueWith'] as const)
    if (a[k] !== undefined && typeof a[k] !== 'string') return why(`agent-hooks dispatch answered a non-string ${k}`);
  if (a.input !== undefined && (typeof a.input !== 'object' || a.input === null || Array.isArray(a.input)))
    return why('agent-hooks dispatch answered an input that is not an object');
  return a as PluginAnswer;
}
