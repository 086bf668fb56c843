/**
 * Cline CLI: no hooks file. Each hook is an executable named after its event (case-insensitive,
 * any of `"" .sh .js .mjs .ts .py …`) in `~/.cline/hooks/`, `~/Documents/Cline/Hooks/` or a
 * workspace's `.clinerules/hooks/` / `.cline/hooks/`; every file of an event runs, with no matcher.
 * Its payload names the event in `hookName` (tool_call, tool_result, …) and carries the call as
 * `tool_call{id,name,input}`; the workspace is `workspaceRoots[0]`. Its answer is stdout JSON only
 * (`cancel`, `errorMessage`, `context`/`contextModification`, `overrideInput`): **the exit code is
 * never read**, so an exit-2 guard fails open natively, and the only stop is `cancel`, which ends
 * the whole task. Only PreToolUse and PostToolUse are waited for; the others run detached.
 * Source: cline 3.0.65 (@cline/core 0.0.86 dist: the hook file bridge and its output schema).
 * Reader: reader.ts; wire: wire.ts; detection: detect.ts (this folder).
 */
import type { EventName } from '../../events/catalog.js';
import { toolTable } from '../shared/facts.js';
import type { Dialect, EventMapping, ToolMapping, Undeliverable } from '../types.js';
import { detectCline } from '../detectors.js';

const EVENTS: readonly EventMapping[] = [
  { native: 'PreToolUse', event: 'PreToolUse' },
  { native: 'PostToolUse', event: 'PostToolUse' },
  { native: 'UserPromptSubmit', event: 'UserPromptSubmit', note: 'runs detached: its answer is never read' },
  { native: 'TaskStart', event: 'SessionStart', note: 'runs detached: its answer is never read' },
  { native: 'TaskResume', event: 'SessionStart', note: 'runs detached: its answer is never read' },
  { native: 'TaskComplete', event: 'Stop', note: 'runs detached after the task ended: it cannot keep it going' },
  { native: 'TaskError', event: 'StopFailure', note: 'runs detached' },
  { native: 'SessionShutdown', event: 'SessionEnd', note: 'runs detached' },
  { native: 'TaskCancel', note: 'the user cancelled the task; no equivalent' },
  { native: 'PreCompact', note: 'Cline 3.0 maps this file to no event: it never runs' },
];

/** The payload's `hookName` → the event file it stands for. */
const HOOK_NAMES: Readonly<Record<string, string>> = {
  tool_call: 'PreToolUse',
  tool_result: 'PostToolUse',
  prompt_submit: 'UserPromptSubmit',
  agent_start: 'TaskStart',
  agent_resume: 'TaskResume',
  agent_end: 'TaskComplete',
  agent_error: 'TaskError',
  agent_abort: 'TaskCancel',
  session_shutdown: 'SessionShutdown',
};

/** An event file name or payload hookName (any case) → its mapping. */
export function clineEvent(name: string): EventMapping | undefined {
  const file = HOOK_NAMES[name] ?? name;
  return EVENTS.find((m) => m.native.toLowerCase() === file.toLowerCase());
}

/** Cline's tools; run_commands and editor inputs are translated by the wire codec (their shape differs). */
export const CLINE_TOOLS: readonly ToolMapping[] = [
  { canonical: 'Bash', native: 'run_commands' },
  { canonical: 'Read', native: 'read_files' },
  { canonical: 'Edit', native: 'editor', fields: { file_path: 'path', old_string: 'old_text', new_string: 'new_text' } },
  { canonical: 'Write', native: 'editor', fields: { file_path: 'path', content: 'new_text' } },
  { canonical: 'ApplyPatch', native: 'apply_patch' },
  { canonical: 'Grep', native: 'search_codebase' },
  { canonical: 'WebFetch', native: 'fetch_web_content' },
  { canonical: 'AskUserQuestion', native: 'ask_question' },
  { canonical: 'Task', native: 'spawn_agent' },
];
export const CLINE_TOOL_TABLE = toolTable(CLINE_TOOLS);

const V = 'Cline 3.0.65';
const detached = (event: EventName, blocking: boolean, what: string): Undeliverable => ({
  event,
  part: 'fire',
  ...(blocking ? { blocking: true } : {}),
  version: V,
  what: `its ${what} hook runs detached (fire-and-forget): the answer is never read, so it can neither block nor add context`,
});
/** What the agent cannot deliver (src/agents/shared/undeliverable.ts; docs/dialects.md "Not deliverable by the agent"). */
export const CLINE_UNDELIVERABLE: readonly Undeliverable[] = [
  detached('UserPromptSubmit', true, 'UserPromptSubmit (prompt_submit; not fired at all for the task’s first prompt)'),
  detached('SessionStart', false, 'TaskStart/TaskResume'),
  detached('Stop', true, 'TaskComplete (agent_end)'),
];

export const cline: Dialect = {
  name: 'cline',
  title: 'Cline',
  format: 'json',
  // Cline names its workspace in the payload (workspaceRoots), not in the environment.
  projectDirEnv: [],
  // No document to read: the hooks are executables (reader.ts).
  configLocations: () => [],
  locations: {
    user: ['~/.cline/hooks/<Event>', '~/Documents/Cline/Hooks/<Event>'],
    project: ['.clinerules/hooks/<Event>', '.cline/hooks/<Event>'],
  },
  defaults: { timeoutSec: 120, timeoutUnit: 's' },
  events: EVENTS,
  tools: CLINE_TOOLS,
  // Every file of an event runs: there is no matcher.
  matcherMode: () => 'exact',
  keepsIdenticalHooks: true,
  detect: detectCline,
  configuredEvents: () => [],
  undeliverable: CLINE_UNDELIVERABLE,
};
