/**
 * Pi (`@mariozechner/pi-coding-agent`): no hooks file and no hook commands. Extensions
 * (`.pi/extensions/*.ts`, `~/.pi/agent/extensions/`, `pi -e file`) subscribe to events in process;
 * ours is src/plugins/pi.ts, which hands each event to the engine as a payload in Claude's shape
 * with Pi's event and tool names (this table) and applies the answer (src/agents/shared/plugin-wire.ts):
 * `tool_call` → `{block, reason}` or `event.input` mutated in place, `tool_result` → `{content}`,
 * `input` → `{action: "transform" | "handled"}`, a session-start context as the message of the first
 * `before_agent_start`, a Stop keep-going as `pi.sendUserMessage`. An ask reaches a person only
 * with a UI (`ctx.hasUI` → `ctx.ui.confirm`); in print mode (`-p`) it is a deny with the reason.
 * Source: the package's dist/core/extensions/types.d.ts and dist/core/tools/*.d.ts (0.73.1).
 */
import { PLUGIN_AGENT_DIALECT, toolTable } from '../shared/facts.js';
import type { Dialect, EventMapping, ToolMapping, Undeliverable } from '../types.js';

const EVENTS: readonly EventMapping[] = [
  { native: 'tool_call', event: 'PreToolUse', note: 'block with a reason, or the input mutated in place' },
  { native: 'tool_result', event: 'PostToolUse', note: 'the result content replaced (output, context)' },
  { native: 'input', event: 'UserPromptSubmit', note: 'transform (context appended) or handled (blocked)' },
  { native: 'session_start', event: 'SessionStart', note: 'context goes to the model as the message of the first before_agent_start' },
  { native: 'agent_end', event: 'Stop', note: 'keep going = pi.sendUserMessage with the reason' },
  { native: 'session_shutdown', event: 'SessionEnd' },
];
export const PI_NATIVE_EVENTS: ReadonlyMap<string, EventMapping> = new Map(EVENTS.map((e) => [e.native, e]));

/** Pi's built-in tools (0.73.1); `edit` takes `edits: [{oldText, newText}]`, which stays as it is. */
export const PI_TOOLS: readonly ToolMapping[] = [
  { canonical: 'Bash', native: 'bash' },
  { canonical: 'Read', native: 'read', fields: { file_path: 'path' } },
  { canonical: 'Edit', native: 'edit', fields: { file_path: 'path' } },
  { canonical: 'Write', native: 'write', fields: { file_path: 'path' } },
  { canonical: 'Grep', native: 'grep' },
  { canonical: 'Glob', native: 'find' },
  { canonical: 'LS', native: 'ls' },
];
export const PI_TOOL_TABLE = toolTable(PI_TOOLS);

export const PI_UNDELIVERABLE: readonly Undeliverable[] = [
  {
    event: 'PermissionRequest',
    part: 'fire',
    version: 'Pi 0.73.1',
    what: 'Pi has no permission dialog for tools (a tool_call runs unless an extension blocks it); guard with PreToolUse instead',
    blocking: true,
  },
];

export const pi: Dialect = {
  ...PLUGIN_AGENT_DIALECT,
  name: 'pi',
  title: 'Pi',
  events: EVENTS,
  tools: PI_TOOLS,
  undeliverable: PI_UNDELIVERABLE,
};
