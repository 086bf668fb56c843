/**
 * Factory Droid: Claude-format hooks (`hooks.{Event}[] = {matcher, hooks}`) in
 * `~/.factory/hooks.json` / `.factory/hooks.json`, or the `hooks` key of `~/.factory/settings.json`,
 * `.factory/settings.json` and `.factory/settings.local.json`. Claude's event names, payloads and
 * output convention (exit 2 blocks, hookSpecificOutput), timeouts in seconds; matchers on
 * PreToolUse/PostToolUse, exact names or regexes. What differs is the tool vocabulary: the shell
 * tool is `Execute`, a new file is `Create`, a fetch is `FetchUrl`.
 * Sources: docs.factory.ai reference/hooks-reference and harness/hooks (settings, events, matchers).
 */
import { DROID_UNDELIVERABLE, withUndeliverableNotes } from './undeliverable.js';
import { join } from 'node:path';
import type { EventName } from '../events/catalog.js';
import type { HookBridge } from '../types.js';
import { groupEvents } from './claude.js';
import type { Decision } from '../reduce/reduce.js';
import { claudeOutput, failClosedReason, isObject, out, reasonOf, str, toolTable, TOOL_EVENTS } from './shared.js';
import type { Dialect, DispatchOutput, EventMapping, ToolMapping } from './types.js';

const DROID_EVENTS: readonly EventName[] = ['PreToolUse', 'PostToolUse', 'Notification', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact', 'SessionStart', 'SessionEnd'];
const EVENTS: readonly EventMapping[] = DROID_EVENTS.map((e) => ({ native: e, event: e }));
const NATIVE = new Set<string>(DROID_EVENTS);

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
const TOOLS = toolTable(DROID_TOOLS);

export const droidBridge: HookBridge = {
  matchValue: (hook, value) => (TOOL_EVENTS.has(hook.event) ? TOOLS.toNative(value) : value),
  encodePayload: (_hook, p) => (typeof p.tool_name === 'string' ? { ...p, tool_name: TOOLS.toNative(p.tool_name) } : p),
  // Droid's output convention is Claude's.
  decodeResult: (_hook, _payload, result) => result,
};

/**
 * Claude's convention, except where Droid 0.225 (`droid exec`, test/agents) does not do what
 * Claude does: an `ask` runs the call unasked, and `updatedToolOutput` is ignored, so the
 * original output reaches the model. Both fail closed: ask → deny with the reason; a
 * replacement → the output withheld with `continue: false`, which Droid does honour there.
 */
function encodeDroid(d: Decision, toolName: string | undefined): DispatchOutput {
  const notes: string[] = [];
  let e = d;
  if (d.event === 'PreToolUse' && (d.decision === 'ask' || d.decision === 'defer')) {
    e = { ...d, decision: 'deny', blocked: true, reason: failClosedReason(d, 'ask', 'Factory Droid') };
    notes.push('Factory Droid runs the call when a hook asks; denied instead');
  } else if (d.event === 'PostToolUse' && d.updatedOutput !== undefined && !toolName?.startsWith('mcp__')) {
    const replacement = typeof d.updatedOutput === 'string' ? d.updatedOutput : JSON.stringify(d.updatedOutput);
    const withheld = `${d.blocked ? `${reasonOf(d)}\n\n` : ''}the tool output was withheld: a hook replaced it, which Factory Droid cannot apply. Replacement: ${replacement}`;
    e = { ...d, updatedOutput: undefined, continue: false, stopReason: withheld, blocked: true, decision: 'block', reason: withheld };
    notes.push('Factory Droid ignores updatedToolOutput; the output was withheld (continue: false) instead');
  }
  return out(claudeOutput(e, { toolName }), 0, notes.map((n) => `agent-hooks: ${n}`).join('\n'));
}

export const droid: Dialect = {
  name: 'droid',
  title: 'Factory Droid',
  format: 'json',
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
  matcherMode: () => 'claude',
  detect(file, doc) {
    if (!isObject(doc) || !isObject(doc.hooks)) return 0;
    return /(^|[\\/])\.factory[\\/]/.test(file) ? 0.95 : 0;
  },
  configuredEvents: (doc) => (isObject(doc) ? groupEvents(doc.hooks) : []),
  async parse(doc, ctx) {
    return (await import('./config/droid.js')).parseDroid(doc, ctx);
  },
  async serialize(hooks) {
    return (await import('./config/droid.js')).serializeDroid(hooks);
  },
  decodePayload(raw, nativeEvent) {
    const name = nativeEvent ?? str(raw.hook_event_name);
    if (!name) return { skip: 'payload has no hook_event_name (pass --event)' };
    if (!NATIVE.has(name)) return { skip: `Factory Droid event ${JSON.stringify(name)} has no equivalent`, nativeEvent: name };
    const payload: Record<string, unknown> = { ...raw, hook_event_name: name };
    if (typeof raw.tool_name === 'string') payload.tool_name = TOOLS.toCanonical(raw.tool_name);
    return { event: name as EventName, nativeEvent: name, payload, raw };
  },
  encodeDecision: (d, input) => withUndeliverableNotes(DROID_UNDELIVERABLE, d, encodeDroid(d, str(input.payload.tool_name))),
  undeliverable: DROID_UNDELIVERABLE,
  noop: () => out(undefined),
  bridge: droidBridge,
};
