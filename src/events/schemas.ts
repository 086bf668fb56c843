/**
 * The events' zod schemas, keyed by the names in facts.ts: input validation, output validation,
 * the types of inputs and outputs, docs and the settings JSON Schema derive from them. The rules
 * (decision model, merging, matchers, ...) are facts (facts.ts); this module holds shapes only.
 *
 * Input schemas are loose: unknown fields pass, so newer agent versions that
 * add fields keep validating. Values listed in the reference as enumerations
 * stay plain strings unless the engine branches on them, for the same reason.
 */
import { z } from 'zod';
import { commonInputShape, toolCallShape } from './common.js';
import { EVENT_FACTS, EVENT_NAMES, type EventName, type Facts } from './facts.js';
import type { EventSpec } from './spec.js';
import { provideEventSchemas } from '../util/zod-slot.js';

const s = z.string();
const bool = z.boolean();
const opt = <T extends z.ZodType>(t: T) => t.optional();
const jsonObject = z.record(z.string(), z.unknown());

type Shape = z.ZodRawShape;

/**
 * Optional input fields also accept null: agents send null for an absent value (Codex's Stop
 * `last_assistant_message` is a required nullable string). Inputs are only validated, never
 * rewritten, so a hook still sees the null the agent sent.
 */
function nullTolerant(shape: Shape): Shape {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v instanceof z.ZodOptional ? v.nullable() : v]));
}

/** Entry of PermissionRequest's permission_suggestions input and updatedPermissions output. */
const permissionUpdate = z.looseObject({ type: s, destination: opt(s) });

/** Stop / SubagentStop: in-flight background work, present only when the task registry is reachable. */
const backgroundTask = z.looseObject({ id: s, type: s, status: s, description: opt(s) });
const sessionCron = z.looseObject({ id: s, schedule: s, recurring: bool, prompt: opt(s) });
const stopInput = {
  stop_hook_active: bool,
  // Optional: older agents and other dialects do not send it.
  last_assistant_message: opt(s),
  background_tasks: opt(z.array(backgroundTask)),
  session_crons: opt(z.array(sessionCron)),
};

const taskInput = {
  task_id: s,
  task_subject: s,
  task_description: opt(s),
  teammate_name: opt(s),
  /** Deprecated in the reference; will be removed. */
  team_name: opt(s),
};

const elicitationAction = z.enum(['accept', 'decline', 'cancel']);
const elicitationOutput = { action: opt(elicitationAction), content: opt(jsonObject) };

/**
 * Event-specific input fields and honoured hookSpecificOutput fields, written as functions:
 * built on first read. Keyed by every event name (the `satisfies` makes a missing one a compile error).
 */
