/**
 * Factory Droid: Claude-format hooks (`hooks.{Event}[] = {matcher, hooks}`) in
 * `~/.factory/hooks.json` / `.factory/hooks.json`, or the `hooks` key of `~/.factory/settings.json`,
 * `.factory/settings.json` and `.factory/settings.local.json`. Claude's event names, payloads and
 * output convention (exit 2 blocks, hookSpecificOutput), timeouts in seconds; matchers on
 * PreToolUse/PostToolUse, exact names or regexes. What differs is the tool vocabulary: the shell
 * tool is `Execute`, a new file is `Create`, a fetch is `FetchUrl`.
 * Sources: docs.factory.ai reference/hooks-reference and harness/hooks (settings, events, matchers).
 * Reader: reader.ts; wire: wire.ts; detection: detect.ts (this folder).
 */
import { join } from 'node:path';
import type { EventName } from '../../events/catalog.js';
import type { HookBridge } from '../../types.js';
import { groupEvents } from '../claude/facts.js';
import { isObject, toolTable, TOOL_EVENTS } from '../shared/facts.js';
import type { Dialect, EventMapping, ToolMapping, Undeliverable } from '../types.js';
import { detectDroid } from '../detectors.js';

const DROID_EVENTS: readonly EventName[] = [
  'PreToolUse',
  'PostToolUse',
  'Notification',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
];
const EVENTS: readonly EventMapping[] = DROID_EVENTS.map((e) => ({ native: e, event: e }));
/** Droid's event names (payload decoding: wire.ts). */
export const DROID_NATIVE_EVENTS: ReadonlySet<string> = new Set<string>(DROID_EVENTS);

/** Droid's tool names; tool_input fields are Claude's. */
export const DROID_TOOLS: readonly ToolMapping[] = [
  { canonical: 'Bash', native: 'Execute' },
  { canonical: 'Write', native: 'Create' },
  { canonical: 'Edit', native: 'Edit' },
  { canonical: 'MultiEdit', native: 'MultiEdit' },
  { canonical: 'ApplyPatch', native: 'ApplyPatch' },
  { canonical: 'Read', native: 'Read' },
  { canonical: 'LS', native: 'LS' },
  { canonical: 'Glob', native: 'Glob' },
  { canonical: 'Grep', native: 'Grep' },
  { canonical: 'WebFetch', native: 'FetchUrl' },
  { canonical: 'WebSearch', native: 'WebSearch' },
  { canonical: 'TodoWrite', native: 'TodoWrite' },
  { canonical: 'Task', native: 'Task' },
];
export const DROID_TOOL_TABLE = toolTable(DROID_TOOLS);
const TOOLS = DROID_TOOL_TABLE;

export const droidBridge: HookBridge = {
  matchValue: (hook, value) => (TOOL_EVENTS.has(hook.event) ? TOOLS.toNative(value) : value),
  encodePayload: (_hook, p) => (typeof p.tool_name === 'string' ? { ...p, tool_name: TOOLS.toNative(p.tool_name) } : p),
  // Droid's output convention is Claude's.
  decodeResult: (_hook, _payload, result) => result,
};

/** What the agent cannot deliver (src/agents/shared/undeliverable.ts; docs/dialects.md "Not deliverable by the agent"). */
export const DROID_UNDELIVERABLE: readonly Undeliverable[] = [
  {
    event: 'PreToolUse',
    part: 'context',
    version: 'Factory Droid 0.225.2',
    what: 'a PreToolUse additionalContext is shown as a UI system message (updateAction ADD_MESSAGE, only when a UI is attached) and never added to the model history',
  },
  {
    event: 'UserPromptSubmit',
    part: 'fire',
    blocking: true,
    version: 'Factory Droid 0.225.2',
    what: '`droid exec` sends the prompt without running UserPromptSubmit hooks (only its JSON-RPC session handler calls executeUserPromptSubmitHooks)',
  },
];

export const droid: Dialect = {
  name: 'droid',
  title: 'Factory Droid',
  format: 'json',
  projectDirEnv: ['FACTORY_PROJECT_DIR'],
  configLocations: ({ projectDir, homeDir }) => [
    { kind: 'user', file: join(homeDir, '.factory', 'hooks.json') },
    { kind: 'user', file: join(homeDir, '.factory', 'settings.json') },
    { kind: 'project', file: join(projectDir, '.factory', 'hooks.json') },
    { kind: 'project', file: join(projectDir, '.factory', 'settings.json') },
    { kind: 'local', file: join(projectDir, '.factory', 'settings.local.json') },
  ],
  locations: {
    user: ['~/.factory/hooks.json', '~/.factory/settings.json'],
    project: ['.factory/hooks.json', '.factory/settings.json', '.factory/settings.local.json'],
  },
  defaults: { timeoutUnit: 's' },
  events: EVENTS,
  tools: DROID_TOOLS,
  // Droid 0.225.2, run with 24 matcher spellings (test/agents/dialect-diff): every matcher is an
  // unanchored regex (`Execu` and `ecute` ran for Execute, `Execute|` for Create), `*` and empty
  // match all, spaces and commas are part of the regex; identical hooks each run.
  matcherMode: () => 'regex-star',
  keepsIdenticalHooks: true,
  detect: detectDroid,
  configuredEvents: (doc) => (isObject(doc) ? groupEvents(doc.hooks) : []),
  undeliverable: DROID_UNDELIVERABLE,
  bridge: droidBridge,
};
