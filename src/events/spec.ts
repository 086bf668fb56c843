import type { z } from 'zod';

/**
 * How an event turns hook outputs into a decision. The reducer is generic;
 * this tag (plus the honoured-output schema) is all it needs to know.
 */
type DecisionModel =
  | 'permission' // PreToolUse: permissionDecision allow/deny/ask/defer, updatedInput
  | 'permission-request' // PermissionRequest: decision.behavior allow/deny
  | 'block' // top-level decision:"block" + reason
  | 'exit-or-continue' // TeammateIdle, TaskCompleted: exit 2 or continue:false
  | 'context' // SessionStart, Setup, SubagentStart: context only
  | 'elicitation' // Elicitation, ElicitationResult: action + content
  | 'display' // MessageDisplay: displayContent
  | 'retry' // PermissionDenied: retry:true
  | 'worktree' // WorktreeCreate: path on stdout / worktreePath
  | 'none'; // observation only

/** What exit code 2 does on this event. */
type Exit2Effect =
  | 'block' // blocks the guarded action; stderr is the reason
  | 'feedback' // action already happened; stderr is shown to the model
  | 'user' // stderr shown to the user only (systemMessage-like)
  | 'ignore'; // exit code and stderr ignored

/** What plain (non-JSON) stdout on exit 0 means. */
type PlainStdout = 'context' | 'log' | 'path';

export type HookTypeName = 'command' | 'http' | 'mcp_tool' | 'prompt' | 'agent' | 'function';

interface MatcherSpec {
  /** Field of the input the matcher runs against (e.g. tool_name, source). */
  field: string;
  /** Claude's exact-name character set: 'standard' = [A-Za-z0-9_\- ,|], 'narrow' = [A-Za-z0-9_|]. */
  exactSet: 'standard' | 'narrow';
  /** Match against the last path segment of the field (FileChanged matches the changed file's basename). */
  basename?: boolean;
}

/**
 * What a prompt or agent hook's ok:false answer becomes on an event (src/backends/prompt.ts).
 * "Fed back": the hook's continueOnBlock, or an agent hook — the reason goes back to the model
 * instead of ending the turn.
 */
export type LlmVerdict =
  | 'block' // top-level decision:"block" with the reason
  | 'stop-block' // block; an "impossible" prompt-hook answer lets the agent stop instead of looping
  | 'deny' // permissionDecision deny; also ends the turn unless fed back
  | 'block-or-end' // fed back: block; otherwise continue:false
  | 'exit2' // exit 2 with the reason on stderr
  | 'exit2-or-end' // fed back: exit 2; otherwise continue:false
  | 'ignored' // the event ignores prompt-hook verdicts (a command hook decides)
  | 'none'; // the event cannot be blocked

/**
 * How one hookSpecificOutput field of several hooks merges into `Decision.eventOutput`
 * (src/reduce/reduce.ts), in config order.
 */
export type MergeRule =
  | 'last' // the last hook that set it wins
  | 'concat' // arrays appended in config order
  | 'any' // booleans: true when any hook said true
  | 'restrictive' // Elicitation action: decline/cancel win over accept, whatever the order
  | 'own'; // read by the parse stage into the Decision's own fields (verdict, context, rewrites), never merged

/** Everything the engine knows about an event except its zod schemas (src/events/facts.ts). */
export interface EventFacts {
  /** Where the event comes from: Claude Code's reference, Kimi Code, or our own. */
  origin: 'claude' | 'kimi' | 'seed';
  /** One line: when the event fires. */
  summary: string;
  /** null: the event has no matcher support; a matcher on it is ignored. */
  matcher: MatcherSpec | null;
  /** Whether `if` permission-rule conditions are evaluated (tool events only). */
  ifCondition: boolean;
  decision: DecisionModel;
  /** Honours top-level { decision: "block", reason }. */
  topLevelBlock: boolean;
  /** Whether a block can stop the guarded action at all (exit 2 or JSON). */
  canBlock: boolean;
  exit2: Exit2Effect;
  plainStdout: PlainStdout;
  /** Honours universal continue/stopReason/systemMessage (some events discard them). */
  universal: boolean;
  /**
   * Honours systemMessage even though `universal` is false. Some events discard
   * `continue` but still show systemMessage (CwdChanged, FileChanged, DirectoryAdded).
   */
  keepsSystemMessage?: boolean;
  /** Serial: run in config order, accumulate, short-circuit. Parallel: bounded, merged in config order. */
  order: 'serial' | 'parallel';
  /** Default command/http/mcp_tool timeout in seconds for this event, when it differs from the engine's. */
  defaultTimeoutSec?: number;
  /** Hook types the event supports; undefined = all. */
  hookTypes?: readonly HookTypeName[];
  /** CLAUDE_ENV_FILE is provided to command hooks of this event. */
  envFile?: boolean;
  /** Under the engine's skipToolHooksInPlanMode option, the event's hooks do not run in permission_mode "plan". */
  planModeSkip?: boolean;
  /** In a bypass permission mode (BYPASS_MODES) nobody is asked: a hook's ask is answered without the user. */
  bypassAsk?: boolean;
  /** A block makes the agent continue; consecutive blocks per session are capped (stopHookMaxConsecutiveBlocks). */
  continuationCap?: boolean;
  /** In a subagent's frontmatter hooks the event fires as this one (Stop → SubagentStop). */
  subagentEvent?: string;
  /** A hookSpecificOutput boolean that blocks the event when true (next to the top-level decision). */
  blockField?: string;
  /** What a prompt/agent hook's ok:false does here; undefined: derived (`llmVerdictOf` in facts.ts). */
  llmVerdict?: LlmVerdict;
}

/** An event's facts plus its zod schemas (src/events/schemas.ts). */
export interface EventSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> extends EventFacts {
  /** Event-specific input fields (common fields are added by the catalog). */
  input: I;
  /** hookSpecificOutput fields the event honours (hookEventName is implied). */
  output: O;
}
