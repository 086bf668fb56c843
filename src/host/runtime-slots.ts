/**
 * The runtime's extension points, one ordered slot each (slots.ts). The runtime fires them
 * from the place where each thing happens; the permission gate, the plan-mode guard and the
 * hooks engine (hook-listeners.ts) are listeners like any other.
 */
import { createSlot, type Slot } from './slots.js';
import type { HostPermissionMode, RuleVerdict } from './permissions.js';
import type { HostTool, ToolCall } from './types.js';

/** Who is acting: the main agent, or a subagent (hook inputs then carry agent_id/agent_type). */
export interface Actor {
  agentId?: string;
  agentType?: string;
}

/** Before a tool runs. A veto stops it; the permission gate defers approval with waitUntil. */
export interface BeforeToolEvent extends Actor {
  tool: HostTool;
  toolUseId: string;
  /** The model's input as validated; never changed. */
  readonly originalInput: Record<string, unknown>;
  /** The input the tool will run with (after accepted rewrites). */
  input: Record<string, unknown>;
  cwd: string;
  mode: HostPermissionMode;
  /** The rule verdict of the current input (set by the permission gate, re-set after a rewrite). */
  rule?: RuleVerdict;
  /** What PreToolUse hooks decided (allow / ask, with the reason); deny and defer veto instead. */
  hook?: { decision: 'allow' | 'ask'; reason?: string };
  /** Context for the model next to the tool result. */
  additionalContext: string[];
  /** Who rewrote the input, in order. */
  rewrites: string[];
  /**
   * Accept a rewritten input: rebuild the invocation with the tool's schema (an invalid rewrite
   * is a validation error, never a fallback to the original), re-check workspace isolation,
   * re-evaluate the permission rules. Vetoes and returns false on any failure.
   */
  rewriteInput(input: Record<string, unknown>, by: string): boolean;
  /** Set by the approval step when the call was denied in auto mode (PermissionDenied fired). */
  autoDenied?: { reason: string; retry: boolean };
}

/** A call that still asks after rules and PreToolUse: hooks may answer before the user is asked. */
export interface PermissionRequestEvent extends Actor {
  tool: HostTool;
  toolUseId: string;
  input: Record<string, unknown>;
  mode: HostPermissionMode;
  cwd: string;
  suggestions: Array<Record<string, unknown>>;
  /** Set by a listener that decided. */
  decision?:
    | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: Array<Record<string, unknown>> }
    | { behavior: 'deny'; message?: string; interrupt?: boolean };
}

/** The approval of one call was resolved (by a rule, a hook, the user or the auto classifier). */
export interface PermissionResultEvent extends Actor {
  tool: HostTool;
  toolUseId: string;
  input: Record<string, unknown>;
  mode: HostPermissionMode;
  cwd: string;
  decision: 'allow' | 'deny';
  reason?: string;
}

/** Auto mode denied a call; listeners may let the model retry. */
export interface PermissionDeniedEvent extends Actor {
  tool: HostTool;
  toolUseId: string;
  input: Record<string, unknown>;
  mode: HostPermissionMode;
  cwd: string;
  reason: string;
  retry: boolean;
}

/** After a tool ran (ok) or failed. Listeners may replace the output and add context. */
export interface AfterToolEvent extends Actor {
  tool: HostTool;
  toolUseId: string;
  input: Record<string, unknown>;
  mode: HostPermissionMode;
  cwd: string;
  durationMs: number;
  ok: boolean;
  /** Structured output (ok) — replaceable. */
  output?: unknown;
  /** Model-facing text — replaceable. */
  content: string;
  error?: string;
  isInterrupt?: boolean;
  additionalContext: string[];
  /** Feedback next to the result (PostToolUse decision:"block" reason). */
  feedback: string[];
  /** continue:false from a hook: stop the loop after this batch. */
  stop?: string;
}

export interface ToolBatchEvent extends Actor {
  mode: HostPermissionMode;
  cwd: string;
  calls: Array<{ toolName: string; toolInput: Record<string, unknown>; toolUseId: string; toolResponse: string }>;
  additionalContext: string[];
}

export interface PromptEvent extends Actor {
  prompt: string;
  mode: HostPermissionMode;
  cwd: string;
  additionalContext: string[];
  /** continue:false: stop the session's work on this prompt. */
  stop?: string;
}

export interface TurnEvent extends Actor {
  turnId: string;
  mode: HostPermissionMode;
  cwd: string;
}

export interface MessageDisplayEvent extends Actor {
  turnId: string;
  messageId: string;
  text: string;
  /** What is shown (listeners may replace it; the transcript keeps `text`). */
  display: string;
  mode: HostPermissionMode;
  cwd: string;
}

