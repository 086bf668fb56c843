/**
 * The event catalog: the single source of truth for every hook event.
 * Types, input validation, reducers, docs and the settings JSON Schema all
 * derive from this table. Adding an event means adding one entry here.
 */
import { z } from 'zod';
import { commonInputShape, toolCallShape } from './common.js';
import type { EventSpec } from './spec.js';

const s = z.string();
const opt = <T extends z.ZodType>(t: T) => t.optional();

/** Identity helper that keeps each entry's literal schema types. */
function ev<I extends z.ZodRawShape, O extends z.ZodRawShape>(
  spec: Omit<EventSpec, 'input' | 'output'> & { input: I; output: O },
): EventSpec<z.ZodObject<I>, z.ZodObject<O>> {
  return { ...spec, input: z.looseObject(spec.input) as never, output: z.looseObject(spec.output) as never };
}

const TOOL_MATCHER = { field: 'tool_name', exactSet: 'standard' } as const;

export const catalog = {
  SessionStart: ev({
    origin: 'claude',
    summary: 'A session begins or resumes.',
    input: { source: s, model: opt(s), agent_type: opt(s), session_title: opt(s) },
    output: {
      additionalContext: opt(s),
      initialUserMessage: opt(s),
      sessionTitle: opt(s),
      watchPaths: opt(z.array(s)),
      reloadSkills: opt(z.boolean()),
    },
    matcher: { field: 'source', exactSet: 'standard' },
    ifCondition: false,
    decision: 'context',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    plainStdout: 'context',
    universal: true,
    order: 'parallel',
    envFile: true,
    hookTypes: ['command', 'mcp_tool', 'function'],
  }),

  PreToolUse: ev({
    origin: 'claude',
    summary: 'Before a tool call executes; can allow, deny, ask, defer or rewrite its input.',
    input: { ...toolCallShape, tool_use_id: opt(s) },
    output: {
      permissionDecision: opt(z.enum(['allow', 'deny', 'ask', 'defer'])),
      permissionDecisionReason: opt(s),
      updatedInput: opt(z.record(z.string(), z.unknown())),
      additionalContext: opt(s),
    },
    matcher: TOOL_MATCHER,
    ifCondition: true,
    decision: 'permission',
    topLevelBlock: false,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'log',
    universal: true,
    order: 'serial',
  }),

  PermissionRequest: ev({
    origin: 'claude',
    summary: 'A permission dialog is about to be shown; hooks may allow or deny on the user\'s behalf.',
    input: { ...toolCallShape, permission_suggestions: opt(z.array(z.unknown())) },
    output: {
      decision: opt(
        z.looseObject({
          behavior: z.enum(['allow', 'deny']),
          updatedInput: opt(z.record(z.string(), z.unknown())),
          updatedPermissions: opt(z.array(z.unknown())),
          message: opt(s),
          interrupt: opt(z.boolean()),
        }),
      ),
    },
    matcher: TOOL_MATCHER,
    ifCondition: true,
    decision: 'permission-request',
    topLevelBlock: false,
    canBlock: true,
    exit2: 'ignore',
    plainStdout: 'log',
    universal: true,
    order: 'serial',
  }),

  PostToolUse: ev({
    origin: 'claude',
    summary: 'After a tool call succeeds; can give feedback, add context or replace the tool output.',
    input: { ...toolCallShape, tool_response: z.unknown(), tool_use_id: opt(s), duration_ms: opt(z.number()) },
    output: {
      additionalContext: opt(s),
      updatedToolOutput: opt(z.unknown()),
      updatedMCPToolOutput: opt(z.unknown()),
    },
    matcher: TOOL_MATCHER,
    ifCondition: true,
    decision: 'block',
    topLevelBlock: true,
    canBlock: false,
    exit2: 'feedback',
    plainStdout: 'log',
    universal: true,
    order: 'parallel',
  }),

  Stop: ev({
    origin: 'claude',
    summary: 'The agent finished responding; a block makes it continue with the reason.',
    input: { stop_hook_active: z.boolean(), last_assistant_message: opt(s) },
    output: { additionalContext: opt(s) },
    matcher: null,
    ifCondition: false,
    decision: 'block',
    topLevelBlock: true,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'log',
    universal: true,
    order: 'serial',
  }),
} as const satisfies Record<string, EventSpec>;

export type Catalog = typeof catalog;
export type EventName = keyof Catalog;
export const EVENT_NAMES = Object.keys(catalog) as EventName[];

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(catalog, name);
}

/** Full input schema of an event: common fields + event-specific fields. */
const fullInputCache = new Map<EventName, z.ZodType>();
export function inputSchema(event: EventName): z.ZodType {
  let schema = fullInputCache.get(event);
  if (!schema) {
    const spec = catalog[event] as EventSpec;
    schema = (spec.input as z.ZodObject).extend({
      ...commonInputShape,
      hook_event_name: z.literal(event),
    });
    fullInputCache.set(event, schema);
  }
  return schema;
}

export type EventInput<E extends EventName> = z.infer<Catalog[E]['input']> & {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode?: string;
  hook_event_name: E;
  hook_execution_id: string;
  timestamp: string;
  [key: string]: unknown;
};
export type EventOutput<E extends EventName> = z.infer<Catalog[E]['output']>;
