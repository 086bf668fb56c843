/**
 * Letta Code: Claude-shaped `hooks` in `~/.letta/settings.json`, `.letta/settings.json` and
 * `.letta/settings.local.json` (`hooks.disabled: true` switches them off), command and prompt
 * hooks, timeouts in milliseconds (default 60 000), matchers anchored regexes (`^(?:m)$`; `*` or
 * none = all). Claude's event and tool names (its other tool sets — Codex- and Gemini-style, by
 * model — are read as aliases). Its payload differs: `event_type`, `working_directory`,
 * `tool_call_id`, `agent_id`, PostToolUse `tool_result{status,output}`; no session id,
 * transcript or cwd. Its answer differs more: exit 2 blocks with stderr as the reason, and a
 * PreToolUse JSON answer is never read (a JSON deny or rewrite runs the call); PostToolUse reads
 * `additionalContext` from JSON; UserPromptSubmit and SessionStart take plain stdout as context;
 * a PermissionRequest hook that exits 0 approves.
 * Source: @letta-ai/letta-code 0.25.9 letta.js (src/hooks/executor.ts, loader.ts, index.ts).
 * Reader: reader.ts; wire: wire.ts; detection: detect.ts (this folder).
 */
import { join } from 'node:path';
import type { EventName } from '../../events/catalog.js';
import type { HookBridge } from '../../types.js';
import { groupEvents } from '../claude/facts.js';
import { isObject, toolTable, TOOL_EVENTS } from '../shared/facts.js';
import type { Dialect, EventMapping, ToolMapping, Undeliverable } from '../types.js';
import { detectLetta } from '../detectors.js';

/** Letta Code's events, named as Claude's (install writes each). */
export const LETTA_EVENTS: readonly EventName[] = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'UserPromptSubmit',
  'Notification',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
];
const EVENTS: readonly EventMapping[] = LETTA_EVENTS.map((e) => ({ native: e, event: e }));
/** Letta Code's process, by its command line (`node …/@letta-ai/letta-code/letta.js`, or the `letta` link). */
export const LETTA_PROCESS = /letta/i;

/** Letta Code's event names (payload decoding: wire.ts). */
export const LETTA_NATIVE_EVENTS: ReadonlySet<string> = new Set<string>(LETTA_EVENTS);

const alias = (canonical: string, natives: readonly string[]): ToolMapping[] => natives.map((native) => ({ canonical, native }));
/** Claude's names first (written), then the names of Letta's other tool sets (read). */
export const LETTA_TOOLS: readonly ToolMapping[] = [
  ...['Bash', 'Read', 'Write', 'Edit', 'MultiEdit', 'Glob', 'Grep', 'TodoWrite', 'Task', 'ApplyPatch'].map((n) => ({
    canonical: n,
    native: n,
  })),
  { canonical: 'LS', native: 'ListDir' },
  ...alias('Bash', ['shell_command', 'ShellCommand', 'shell', 'Shell', 'run_shell_command', 'RunShellCommand']),
  ...alias('ApplyPatch', ['apply_patch']),
  ...alias('Read', ['read_file', 'ReadFile', 'read_file_gemini', 'ReadFileGemini']),
  ...alias('Write', ['write_file_gemini', 'WriteFileGemini']),
  ...alias('Edit', ['replace']),
  ...alias('LS', ['list_dir', 'list_directory', 'ListDirectory']),
  ...alias('Grep', ['grep_files', 'GrepFiles', 'search_file_content', 'SearchFileContent']),
  ...alias('Glob', ['glob_gemini', 'GlobGemini']),
];
export const LETTA_TOOL_TABLE = toolTable(LETTA_TOOLS);
const TOOLS = LETTA_TOOL_TABLE;

/** A canonical payload as Letta Code sends it (hooks read from a Letta file, run by the engine). */
export function lettaPayload(p: Record<string, unknown>): Record<string, unknown> {
  const o: Record<string, unknown> = { event_type: p.hook_event_name, working_directory: p.cwd };
  if (typeof p.tool_name === 'string') {
    o.tool_name = TOOLS.toNative(p.tool_name);
    o.tool_input = p.tool_input;
    if (p.tool_use_id !== undefined) o.tool_call_id = p.tool_use_id;
  }
  if (p.hook_event_name === 'PostToolUse') o.tool_result = { status: 'success', output: p.tool_response };
  if (p.hook_event_name === 'PostToolUseFailure') o.error_message = p.error;
  for (const k of ['prompt', 'message', 'agent_id']) if (p[k] !== undefined) o[k] = p[k];
  return o;
}

export const lettaBridge: HookBridge = {
  matchValue: (hook, value) => (TOOL_EVENTS.has(hook.event) ? TOOLS.toNative(value) : value),
  encodePayload: (_hook, p) => lettaPayload(p),
  // Exit 2 and stderr are Claude's; a JSON answer Letta would ignore is still read (the stricter reading).
  decodeResult: (_hook, _payload, result) => result,
};

const V = 'Letta Code 0.25.9';
/** What the agent cannot deliver (src/agents/shared/undeliverable.ts; docs/dialects.md "Not deliverable by the agent"). */
export const LETTA_UNDELIVERABLE: readonly Undeliverable[] = [
  {
    event: 'PreToolUse',
    part: 'context',
    version: V,
    what: 'executeHooks reads a PreToolUse hook only by its exit code; stdout is never parsed, so no additionalContext reaches the model',
  },
  {
    event: 'PostToolUse',
    part: 'answer',
    version: V,
    what: "a PostToolUse hook's exit 2 or context is only appended to the tool output, so a replaced output can be neither applied nor withheld; through dispatch a replacement ends the agent before the model reads the original",
  },
  {
    event: 'UserPromptSubmit',
    part: 'fire',
    blocking: true,
    version: V,
    what: 'headless `letta -p` sends the prompt without running UserPromptSubmit hooks (only the interactive app calls runUserPromptSubmitHooks)',
  },
  {
    event: 'SessionStart',
    part: 'fire',
    version: V,
    what: 'headless `letta -p` runs no SessionStart hooks (only the interactive app does)',
  },
  {
    event: 'Stop',
    part: 'fire',
    version: V,
    what: 'headless `letta -p` runs no Stop hooks (only the interactive app does; there, exit 2 goes on with stderr as the message)',
  },
];

export const letta: Dialect = {
  name: 'letta',
  title: 'Letta Code',
  format: 'json',
  projectDirEnv: ['LETTA_WORKING_DIR'],
  configLocations: ({ projectDir, homeDir }) => [
    { kind: 'user', file: join(homeDir, '.letta', 'settings.json') },
    { kind: 'project', file: join(projectDir, '.letta', 'settings.json') },
    { kind: 'local', file: join(projectDir, '.letta', 'settings.local.json') },
  ],
  locations: { user: ['~/.letta/settings.json'], project: ['.letta/settings.json', '.letta/settings.local.json'] },
  defaults: { timeoutSec: 60, timeoutUnit: 'ms' },
  events: EVENTS,
  tools: LETTA_TOOLS,
  // matchesTool: `*` or none = all, else new RegExp(`^(?:${m})$`) (an invalid one compares exactly).
  matcherMode: () => 'regex-anchored',
  // getMatchingHooks pushes every matching group's hooks: identical hooks each run.
  keepsIdenticalHooks: true,
  detect: detectLetta,
  configuredEvents: (doc) => (isObject(doc) && isObject(doc.hooks) ? groupEvents(doc.hooks).filter((e) => e !== 'disabled') : []),
  undeliverable: LETTA_UNDELIVERABLE,
  bridge: lettaBridge,
};
