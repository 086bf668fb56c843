/**
 * The event catalog: the single source of truth for every hook event.
 * Types, input validation, reducers, docs and the settings JSON Schema all
 * derive from this table. Adding an event means adding one entry here.
 *
 * Facts come from Claude Code's hooks reference (origin 'claude') and Kimi
 * Code's extra events (origin 'kimi'). Entries are in lifecycle order; the Kimi
 * extras sit next to the Claude events they accompany.
 *
 * Input schemas are loose: unknown fields pass, so newer agent versions that
 * add fields keep validating. Values listed in the reference as enumerations
 * stay plain strings unless the engine branches on them, for the same reason.
 */
import { z } from 'zod';
import { commonInputShape, toolCallShape } from './common.js';
import type { EventSpec, HookTypeName } from './spec.js';

const s = z.string();
const bool = z.boolean();
const opt = <T extends z.ZodType>(t: T) => t.optional();
const jsonObject = z.record(z.string(), z.unknown());

type Shape = z.ZodRawShape;
/** input and output are written as functions returning the shapes: built on first read. */
type EntryInput = Omit<EventSpec, 'input' | 'output'> & { input: () => Shape; output: () => Shape };
type Entry<S extends EntryInput> = Omit<S, 'input' | 'output'> & {
  input: z.ZodObject<ReturnType<S['input']>, z.core.$loose>;
  output: z.ZodObject<ReturnType<S['output']>, z.core.$loose>;
};

/**
 * Optional input fields also accept null: agents send null for an absent value (Codex's Stop
 * `last_assistant_message` is a required nullable string). Inputs are only validated, never
 * rewritten, so a hook still sees the null the agent sent.
 */
export function nullTolerant(shape: Shape): Shape {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v instanceof z.ZodOptional ? v.nullable() : v]));
}

/**
 * Wraps the shapes in loose objects and keeps each entry's literal types (so TOOL_EVENTS etc. are typed).
 * The schemas are built on first read of `input` / `output`: a process handles one event or a
 * few, and building every event's schemas was a fifth of a `dispatch` (docs/performance.md).
 */
function ev<const S extends EntryInput>(spec: S): Entry<S> {
  let input: z.ZodObject | undefined;
  let output: z.ZodObject | undefined;
  return {
    ...spec,
    get input() {
      return (input ??= z.looseObject(nullTolerant(spec.input())));
    },
    get output() {
      return (output ??= z.looseObject(spec.output()));
    },
  } as unknown as Entry<S>;
}

const TOOL_MATCHER = { field: 'tool_name', exactSet: 'standard' } as const;

/** Events where the reference allows command, http and mcp_tool but not prompt/agent; function hooks are ours and run everywhere. */
const NO_LLM_HOOKS = ['command', 'http', 'mcp_tool', 'function'] as const satisfies readonly HookTypeName[];

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

