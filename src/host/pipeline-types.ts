/** The shapes of a tool pipeline: its options, one call's outcome, the pipeline object. */
import type { PermissionEngine } from './permissions.js';
import type { Actor, RuntimeSlots } from './runtime-slots.js';
import type { AutoClassifier, Prompter, ToolCall, ToolRegistry } from './types.js';

export interface ToolOutcome {
  toolUseId: string;
  toolName: string;
  /** The input the tool ran with (after rewrites), or the model's input when it never ran. */
  input: Record<string, unknown>;
  /** ok: ran and succeeded; error: ran and failed, or invalid input; denied: never ran. */
  status: 'ok' | 'error' | 'denied';
  /** What the model reads as the tool result (contexts and feedback included). */
  content: string;
  output?: unknown;
  /** Who denied: rule, hook, validation, isolation, plan, user, auto, permission-request. */
  deniedBy?: string;
  /** A hook asked to stop the agent (continue:false) or a PermissionRequest deny with interrupt. */
  stop?: string;
}

export interface PipelineOptions {
  tools: ToolRegistry;
  permissions: PermissionEngine;
  slots: RuntimeSlots;
  workspace: string;
  /** The session's working directory (read at every call: a Bash `cd` moves it). */
  cwd: string | (() => string);
  /** Directories added to the session: confinement roots next to the workspace. */
  roots?: () => readonly string[];
  /** Bash reports the shell's directory after a main-agent command; see ToolContext.onCwd. */
  onCwd?: (dir: string) => Promise<string | undefined>;
  sessionId: string;
  env: () => Readonly<Record<string, string>>;
  prompter?: Prompter;
  autoClassifier?: AutoClassifier;
  /** Run the calls of one batch concurrently (default) or one after another. */
  concurrency?: 'parallel' | 'serial';
  /** Each call's outcome as soon as it is known (before PostToolBatch). */
  onOutcome?: (outcome: ToolOutcome, actor: Actor) => void;
  onWarning?: (message: string) => void;
}

export interface ToolPipeline {
  /** `cwd` overrides the session cwd (a subagent in its worktree); then `cd` is not tracked. */
  run(call: ToolCall, opts?: RunOpts): Promise<ToolOutcome>;
  /** Run a batch, then PostToolBatch; `stop` is set when a hook stopped the loop. */
  runBatch(calls: readonly ToolCall[], opts?: RunOpts): Promise<{ outcomes: ToolOutcome[]; stop?: string; additionalContext: string[] }>;
}

export type RunOpts = { signal?: AbortSignal; actor?: Actor; cwd?: string };
