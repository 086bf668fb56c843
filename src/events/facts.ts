/**
 * The event facts: every rule the engine knows about an event, without zod, so lean modules
 * (dispatch's fast path, dialect adapters, the CLI's argument parsing) can import them. The
 * tables are in facts-prompt-tool.ts and facts-lifecycle.ts; the zod schemas keyed by the same
 * names are in schemas.ts, and catalog.ts re-exports both.
 *
 * Adding an event is one entry in a facts table plus its shapes in schemas.ts (a compile error
 * until both exist); test/events/facts.test.ts checks the rest is derived.
 */
import { LIFECYCLE_FACTS } from './facts-lifecycle.js';
import { PROMPT_AND_TOOL_FACTS } from './facts-prompt-tool.js';
import type { EventFacts, LlmVerdict, MergeRule } from './spec.js';

export type { EventFacts, LlmVerdict, MergeRule } from './spec.js';

/** Every event in lifecycle order. */
export const EVENT_FACTS = { ...PROMPT_AND_TOOL_FACTS, ...LIFECYCLE_FACTS } as const;

export type Facts = typeof EVENT_FACTS;
export type EventName = keyof Facts;
export const EVENT_NAMES = Object.keys(EVENT_FACTS) as EventName[];

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENT_FACTS, name);
}

/** The facts of one event, widened to the interface (optional rules read as undefined). */
export function eventFacts(event: EventName): EventFacts {
  return EVENT_FACTS[event];
}

/** Events that evaluate `if` conditions: the tool events. */
export type ToolEventName = {
  [E in EventName]: Facts[E]['ifCondition'] extends true ? E : never;
}[EventName];
export const TOOL_EVENTS = EVENT_NAMES.filter((e) => EVENT_FACTS[e].ifCondition) as ToolEventName[];

/** Events whose matcher sees a tool name (the tool events plus Kimi's PermissionResult): tool-name tables apply. */
export const TOOL_NAME_EVENTS: readonly EventName[] = EVENT_NAMES.filter((e) => eventFacts(e).matcher?.field === 'tool_name');
/** The same, as a set to look events up in. */
export const TOOL_NAME_EVENT_SET: ReadonlySet<string> = new Set(TOOL_NAME_EVENTS);

/**
 * The value an event's matcher runs against, read from its input
 * (the tool name for tool events). undefined: no matcher support, or the field is missing.
 */
export function matcherValue(event: EventName, input: Record<string, unknown>): string | undefined {
  const matcher = eventFacts(event).matcher;
  if (!matcher) return undefined;
  const value = input[matcher.field];
  if (typeof value !== 'string') return undefined;
  // Split on both separators: a Windows host sends backslash paths whatever platform we run on.
  return matcher.basename ? value.split(/[\\/]/).pop() : value;
}

/** The permission mode of a firing: the caller's, else the input's permission_mode. */
export function permissionModeOf(ctxMode: string | undefined, input: Record<string, unknown>): string | undefined {
  return ctxMode ?? (typeof input.permission_mode === 'string' ? input.permission_mode : undefined);
}

/** A permission event (PreToolUse, PermissionRequest): a block there is a deny, and it can still refuse a tool call before it runs. */
export function asksPermission(spec: EventFacts): boolean {
  return spec.decision === 'permission' || spec.decision === 'permission-request';
}

/** Under the skipToolHooksInPlanMode option: whether plan mode skips this event's hooks (`planModeSkip`). */
export function skipsInPlanMode(event: EventName, mode: string | undefined): boolean {
  return mode === 'plan' && eventFacts(event).planModeSkip === true;
}

/** Permission modes in which the agent asks nobody. */
const BYPASS_MODES: readonly string[] = ['bypassPermissions', 'yolo'];

/** Is yolo/bypass: nobody is asked. */
function isBypassMode(mode: string | undefined): boolean {
  return mode !== undefined && BYPASS_MODES.includes(mode);
}

/** An ask on this event meets a bypass mode (`bypassAsk`): nobody will answer it. */
export function askMeetsBypass(event: EventName, mode: string | undefined): boolean {
  return eventFacts(event).bypassAsk === true && isBypassMode(mode);
}

/**
 * Whether the event is denied (or blocked) when the hooks that judge it could not run at all — the
 * engine itself failed, not a hook. Yes where a block stops the guarded action (a tool call, a
 * prompt, a compaction, a config change, …): running it unjudged would fail open. No where nothing
 * can be blocked, and where a block makes the agent go on (Stop, SubagentStop, TeammateIdle,
 * TaskCompleted): blocking on an error that repeats would keep the agent from ever stopping.
 */
export function failsClosedWhenUnjudged(event: EventName): boolean {
  const f = eventFacts(event);
  return f.canBlock && f.continuationCap !== true && f.decision !== 'exit-or-continue';
}

/** Consecutive blocks of a `continuationCap` event before the agent is let stop anyway (engine default). */
export const DEFAULT_CONTINUATION_CAP = 8;

/**
 * How each hookSpecificOutput field merges across hooks, by field name (one rule per name, the
 * same on every event that honours it). Keys include the fields PermissionRequest's decision
 * hands on (updatedPermissions, interrupt). test/events/facts.test.ts checks that every field
 * of every event's output schema has a rule here, and that no rule is stale.
 */
export const OUTPUT_FIELD_MERGE = {
  hookEventName: 'own',
  additionalContext: 'own',
  permissionDecision: 'own',
  permissionDecisionReason: 'own',
  updatedInput: 'own',
  updatedToolOutput: 'own',
  updatedMCPToolOutput: 'own',
  decision: 'own',
  watchPaths: 'concat',
  updatedPermissions: 'concat',
  retry: 'any',
  interrupt: 'any',
  reloadSkills: 'any',
  action: 'restrictive',
  content: 'last',
  initialUserMessage: 'last',
  sessionTitle: 'last',
  suppressOriginalPrompt: 'last',
  displayContent: 'last',
  classifierContext: 'last',
  worktreePath: 'last',
  blockCompaction: 'last',
} as const satisfies Record<string, MergeRule>;

/** The merge rule of a hookSpecificOutput field; a name without a rule merges as 'last'. */
export function mergeRuleOf(field: string): MergeRule {
  return Object.hasOwn(OUTPUT_FIELD_MERGE, field) ? OUTPUT_FIELD_MERGE[field as keyof typeof OUTPUT_FIELD_MERGE] : 'last';
}

/** What a prompt/agent hook's ok:false does on the event: its `llmVerdict`, else derived from how it blocks. */
export function llmVerdictOf(event: EventName): LlmVerdict {
  const f = eventFacts(event);
  if (f.llmVerdict) return f.llmVerdict;
  if (f.topLevelBlock) return 'block';
  if (f.canBlock && f.exit2 === 'block') return 'exit2';
  return 'none';
}