const SHAPES = {
  SessionStart: {
    input: () => ({ source: s, model: opt(s), agent_type: opt(s), session_title: opt(s) }),
    output: () => ({
      additionalContext: opt(s),
      initialUserMessage: opt(s),
      sessionTitle: opt(s),
      watchPaths: opt(z.array(s)),
      reloadSkills: opt(bool),
    }),
  },
  Setup: {
    input: () => ({ trigger: s }),
    output: () => ({ additionalContext: opt(s) }),
  },
  InstructionsLoaded: {
    input: () => ({
      file_path: s,
      memory_type: s,
      load_reason: s,
      globs: opt(z.array(s)),
      trigger_file_path: opt(s),
      parent_file_path: opt(s),
    }),
    output: () => ({}),
  },
  UserPromptSubmit: {
    input: () => ({ prompt: s }),
    output: () => ({
      additionalContext: opt(s),
      sessionTitle: opt(s),
      // The reference lists it with the event fields but shows no example placement; we read it here.
      suppressOriginalPrompt: opt(bool),
    }),
  },
  UserPromptQueued: {
    // Kimi's exact payloads are not documented in our sources; fields are our best reading.
    input: () => ({ prompt: s }),
    output: () => ({}),
  },
  UserPromptExpansion: {
    input: () => ({
      expansion_type: s,
      command_name: s,
      command_args: s,
      command_source: s,
      prompt: s,
    }),
    output: () => ({ additionalContext: opt(s) }),
  },
  TurnStarted: {
    // Kimi's exact payloads are not documented in our sources; fields are our best reading.
    input: () => ({ turn_id: opt(s) }),
    output: () => ({}),
  },
  MessageDisplay: {
    input: () => ({
      turn_id: s,
      message_id: s,
      index: z.number().int().nonnegative(),
      final: bool,
      delta: s,
    }),
    output: () => ({ displayContent: opt(s) }),
  },
  PreToolUse: {
    input: () => ({ ...toolCallShape, tool_use_id: opt(s) }),
    output: () => ({
      permissionDecision: opt(z.enum(['allow', 'deny', 'ask', 'defer'])),
      permissionDecisionReason: opt(s),
      updatedInput: opt(jsonObject),
      additionalContext: opt(s),
    }),
  },
  PermissionRequest: {
    // Unlike the other tool events, no tool_use_id.
    input: () => ({ ...toolCallShape, permission_suggestions: opt(z.array(permissionUpdate)) }),
    output: () => ({
      decision: opt(
        z.looseObject({
          behavior: z.enum(['allow', 'deny']),
          updatedInput: opt(jsonObject),
          updatedPermissions: opt(z.array(permissionUpdate)),
          message: opt(s),
          interrupt: opt(bool),
        }),
      ),
    }),
  },
  PermissionResult: {
    // Kimi's exact payloads are not documented in our sources; fields are our best reading.
    input: () => ({ ...toolCallShape, tool_use_id: opt(s), decision: s, reason: opt(s) }),
    output: () => ({}),
  },
  PostToolUse: {
    input: () => ({ ...toolCallShape, tool_response: z.unknown(), tool_use_id: opt(s), duration_ms: opt(z.number()) }),
    output: () => ({
      additionalContext: opt(s),
      classifierContext: opt(s),
      updatedToolOutput: opt(z.unknown()),
      updatedMCPToolOutput: opt(z.unknown()),
    }),
  },
  PostToolUseFailure: {
    input: () => ({
      ...toolCallShape,
      tool_use_id: opt(s),
      error: s,
      is_interrupt: opt(bool),
      duration_ms: opt(z.number()),
    }),
    output: () => ({ additionalContext: opt(s) }),
  },
  PostToolBatch: {
    input: () => ({
      tool_calls: z.array(
        // tool_response here is the serialized tool_result content, not PostToolUse's structured output.
        z.looseObject({ tool_name: s, tool_input: jsonObject, tool_use_id: opt(s), tool_response: z.unknown() }),
      ),
    }),
    output: () => ({ additionalContext: opt(s) }),
  },
  PermissionDenied: {
    input: () => ({ ...toolCallShape, tool_use_id: opt(s), reason: s }),
    output: () => ({ retry: opt(bool) }),
  },
  Notification: {
    input: () => ({ message: s, title: opt(s), notification_type: s }),
    output: () => ({}),
  },
  SubagentStart: {
    // Required here, optional in the common fields.
    input: () => ({ agent_id: s, agent_type: s }),
    output: () => ({ additionalContext: opt(s) }),
  },
  SubagentStop: {
    input: () => ({ ...stopInput, agent_id: s, agent_type: s, agent_transcript_path: s }),
    output: () => ({ additionalContext: opt(s) }),
  },
  TaskCreated: {
    input: () => taskInput,
    output: () => ({}),
  },
  TaskStarted: {
    // Kimi's exact payloads are not documented in our sources; fields are our best reading.
    input: () => ({ task_id: s, task_subject: opt(s), task_type: opt(s) }),
    output: () => ({}),
  },
  TaskCompleted: {
    input: () => taskInput,
    output: () => ({}),
  },
  Stop: {
    input: () => stopInput,
    output: () => ({ additionalContext: opt(s) }),
  },
  StopFailure: {
    input: () => ({ error: s, error_details: opt(s), last_assistant_message: opt(s) }),
    output: () => ({}),
  },
  Interrupt: {
    // Kimi's exact payloads are not documented in our sources; fields are our best reading.
    input: () => ({ reason: opt(s) }),
    output: () => ({}),
  },
  TeammateIdle: {
    input: () => ({
      teammate_name: s,
      /** Deprecated in the reference; will be removed. */
      team_name: opt(s),
    }),
    output: () => ({}),
  },
  ConfigChange: {
    input: () => ({ source: s, file_path: opt(s) }),
    output: () => ({}),
  },
  CwdChanged: {
    input: () => ({ old_cwd: s, new_cwd: s }),
    output: () => ({ watchPaths: opt(z.array(s)) }),
  },
  DirectoryAdded: {
    input: () => ({ directory: s, source: s }),
    output: () => ({}),
  },
  FileChanged: {
    input: () => ({ file_path: s, event: s }),
    output: () => ({ watchPaths: opt(z.array(s)) }),
  },
  WorktreeCreate: {
    input: () => ({ name: s }),
    output: () => ({ worktreePath: opt(s) }),
  },
  WorktreeRemove: {
    input: () => ({ worktree_path: s }),
    output: () => ({}),
  },
  PreCompact: {
    input: () => ({ trigger: s, custom_instructions: s }),
    // blockCompaction: the event's blockField (facts-lifecycle.ts).
    output: () => ({ blockCompaction: opt(bool) }),
  },
  PostCompact: {
    input: () => ({ trigger: s, compact_summary: s }),
    output: () => ({}),
  },
  SessionHeartbeat: {
    // Kimi's exact payloads are not documented in our sources; fields are our best reading.
    input: () => ({ uptime_ms: opt(z.number()), interval_ms: opt(z.number()) }),
    output: () => ({}),
  },
  SessionEnd: {
    input: () => ({ reason: s }),
    output: () => ({}),
  },
  Elicitation: {
    input: () => ({
      mcp_server_name: s,
      message: s,
      mode: opt(s),
      url: opt(s),
      elicitation_id: opt(s),
      requested_schema: opt(jsonObject),
    }),
    output: () => elicitationOutput,
  },
  ElicitationResult: {
    input: () => ({
      mcp_server_name: s,
      action: elicitationAction,
      mode: opt(s),
      elicitation_id: opt(s),
      content: opt(jsonObject),
    }),
    output: () => elicitationOutput,
  },
} as const satisfies Record<EventName, { input: () => Shape; output: () => Shape }>;

