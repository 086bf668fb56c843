/**
 * OpenCode (`opencode-ai`): no hooks file and no hook commands. Plugins (`.opencode/plugin/`,
 * `~/.config/opencode/plugin/`) return hooks `(input, output) => Promise<void>` that answer by
 * mutating `output` or throwing; ours is src/plugins/opencode.ts, which hands each call to the
 * engine as a payload in Claude's shape with OpenCode's hook, tool and field names (this table)
 * and applies the answer (src/agents/shared/plugin-wire.ts): `tool.execute.before` throws to deny
 * (the model gets the reason as the tool's error) and mutates `output.args` in place to rewrite;
 * `tool.execute.after` mutates `output.output` (replacement, context); `chat.message` adds a text
 * part (context) or throws (block); `session.idle` keeps going through `client.session.prompt`.
 * The session-start context is added to the session's first prompt. `permission.ask` is declared
 * by @opencode-ai/plugin but never triggered (1.18.33), so an ask is a deny with the reason.
 * Kilo CLI is a fork with the same plugin interface (src/agents/kilo/).
 * Source: the opencode-linux-x64 1.18.33 binary (its trigger sites), @opencode-ai/plugin's types.
 */
import { PLUGIN_AGENT_DIALECT, toolTable } from '../shared/facts.js';
import type { Dialect, EventMapping, ToolMapping, Undeliverable } from '../types.js';

const EVENTS: readonly EventMapping[] = [
  { native: 'tool.execute.before', event: 'PreToolUse', note: 'throw = deny (reason as the tool error); output.args mutated = rewrite' },
  { native: 'tool.execute.after', event: 'PostToolUse', note: 'output.output mutated (replacement, context)' },
  { native: 'chat.message', event: 'UserPromptSubmit', note: 'a text part added (context); throw = block' },
  { native: 'session.created', event: 'SessionStart', note: "fired by the plugin before the session's first prompt; context added to it" },
  { native: 'session.idle', event: 'Stop', note: 'keep going = client.session.prompt with the reason' },
  { native: 'permission.ask', note: 'declared by @opencode-ai/plugin, never triggered by OpenCode 1.18.33' },
];
export const OPENCODE_NATIVE_EVENTS: ReadonlyMap<string, EventMapping> = new Map(EVENTS.map((e) => [e.native, e]));
export const OPENCODE_EVENTS = EVENTS;

const FILE = { file_path: 'filePath' } as const;
export const OPENCODE_TOOLS: readonly ToolMapping[] = [
  { canonical: 'Bash', native: 'bash' },
  { canonical: 'Edit', native: 'edit', fields: { ...FILE, old_string: 'oldString', new_string: 'newString', replace_all: 'replaceAll' } },
  { canonical: 'Write', native: 'write', fields: FILE },
  { canonical: 'Read', native: 'read', fields: FILE },
  { canonical: 'Glob', native: 'glob' },
  { canonical: 'Grep', native: 'grep' },
  { canonical: 'LS', native: 'list' },
  { canonical: 'Task', native: 'task' },
  { canonical: 'WebFetch', native: 'webfetch' },
  { canonical: 'WebSearch', native: 'websearch' },
  { canonical: 'TodoWrite', native: 'todowrite' },
];
export const OPENCODE_TOOL_TABLE = toolTable(OPENCODE_TOOLS);

export function permissionAskNeverFires(version: string): Undeliverable {
  return {
    event: 'PermissionRequest',
    part: 'fire',
    version,
    what: 'the plugin hook permission.ask is declared but never triggered; guard with PreToolUse instead',
    blocking: true,
  };
}

export const OPENCODE_UNDELIVERABLE: readonly Undeliverable[] = [permissionAskNeverFires('OpenCode 1.18.33')];

export const opencode: Dialect = {
  ...PLUGIN_AGENT_DIALECT,
  name: 'opencode',
  title: 'OpenCode',
  events: EVENTS,
  tools: OPENCODE_TOOLS,
  undeliverable: OPENCODE_UNDELIVERABLE,
};
