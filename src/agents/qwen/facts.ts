/**
 * Qwen Code: `hooks` in settings.json (`~/.qwen/settings.json`, `.qwen/settings.json`,
 * `.qwen/settings.local.json`), Claude event names and Claude-shaped outputs, but Gemini-style
 * tool ids (run_shell_command, write_file, edit, …), timeouts in seconds (0.24; values ≥ 1000
 * are legacy milliseconds; default 60), `sequential`/`async` on groups, and regex matchers on
 * every event that has one (tool name, source, trigger, notification type). `Bash` and `Shell`
 * are matcher aliases of run_shell_command. permission_mode uses default|plan|auto_edit|yolo.
 * What Qwen does not do, dispatch fails closed on: it ignores a PreToolUse `updatedInput` and
 * has no output replacement; on Stop `continue:false` keeps it going. Like Gemini CLI it reads
 * stderr as the hook's output when stdout is empty.
 * Sources: QwenLM/qwen-code docs/users/features/hooks.md, packages/core/src/hooks/ (0.24).
 * Reader: reader.ts (Gemini's, src/agents/gemini/reader.ts); wire: wire.ts; detection: detect.ts (this folder).
 */
import { join } from 'node:path';
import type { EventName } from '../../events/catalog.js';
import type { HookBridge, MatcherMode } from '../../types.js';
import { groupEvents } from '../claude/facts.js';
import { aliasedMatchValue, isObject, toolTable, TOOL_EVENTS } from '../shared/facts.js';
import type { Dialect, EventMapping, ToolMapping, Undeliverable } from '../types.js';
import { detectQwen } from '../detectors.js';

const EVENTS: readonly EventMapping[] = [
  { native: 'PreToolUse', event: 'PreToolUse' },
  { native: 'PostToolUse', event: 'PostToolUse' },
  { native: 'PostToolUseFailure', event: 'PostToolUseFailure' },
  { native: 'UserPromptSubmit', event: 'UserPromptSubmit' },
  { native: 'SessionStart', event: 'SessionStart' },
  { native: 'SessionEnd', event: 'SessionEnd' },
  { native: 'MessageDisplay', event: 'MessageDisplay' },
  { native: 'Stop', event: 'Stop' },
  { native: 'SubagentStart', event: 'SubagentStart' },
  { native: 'SubagentStop', event: 'SubagentStop' },
  { native: 'PreCompact', event: 'PreCompact' },
  { native: 'Notification', event: 'Notification' },
  { native: 'PermissionRequest', event: 'PermissionRequest' },
  { native: 'PermissionDenied', event: 'PermissionDenied' },
  { native: 'PostToolBatch', event: 'PostToolBatch' },
  { native: 'UserPromptExpansion', event: 'UserPromptExpansion' },
  { native: 'PostCompact', event: 'PostCompact' },
  { native: 'StopFailure', event: 'StopFailure' },
  { native: 'InstructionsLoaded', event: 'InstructionsLoaded' },
  { native: 'SessionDelete', note: 'fires after a session is deleted; no equivalent' },
  { native: 'TodoCreated', note: "todo items, not Claude's shared task list; no equivalent" },
  { native: 'TodoCompleted', note: "todo items, not Claude's shared task list; no equivalent" },
];
/** Native event name → mapping (payload decoding: wire.ts). */
export const QWEN_NATIVE_EVENTS: ReadonlyMap<string, EventMapping> = new Map(EVENTS.map((e) => [e.native, e]));

export const QWEN_TOOLS: readonly ToolMapping[] = [
  { canonical: 'Bash', native: 'run_shell_command' },
  { canonical: 'Bash', native: 'Shell' },
  { canonical: 'Read', native: 'read_file' },
  { canonical: 'Write', native: 'write_file' },
  { canonical: 'Edit', native: 'edit' },
  { canonical: 'Glob', native: 'glob' },
  { canonical: 'Grep', native: 'grep_search' },
  { canonical: 'LS', native: 'list_directory' },
  { canonical: 'WebFetch', native: 'web_fetch' },
  { canonical: 'WebSearch', native: 'web_search' },
  { canonical: 'TodoWrite', native: 'todo_write' },
];
export const QWEN_TOOL_TABLE = toolTable(QWEN_TOOLS);
const TOOLS = QWEN_TOOL_TABLE;
/** Names Qwen's matcher also accepts for a tool (its Claude-compatibility aliases). */
const MATCHER_ALIASES: Readonly<Record<string, readonly string[]>> = { run_shell_command: ['Bash', 'Shell'] };

const MODE_TO_NATIVE: Record<string, string> = { acceptEdits: 'auto_edit', bypassPermissions: 'yolo' };
/** Qwen's permission_mode → canonical (payload decoding). */
export const QWEN_MODE_TO_CANONICAL: Readonly<Record<string, string>> = { auto_edit: 'acceptEdits' };

/**
 * Qwen Code 0.24.4 reads a matcher as Gemini CLI does: trimmed, `*` for every tool, else an
 * unanchored regex (test/agents/dialect-diff: its `*`, ` run_shell_command` and
 * `run_shell_command ` ran). Read as a plain regex, those three never matched under dispatch.
 */
function qwenMatcherMode(_event: EventName): MatcherMode {
  return 'regex-or-exact';
}

export const qwenBridge: HookBridge = {
  matchValue: (hook, value) => (TOOL_EVENTS.has(hook.event) ? aliasedMatchValue(hook, TOOLS.toNative(value), MATCHER_ALIASES) : value),
  encodePayload(_hook, p) {
    const o: Record<string, unknown> = { ...p };
    if (typeof p.tool_name === 'string') {
      o.tool_name = TOOLS.toNative(p.tool_name);
      o.tool_input = TOOLS.inputToNative(p.tool_name, p.tool_input);
    }
    if (typeof p.permission_mode === 'string') o.permission_mode = MODE_TO_NATIVE[p.permission_mode] ?? p.permission_mode;
    return o;
  },
  // Qwen's output convention is Claude's (its tool_input field names match).
  decodeResult: (_hook, _payload, result) => result,
};

/** What the agent cannot deliver (src/agents/shared/undeliverable.ts; docs/dialects.md "Not deliverable by the agent"). */
export const QWEN_UNDELIVERABLE: readonly Undeliverable[] = [
  {
    event: 'PreToolUse',
    part: 'context',
    version: 'Qwen Code 0.24.4',
    what: 'firePreToolUseHook returns the additionalContext, but the tool scheduler only records it on a telemetry span (hasAdditionalContext); it never enters the tool result or the history',
  },
];

export const qwen: Dialect = {
  name: 'qwen',
  title: 'Qwen Code',
  format: 'json',
  projectDirEnv: ['QWEN_PROJECT_DIR'],
  configLocations: ({ projectDir, homeDir }) => [
    { kind: 'user', file: join(homeDir, '.qwen', 'settings.json') },
    { kind: 'project', file: join(projectDir, '.qwen', 'settings.json') },
    { kind: 'local', file: join(projectDir, '.qwen', 'settings.local.json') },
  ],
  locations: { user: ['~/.qwen/settings.json'], project: ['.qwen/settings.json', '.qwen/settings.local.json'] },
  defaults: { timeoutSec: 60, timeoutUnit: 's' },
  events: EVENTS,
  tools: QWEN_TOOLS,
  matcherMode: qwenMatcherMode,
  detect: detectQwen,
  configuredEvents: (doc) => (isObject(doc) ? groupEvents(doc.hooks) : []),
  undeliverable: QWEN_UNDELIVERABLE,
  bridge: qwenBridge,
};