type Shapes = typeof SHAPES;
type Entry<E extends EventName> = Facts[E] & {
  input: z.ZodObject<ReturnType<Shapes[E]['input']>, z.core.$loose>;
  output: z.ZodObject<ReturnType<Shapes[E]['output']>, z.core.$loose>;
};
export type Catalog = { [E in EventName]: Entry<E> };

/**
 * An event's facts with its schemas. The schemas are built on first read of `input` / `output`:
 * a process handles one event or a few, and building every event's schemas was a fifth of a
 * `dispatch` (docs/performance.md).
 */
function entry(event: EventName): EventSpec {
  const shapes = SHAPES[event] as { input: () => Shape; output: () => Shape };
  let input: z.ZodObject | undefined;
  let output: z.ZodObject | undefined;
  return {
    ...EVENT_FACTS[event],
    get input() {
      input ??= z.looseObject(nullTolerant(shapes.input()));
      return input;
    },
    get output() {
      output ??= z.looseObject(shapes.output());
      return output;
    },
  };
}

/** The catalog: every event's facts and schemas, in lifecycle order. */
export const catalog = Object.fromEntries(EVENT_NAMES.map((e) => [e, entry(e)])) as unknown as Catalog;

/** Full input schema of an event: common fields + event-specific fields (which win, e.g. a required agent_type). */
const fullInputCache = new Map<EventName, z.ZodType>();
export function inputSchema(event: EventName): z.ZodType {
  let schema = fullInputCache.get(event);
  if (!schema) {
    const spec = catalog[event] as EventSpec;
    schema = z.looseObject({
      ...nullTolerant(commonInputShape),
      ...(spec.input as z.ZodObject).shape,
      hook_event_name: z.literal(event),
    });
    fullInputCache.set(event, schema);
  }
  return schema;
}

/** Fields every event's JSON output may carry; some events discard them (see `universal`). */
const universalOutputShape = {
  continue: opt(bool),
  stopReason: opt(s),
  suppressOutput: opt(bool),
  systemMessage: opt(s),
  terminalSequence: opt(s),
};

/**
 * Schema of an event's full JSON output: universal fields, top-level
 * decision/reason where the event reads them, and hookSpecificOutput with
 * hookEventName. Loose at every level: unknown keys are linted elsewhere.
 */
const outputCache = new Map<EventName, z.ZodType>();
export function outputSchema(event: EventName): z.ZodType {
  let schema = outputCache.get(event);
  if (!schema) {
    const spec = catalog[event] as EventSpec;
    const decision =
      spec.decision === 'permission'
        ? { decision: opt(z.enum(['approve', 'block'])) } // deprecated form, maps to allow/deny
        : spec.topLevelBlock
          ? { decision: opt(z.literal('block')) }
          : {};
    schema = z.looseObject({
      ...universalOutputShape,
      ...decision,
      reason: opt(s),
      hookSpecificOutput: opt((spec.output as z.ZodObject).extend({ hookEventName: z.literal(event) })),
    });
    outputCache.set(event, schema);
  }
  return schema;
}

type CommonInput = z.infer<z.ZodObject<typeof commonInputShape>>;
export type EventInput<E extends EventName> = Omit<CommonInput, 'hook_event_name'> & z.infer<Catalog[E]['input']> & { hook_event_name: E };
export type EventOutput<E extends EventName> = z.infer<Catalog[E]['output']>;

provideEventSchemas({ inputSchema, outputSchema });