export const catalog = {
  SessionStart: ev({
    origin: 'claude',
    summary: 'A session begins or resumes.',
    input: () => ({ source: s, model: opt(s), agent_type: opt(s), session_title: opt(s) }),
    output: () => ({
      additionalContext: opt(s),
      initialUserMessage: opt(s),
      sessionTitle: opt(s),
      watchPaths: opt(z.array(s)),
      reloadSkills: opt(bool),
    }),
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

  Setup: ev({
    origin: 'claude',
    summary: 'Claude Code was launched with --init-only, or --init / --maintenance in -p mode.',
    input: () => ({ trigger: s }),
    output: () => ({ additionalContext: opt(s) }),
    matcher: { field: 'trigger', exactSet: 'standard' },
    ifCondition: false,
    decision: 'context',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    // Plain stdout goes to the debug log only; context needs JSON additionalContext.
    plainStdout: 'log',
    universal: true,
    order: 'parallel',
    envFile: true,
    hookTypes: ['command', 'mcp_tool', 'function'],
  }),

  InstructionsLoaded: ev({
    origin: 'claude',
    summary: 'A CLAUDE.md or rules file was loaded into context (at session start or lazily).',
    input: () => ({
      file_path: s,
      memory_type: s,
      load_reason: s,
      globs: opt(z.array(s)),
      trigger_file_path: opt(s),
      parent_file_path: opt(s),
    }),
    output: () => ({}),
    matcher: { field: 'load_reason', exactSet: 'standard' },
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'ignore',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  UserPromptSubmit: ev({
    origin: 'claude',
    summary: 'The user submitted a prompt, before the model sees it; can block it or add context.',
    input: () => ({ prompt: s }),
    output: () => ({
      additionalContext: opt(s),
      sessionTitle: opt(s),
      // The reference lists it with the event fields but shows no example placement; we read it here.
      suppressOriginalPrompt: opt(bool),
    }),
    matcher: null,
    ifCondition: false,
    decision: 'block',
    topLevelBlock: true,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'context',
    universal: true,
    order: 'parallel',
    defaultTimeoutSec: 30,
  }),

  UserPromptQueued: ev({
    origin: 'kimi',
    summary: 'A prompt was queued while the agent is busy (Kimi; observation only).',
    // Kimi's exact payloads are not documented in our sources; fields are our best reading.
    input: () => ({ prompt: s }),
    output: () => ({}),
    // Kimi matches prompt events against the prompt text.
    matcher: { field: 'prompt', exactSet: 'standard' },
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  UserPromptExpansion: ev({
    origin: 'claude',
    summary: 'A user-typed slash command or MCP prompt expands into a prompt; can block the expansion.',
    input: () => ({
      expansion_type: s,
      command_name: s,
      command_args: s,
      command_source: s,
      prompt: s,
    }),
    output: () => ({ additionalContext: opt(s) }),
    matcher: { field: 'command_name', exactSet: 'standard' },
    ifCondition: false,
    decision: 'block',
    topLevelBlock: true,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'context',
    universal: true,
    order: 'parallel',
  }),

  TurnStarted: ev({
    origin: 'kimi',
    summary: 'A new agent turn begins (Kimi; observation only).',
    // Kimi's exact payloads are not documented in our sources; fields are our best reading.
    input: () => ({ turn_id: opt(s) }),
    output: () => ({}),
    matcher: null,
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  MessageDisplay: ev({
    origin: 'claude',
    summary: 'A batch of assistant message text is about to be displayed; can replace what is shown.',
    input: () => ({
      turn_id: s,
      message_id: s,
      index: z.number().int().nonnegative(),
      final: bool,
      delta: s,
    }),
    output: () => ({ displayContent: opt(s) }),
    matcher: null,
    ifCondition: false,
    decision: 'display',
    topLevelBlock: false,
    canBlock: false,
    // On failure (exit 2 included) the original text is displayed.
    exit2: 'ignore',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    defaultTimeoutSec: 10,
    hookTypes: NO_LLM_HOOKS,
  }),

  PreToolUse: ev({
    origin: 'claude',
    summary: 'Before a tool call executes; can allow, deny, ask, defer or rewrite its input.',
    input: () => ({ ...toolCallShape, tool_use_id: opt(s) }),
    output: () => ({
      permissionDecision: opt(z.enum(['allow', 'deny', 'ask', 'defer'])),
      permissionDecisionReason: opt(s),
      updatedInput: opt(jsonObject),
      additionalContext: opt(s),
    }),
    matcher: TOOL_MATCHER,
    ifCondition: true,
    decision: 'permission',
    // Top-level decision is deprecated here: "approve"/"block" map to allow/deny under the 'permission' model.
    topLevelBlock: false,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'log',
    universal: true,
    order: 'serial',
  }),

  PermissionRequest: ev({
    origin: 'claude',
    summary: "A permission dialog is about to be shown; hooks may allow or deny on the user's behalf.",
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
    matcher: TOOL_MATCHER,
    ifCondition: true,
    decision: 'permission-request',
    topLevelBlock: false,
    // Exit 2 is not honoured, but decision.behavior "deny" stops the call.
    canBlock: true,
    exit2: 'ignore',
    plainStdout: 'log',
    universal: true,
    order: 'serial',
  }),

  PermissionResult: ev({
    origin: 'kimi',
    summary: 'A permission request was resolved (Kimi; observation only).',
    // Kimi's exact payloads are not documented in our sources; fields are our best reading.
    input: () => ({ ...toolCallShape, tool_use_id: opt(s), decision: s, reason: opt(s) }),
    output: () => ({}),
    matcher: TOOL_MATCHER,
    // `if` is evaluated only on Claude's five tool events.
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'ignore',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  PostToolUse: ev({
    origin: 'claude',
    summary: 'After a tool call succeeds; can give feedback, add context or replace the tool output.',
    input: () => ({ ...toolCallShape, tool_response: z.unknown(), tool_use_id: opt(s), duration_ms: opt(z.number()) }),
    output: () => ({
      additionalContext: opt(s),
      classifierContext: opt(s),
      updatedToolOutput: opt(z.unknown()),
      updatedMCPToolOutput: opt(z.unknown()),
    }),
    matcher: TOOL_MATCHER,
    ifCondition: true,
    decision: 'block',
    topLevelBlock: true,
    // The tool already ran; a block only adds the reason next to the result.
    canBlock: false,
    exit2: 'feedback',
    plainStdout: 'log',
    universal: true,
    order: 'parallel',
  }),

  PostToolUseFailure: ev({
    origin: 'claude',
    summary: 'After a started tool call fails; can give feedback or add context.',
    input: () => ({
      ...toolCallShape,
      tool_use_id: opt(s),
      error: s,
      is_interrupt: opt(bool),
      duration_ms: opt(z.number()),
    }),
    output: () => ({ additionalContext: opt(s) }),
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

  PostToolBatch: ev({
    origin: 'claude',
    summary: 'After every tool call of a batch resolved, before the next model call; can stop the loop.',
    input: () => ({
      tool_calls: z.array(
        // tool_response here is the serialized tool_result content, not PostToolUse's structured output.
        z.looseObject({ tool_name: s, tool_input: jsonObject, tool_use_id: opt(s), tool_response: z.unknown() }),
      ),
    }),
    output: () => ({ additionalContext: opt(s) }),
    matcher: null,
    ifCondition: false,
    decision: 'block',
    topLevelBlock: true,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'log',
    universal: true,
    order: 'parallel',
  }),

  PermissionDenied: ev({
    origin: 'claude',
    summary: 'Auto mode denied a tool call; a hook may tell the model it can retry.',
    input: () => ({ ...toolCallShape, tool_use_id: opt(s), reason: s }),
    output: () => ({ retry: opt(bool) }),
    matcher: TOOL_MATCHER,
    ifCondition: true,
    decision: 'retry',
    topLevelBlock: false,
    canBlock: false,
    // The denial already happened; exit code and stderr are ignored.
    exit2: 'ignore',
    plainStdout: 'log',
    universal: true,
    order: 'parallel',
  }),

  Notification: ev({
    origin: 'claude',
    summary: 'The agent sends a notification (permission prompt, idle, auth, elicitation, ...).',
    input: () => ({ message: s, title: opt(s), notification_type: s }),
    output: () => ({}),
    matcher: { field: 'notification_type', exactSet: 'standard' },
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'ignore',
    plainStdout: 'log',
    // systemMessage and continue are discarded; terminalSequence still fires.
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  SubagentStart: ev({
    origin: 'claude',
    summary: 'A subagent is spawned; hooks may add context to it.',
    // Required here, optional in the common fields.
    input: () => ({ agent_id: s, agent_type: s }),
    output: () => ({ additionalContext: opt(s) }),
    matcher: { field: 'agent_type', exactSet: 'standard' },
    ifCondition: false,
    decision: 'context',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    plainStdout: 'log',
    universal: true,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  SubagentStop: ev({
    origin: 'claude',
    summary: 'A subagent finished responding; a block keeps it running with the reason.',
    input: () => ({ ...stopInput, agent_id: s, agent_type: s, agent_transcript_path: s }),
    output: () => ({ additionalContext: opt(s) }),
    matcher: { field: 'agent_type', exactSet: 'standard' },
    ifCondition: false,
    decision: 'block',
    topLevelBlock: true,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'log',
    universal: true,
    order: 'serial',
  }),

  TaskCreated: ev({
    origin: 'claude',
    summary: 'A task is being created via TaskCreate; a block cancels it.',
    input: () => taskInput,
    output: () => ({}),
    matcher: null,
    ifCondition: false,
    decision: 'block',
    topLevelBlock: true,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'log',
    // continue:false is ignored on this event; nothing says systemMessage is.
    universal: false,
    keepsSystemMessage: true,
    order: 'parallel',
  }),

  TaskStarted: ev({
    origin: 'kimi',
    summary: 'A background task started (Kimi; observation only).',
    // Kimi's exact payloads are not documented in our sources; fields are our best reading.
    input: () => ({ task_id: s, task_subject: opt(s), task_type: opt(s) }),
    output: () => ({}),
    matcher: null,
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  TaskCompleted: ev({
    origin: 'claude',
    summary: 'A task is being marked completed; exit 2 keeps it open, continue:false stops the teammate.',
    input: () => taskInput,
    output: () => ({}),
    matcher: null,
    ifCondition: false,
    decision: 'exit-or-continue',
    topLevelBlock: false,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'log',
    universal: true,
    order: 'parallel',
  }),

  Stop: ev({
    origin: 'claude',
    summary: 'The agent finished responding; a block makes it continue with the reason.',
    input: () => stopInput,
    output: () => ({ additionalContext: opt(s) }),
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

  StopFailure: ev({
    origin: 'claude',
    summary: 'The turn ended on an API error instead of Stop; logging only.',
    input: () => ({ error: s, error_details: opt(s), last_assistant_message: opt(s) }),
    output: () => ({}),
    matcher: { field: 'error', exactSet: 'narrow' },
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    // Output and exit code are ignored apart from terminalSequence.
    exit2: 'ignore',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  Interrupt: ev({
    origin: 'kimi',
    summary: 'The turn was cancelled, e.g. the user pressed Esc (Kimi; observation only).',
    // Kimi's exact payloads are not documented in our sources; fields are our best reading.
    input: () => ({ reason: opt(s) }),
    output: () => ({}),
    matcher: null,
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  TeammateIdle: ev({
    origin: 'claude',
    summary: 'An agent-team teammate is about to go idle; exit 2 keeps it working.',
    input: () => ({
      teammate_name: s,
      /** Deprecated in the reference; will be removed. */
      team_name: opt(s),
    }),
    output: () => ({}),
    matcher: null,
    ifCondition: false,
    decision: 'exit-or-continue',
    topLevelBlock: false,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'log',
    universal: true,
    order: 'parallel',
  }),

  ConfigChange: ev({
    origin: 'claude',
    summary: 'A settings, managed policy or skill file changed; a block keeps the old config.',
    input: () => ({ source: s, file_path: opt(s) }),
    output: () => ({}),
    matcher: { field: 'source', exactSet: 'standard' },
    ifCondition: false,
    decision: 'block',
    topLevelBlock: true,
    // Except for source "policy_settings", whose changes always apply (a host concern).
    canBlock: true,
    exit2: 'block',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  CwdChanged: ev({
    origin: 'claude',
    summary: 'The working directory changed; hooks may reset the FileChanged watch list.',
    input: () => ({ old_cwd: s, new_cwd: s }),
    output: () => ({ watchPaths: opt(z.array(s)) }),
    matcher: null,
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    plainStdout: 'log',
    // continue is discarded, systemMessage is shown.
    universal: false,
    keepsSystemMessage: true,
    order: 'parallel',
    envFile: true,
    hookTypes: NO_LLM_HOOKS,
  }),

  DirectoryAdded: ev({
    origin: 'claude',
    summary: 'A working directory was added mid-session (/add-dir or register_repo_root).',
    input: () => ({ directory: s, source: s }),
    output: () => ({}),
    matcher: { field: 'source', exactSet: 'standard' },
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    // Stderr goes to the debug log only.
    exit2: 'ignore',
    plainStdout: 'log',
    // continue is discarded; systemMessage reaches the model (slash_command) or the debug log.
    universal: false,
    keepsSystemMessage: true,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  FileChanged: ev({
    origin: 'claude',
    summary: 'A watched file changed on disk; hooks may update the watch list.',
    input: () => ({ file_path: s, event: s }),
    output: () => ({ watchPaths: opt(z.array(s)) }),
    // The matcher filters on the changed file's basename, not the absolute path.
    matcher: { field: 'file_path', exactSet: 'narrow', basename: true },
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    plainStdout: 'log',
    universal: false,
    keepsSystemMessage: true,
    order: 'parallel',
    envFile: true,
    hookTypes: NO_LLM_HOOKS,
  }),

  WorktreeCreate: ev({
    origin: 'claude',
    summary: 'A worktree is being created; the hook creates it and returns its path.',
    input: () => ({ name: s }),
    output: () => ({ worktreePath: opt(s) }),
    matcher: null,
    ifCondition: false,
    decision: 'worktree',
    topLevelBlock: false,
    // Any non-zero exit (not only 2) or a missing path fails creation.
    canBlock: true,
    exit2: 'block',
    plainStdout: 'path',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  WorktreeRemove: ev({
    origin: 'claude',
    summary: 'A worktree is being removed; cleanup only.',
    input: () => ({ worktree_path: s }),
    output: () => ({}),
    matcher: null,
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    // Failures are logged in debug mode only.
    exit2: 'ignore',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  PreCompact: ev({
    origin: 'claude',
    summary: 'Before context compaction; can block it.',
    input: () => ({ trigger: s, custom_instructions: s }),
    // blockCompaction is this engine's explicit compaction guard, next to Claude's top-level decision:"block".
    output: () => ({ blockCompaction: opt(bool) }),
    matcher: { field: 'trigger', exactSet: 'standard' },
    ifCondition: false,
    decision: 'block',
    topLevelBlock: true,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'log',
    universal: false,
    order: 'serial',
    hookTypes: NO_LLM_HOOKS,
  }),

  PostCompact: ev({
    origin: 'claude',
    summary: 'After context compaction completed; follow-up only.',
    input: () => ({ trigger: s, compact_summary: s }),
    output: () => ({}),
    matcher: { field: 'trigger', exactSet: 'standard' },
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  SessionHeartbeat: ev({
    origin: 'kimi',
    summary: 'Periodic liveness tick of a running session, every 60 s in Kimi (observation only).',
    // Kimi's exact payloads are not documented in our sources; fields are our best reading.
    input: () => ({ uptime_ms: opt(z.number()), interval_ms: opt(z.number()) }),
    output: () => ({}),
    matcher: null,
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    // A notice every minute would be noise.
    exit2: 'ignore',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  SessionEnd: ev({
    origin: 'claude',
    summary: 'The session ends; cleanup only.',
    input: () => ({ reason: s }),
    output: () => ({}),
    matcher: { field: 'reason', exactSet: 'standard' },
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    defaultTimeoutSec: 1.5,
    hookTypes: NO_LLM_HOOKS,
  }),

  Elicitation: ev({
    origin: 'claude',
    summary: 'An MCP server requests user input; hooks may answer, decline or cancel without a dialog.',
    input: () => ({
      mcp_server_name: s,
      message: s,
      mode: opt(s),
      url: opt(s),
      elicitation_id: opt(s),
      requested_schema: opt(jsonObject),
    }),
    output: () => elicitationOutput,
    matcher: { field: 'mcp_server_name', exactSet: 'standard' },
    ifCondition: false,
    decision: 'elicitation',
    topLevelBlock: false,
    canBlock: true,
    // Exit 2 denies the elicitation; stderr is shown nowhere and hookSpecificOutput is ignored.
    exit2: 'block',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),

  ElicitationResult: ev({
    origin: 'claude',
    summary: 'The user answered an MCP elicitation; hooks may override or block the response.',
    input: () => ({
      mcp_server_name: s,
      action: elicitationAction,
      mode: opt(s),
      elicitation_id: opt(s),
      content: opt(jsonObject),
    }),
    output: () => elicitationOutput,
    matcher: { field: 'mcp_server_name', exactSet: 'standard' },
    ifCondition: false,
    decision: 'elicitation',
    topLevelBlock: false,
    canBlock: true,
    // Exit 2 turns the action into decline.
    exit2: 'block',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  }),
} as const satisfies Record<string, EventSpec>;

export type Catalog = typeof catalog;
export type EventName = keyof Catalog;
export const EVENT_NAMES = Object.keys(catalog) as EventName[];

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(catalog, name);
}

/** Events that evaluate `if` conditions: the tool events. */
export type ToolEventName = {
  [E in EventName]: Catalog[E]['ifCondition'] extends true ? E : never;
}[EventName];
export const TOOL_EVENTS = EVENT_NAMES.filter((e) => catalog[e].ifCondition) as ToolEventName[];

/**
 * The value an event's matcher runs against, read from its input
 * (the tool name for tool events). undefined: no matcher support, or the field is missing.
 */
export function matcherValue(event: EventName, input: Record<string, unknown>): string | undefined {
  const matcher = (catalog[event] as EventSpec).matcher;
  if (!matcher) return undefined;
  const value = input[matcher.field];
  if (typeof value !== 'string') return undefined;
  // Split on both separators: a Windows host sends backslash paths whatever platform we run on.
  return matcher.basename ? value.split(/[\\/]/).pop() : value;
}

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
      event === 'PreToolUse'
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
export type EventInput<E extends EventName> = Omit<CommonInput, 'hook_event_name'> &
  z.infer<Catalog[E]['input']> & { hook_event_name: E };
export type EventOutput<E extends EventName> = z.infer<Catalog[E]['output']>;