/** The agent (or a subagent) is about to stop. A veto keeps it going with the veto reason. */
export interface StopEvent extends Actor {
  mode: HostPermissionMode;
  cwd: string;
  stopHookActive: boolean;
  lastAssistantMessage: string;
  /** Subagents: the subagent's transcript. */
  agentTranscriptPath?: string;
  /** Non-blocking feedback that also keeps the agent going. */
  additionalContext: string[];
  /** continue:false: stop now, whatever else was said. */
  stop?: string;
}

export interface StopFailureEvent extends Actor {
  mode: HostPermissionMode;
  cwd: string;
  error: string;
  errorDetails?: string;
  lastAssistantMessage?: string;
}

export interface InterruptEvent extends Actor {
  mode: HostPermissionMode;
  cwd: string;
  reason: string;
}

export interface NotificationEvent extends Actor {
  mode: HostPermissionMode;
  cwd: string;
  message: string;
  title?: string;
  notificationType: string;
}

export interface SubagentStartEvent extends Actor {
  agentId: string;
  agentType: string;
  mode: HostPermissionMode;
  cwd: string;
  additionalContext: string[];
}

export interface CompactEvent {
  trigger: 'manual' | 'auto';
  customInstructions: string;
  mode: HostPermissionMode;
  cwd: string;
}

export interface PostCompactEvent {
  trigger: 'manual' | 'auto';
  summary: string;
  mode: HostPermissionMode;
  cwd: string;
}

export interface SessionTickEvent {
  uptimeMs: number;
  intervalMs: number;
  mode: HostPermissionMode;
  cwd: string;
}

export interface SessionEndEvent {
  reason: string;
  mode: HostPermissionMode;
  cwd: string;
  signal?: AbortSignal;
}

export interface InstructionsEvent {
  filePath: string;
  memoryType: string;
  loadReason: string;
  mode: HostPermissionMode;
  cwd: string;
}

export interface PromptQueuedEvent {
  prompt: string;
  mode: HostPermissionMode;
  cwd: string;
}

export interface RuntimeSlots {
  beforeTool: Slot<BeforeToolEvent>;
  permissionRequest: Slot<PermissionRequestEvent>;
  permissionResult: Slot<PermissionResultEvent>;
  permissionDenied: Slot<PermissionDeniedEvent>;
  afterTool: Slot<AfterToolEvent>;
  afterToolBatch: Slot<ToolBatchEvent>;
  promptSubmit: Slot<PromptEvent>;
  promptQueued: Slot<PromptQueuedEvent>;
  turnStart: Slot<TurnEvent>;
  messageDisplay: Slot<MessageDisplayEvent>;
  beforeStop: Slot<StopEvent>;
  stopFailure: Slot<StopFailureEvent>;
  interrupt: Slot<InterruptEvent>;
  notification: Slot<NotificationEvent>;
  subagentStart: Slot<SubagentStartEvent>;
  beforeSubagentStop: Slot<StopEvent>;
  beforeCompact: Slot<CompactEvent>;
  afterCompact: Slot<PostCompactEvent>;
  sessionHeartbeat: Slot<SessionTickEvent>;
  sessionEnd: Slot<SessionEndEvent>;
  instructionsLoaded: Slot<InstructionsEvent>;
}

export function createRuntimeSlots(): RuntimeSlots {
  return {
    beforeTool: createSlot('beforeTool'),
    permissionRequest: createSlot('permissionRequest'),
    permissionResult: createSlot('permissionResult'),
    permissionDenied: createSlot('permissionDenied'),
    afterTool: createSlot('afterTool'),
    afterToolBatch: createSlot('afterToolBatch'),
    promptSubmit: createSlot('promptSubmit'),
    promptQueued: createSlot('promptQueued'),
    turnStart: createSlot('turnStart'),
    messageDisplay: createSlot('messageDisplay'),
    beforeStop: createSlot('beforeStop'),
    stopFailure: createSlot('stopFailure'),
    interrupt: createSlot('interrupt'),
    notification: createSlot('notification'),
    subagentStart: createSlot('subagentStart'),
    beforeSubagentStop: createSlot('beforeSubagentStop'),
    beforeCompact: createSlot('beforeCompact'),
    afterCompact: createSlot('afterCompact'),
    sessionHeartbeat: createSlot('sessionHeartbeat'),
    sessionEnd: createSlot('sessionEnd'),
    instructionsLoaded: createSlot('instructionsLoaded'),
  };
}

export type { ToolCall };
