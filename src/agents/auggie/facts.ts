/**
 * Auggie (Augment Code CLI): Claude-shaped `hooks` in `~/.augment/settings.json`,
 * `.augment/settings.json` and `.augment/settings.local.json` (and plugin hooks.json), command
 * hooks only, timeouts in milliseconds (default 60 000). Events: Claude's PreToolUse,
 * PostToolUse, Stop, SessionStart, SessionEnd, Notification, and `PromptSubmit` for
 * UserPromptSubmit. Matchers are unanchored regexes (`.*` or none = all) that never match an MCP
 * tool unless prefixed `mcp:`. Its payload: `conversation_id`, `workspace_roots`, `tool_output`,
 * `is_mcp_tool`; no session id, cwd or transcript. Hooks run only when the tenant's `enableHooks`
 * flag is on. PostToolUse and Stop read `decision`/`reason` inside hookSpecificOutput.
 * Source: @augmentcode/auggie 0.36.0 augment.mjs (hook executor, output parser, matcher).
 * Reader: reader.ts; wire: wire.ts; detection: detect.ts (this folder).
 */
import { join } from 'node:path';
import type { HookBridge } from '../../types.js';
import { groupEvents } from '../claude/facts.js';
import { isObject, toolTable, TOOL_EVENTS } from '../shared/facts.js';
import type { Dialect, EventMapping, ToolMapping, Undeliverable } from '../types.js';
import { detectAuggie } from '../detectors.js';

const EVENTS: readonly EventMapping[] = [
  { native: 'PreToolUse', event: 'PreToolUse' },
  { native: 'PostToolUse', event: 'PostToolUse' },
  { native: 'Stop', event: 'Stop' },
  { native: 'SessionStart', event: 'SessionStart' },
  { native: 'SessionEnd', event: 'SessionEnd' },
  { native: 'Notification', event: 'Notification' },
  { native: 'PromptSubmit', event: 'UserPromptSubmit' },
];
/** Auggie's process, by its command line (`node …/@augmentcode/auggie/augment.mjs`, or the `auggie` link). */
export const AUGGIE_PROCESS = /auggie|augment/i;

/** Native event name → mapping (payload decoding: wire.ts). */
export const AUGGIE_NATIVE_EVENTS: ReadonlyMap<string, EventMapping> = new Map(EVENTS.map((e) => [e.native, e]));

export const AUGGIE_TOOLS: readonly ToolMapping[] = [
  { canonical: 'Bash', native: 'launch-process' },
  { canonical: 'Write', native: 'save-file', fields: { file_path: 'path', content: 'file_content' } },
  { canonical: 'Edit', native: 'str-replace-editor', fields: { file_path: 'path', old_string: 'old_str_1', new_string: 'new_str_1' } },
  { canonical: 'ApplyPatch', native: 'apply_patch' },
  { canonical: 'Read', native: 'view', fields: { file_path: 'path' } },
  { canonical: 'WebFetch', native: 'web-fetch' },
  { canonical: 'WebSearch', native: 'web-search' },
];
/** Auggie's MCP tools carry their own name and `is_mcp_tool`; canonically `mcp__auggie__<name>`. */
export const AUGGIE_TOOL_TABLE = toolTable(AUGGIE_TOOLS, {
  toNative: (n) => (n.startsWith('mcp__auggie__') ? n.slice('mcp__auggie__'.length) : undefined),
  toCanonical: () => undefined,
});
const TOOLS = AUGGIE_TOOL_TABLE;

/** The value an Auggie matcher is tested against: an MCP tool's name behind `mcp:`, as Auggie's `mcp:<regex>` names it. */
function matchValue(value: string): string {
  return value.startsWith('mcp__') ? `mcp:${TOOLS.toNative(value)}` : TOOLS.toNative(value);
}

export const auggieBridge: HookBridge = {
  matchValue: (hook, value) => (TOOL_EVENTS.has(hook.event) ? matchValue(value) : value),
  encodePayload(_hook, p) {
    const o: Record<string, unknown> = {
      hook_event_name: p.hook_event_name === 'UserPromptSubmit' ? 'PromptSubmit' : p.hook_event_name,
      conversation_id: p.session_id,
      workspace_roots: [p.cwd],
    };
    if (typeof p.tool_name === 'string') {
      o.tool_name = TOOLS.toNative(p.tool_name);
      o.tool_input = TOOLS.inputToNative(p.tool_name, p.tool_input);
      o.is_mcp_tool = p.tool_name.startsWith('mcp__');
      o.tool_output = p.tool_response;
    }
    if (p.prompt !== undefined) o.user_prompt = p.prompt;
    return o;
  },
  // Auggie reads Claude's convention (exit 2, hookSpecificOutput); decision/reason inside it on PostToolUse and Stop are read there too.
  decodeResult: (_hook, _payload, result) => result,
};

const V = 'Auggie 0.36.0';
/** What the agent cannot deliver (src/agents/shared/undeliverable.ts; docs/dialects.md "Not deliverable by the agent"). */
export const AUGGIE_UNDELIVERABLE: readonly Undeliverable[] = [
  {
    event: 'PreToolUse',
    part: 'context',
    version: V,
    what: 'the caller of runPreToolUseHook reads only shouldContinue, the blocking messages and updatedInput; additionalContext is never used',
  },
  {
    event: 'UserPromptSubmit',
    part: 'answer',
    blocking: true,
    version: V,
    what: 'firePromptSubmitHook runs PromptSubmit hooks without waiting for them: the prompt reaches the model whatever they answer; through dispatch a block ends the agent when the answer arrives, which stops what it does next but not a tool call it already made',
  },
  {
    event: 'PostToolUse',
    part: 'answer',
    version: V,
    what: "runPostToolUseHook only appends a hook's context to the tool output, so a replaced output can be neither applied nor withheld; through dispatch a replacement ends the agent before the model reads the original",
  },
  {
    event: 'SessionStart',
    part: 'fire',
    version: V,
    what: 'fireSessionStartHook runs SessionStart hooks without waiting for them: their context is never read',
  },
];

export const auggie: Dialect = {
  name: 'auggie',
  title: 'Auggie',
  format: 'json',
  projectDirEnv: ['AUGMENT_PROJECT_DIR'],
  configLocations: ({ projectDir, homeDir }) => [
    { kind: 'user', file: join(homeDir, '.augment', 'settings.json') },
    { kind: 'project', file: join(projectDir, '.augment', 'settings.json') },
    { kind: 'local', file: join(projectDir, '.augment', 'settings.local.json') },
  ],
  locations: { user: ['~/.augment/settings.json'], project: ['.augment/settings.json', '.augment/settings.local.json'] },
  defaults: { timeoutSec: 60, timeoutUnit: 'ms' },
  events: EVENTS,
  tools: AUGGIE_TOOLS,
  // new RegExp(m).test(tool_name), unanchored; `.*` or none = all (a bare `*` is an invalid regex: never matches).
  matcherMode: () => 'regex',
  keepsIdenticalHooks: true,
  detect: detectAuggie,
  configuredEvents: (doc) => (isObject(doc) ? groupEvents(doc.hooks) : []),
  undeliverable: AUGGIE_UNDELIVERABLE,
  bridge: auggieBridge,
};
