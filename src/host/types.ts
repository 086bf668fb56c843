/**
 * Shapes shared by the reference host runtime (src/host): tools, tool results, the hook
 * runner the runtime fires events through, the prompter (the user), and the MCP attachment
 * point. Plain data and function types; the runtime is wired in runtime.ts.
 */
import type { z } from 'zod';
import type { EventName } from '../events/catalog.js';
import type { RunContext } from '../engine/engine.js';
import type { Decision } from '../reduce/reduce.js';

/** Anything that fires hook events: a SessionHandle of createHookManager, or a HookEngine. */
export interface HookRunner {
  run(event: EventName, input: Record<string, unknown>, ctx?: RunContext): Promise<Decision>;
}

/** What a tool run sees besides its input. */
export interface ToolContext {
  /** Workspace root (real path): every file a tool touches must lie inside it. */
  workspace: string;
  /** Working directory of the call (the workspace, or a worktree inside it). */
  cwd: string;
  /** The session's frozen environment (bind env + SessionStart's CLAUDE_ENV_FILE exports). */
  env: Readonly<Record<string, string>>;
  signal: AbortSignal;
  toolUseId: string;
  sessionId: string;
  /** Directories added to the session (DirectoryAdded): confinement roots next to the workspace. */
  roots?: readonly string[];
  /**
   * Reports the shell's working directory after a Bash command (set for the main agent only).
   * The runtime moves the session cwd there (CwdChanged fires) and answers with a note for the
   * model when it did not (a directory outside the workspace).
   */
  onCwd?: (dir: string) => Promise<string | undefined>;
  /** Set inside a subagent. */
  agentId?: string;
  agentType?: string;
}

/** A tool's answer. `output` is the structured value PostToolUse hooks see as tool_response; `content` is what the model reads. */
export interface ToolResult {
  output: unknown;
  content: string;
}

/** A tool failure the model should see as an error result (PostToolUseFailure fires with `message`). */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly output?: unknown,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/**
 * One tool of the registry. MCP tools join the same registry as `mcp__server__tool`.
 * `inputSchema` is zod: the pipeline validates the model's input, and any rewrite, with it.
 */
export interface HostTool<I extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  description: string;
  inputSchema: z.ZodType<I>;
  /** Reads only (auto-allowed in default mode; allowed in plan mode). */
  readOnly?: boolean;
  /** Edits files (allowed by acceptEdits; refused in plan mode). */
  edits?: boolean;
  /** Needs no permission of its own (Task: every action of the subagent is checked on its own). */
  selfChecked?: boolean;
  run(input: I, ctx: ToolContext): Promise<ToolResult>;
}

export type ToolRegistry = Map<string, HostTool>;

/** A tool call as the model made it. */
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** What the user is asked when a tool call still needs permission after rules and hooks. */
export interface ToolApprovalRequest {
  toolName: string;
  input: Record<string, unknown>;
  toolUseId: string;
  /** Why it asks: the ask rule, the hook's reason, or the mode default. */
  reason: string;
}
export type ToolApproval = { behavior: 'allow' } | { behavior: 'deny'; message?: string };

/** An MCP server asks the user for input (form or URL). */
export interface ElicitationRequest {
  serverName: string;
  message: string;
  mode?: 'form' | 'url';
  url?: string;
  elicitationId?: string;
  /** JSON Schema of the requested form content. */
  requestedSchema?: Record<string, unknown>;
}
export interface ElicitationResponse {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

/**
 * The user, as the runtime reaches them. Everything is optional: a headless runtime has no
 * prompter, and then a tool approval is denied and an elicitation is declined.
 */
export interface Prompter {
  confirmTool?(request: ToolApprovalRequest, signal: AbortSignal): Promise<ToolApproval>;
  elicit?(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationResponse>;
}

/** Auto mode's judge of a call that still asks: no prompt, a verdict. */
export type AutoClassifier = (call: { toolName: string; input: Record<string, unknown> }) => Promise<{ allow: boolean; reason?: string }>;

/**
 * The MCP attachment point. The runtime calls the provider once, after SessionStart has frozen
 * the session environment and before the first turn; the provider starts its servers with
 * `env`, returns their tools (named `mcp__server__tool`) for the registry, and routes each
 * server's elicitation requests through Elicitation/ElicitationResult hooks and `elicitUI`.
 */
export interface McpStartContext {
  sessionId: string;
  cwd: string;
  /** The frozen session environment; servers must start with it. */
  env: Readonly<Record<string, string>>;
  hooks: HookRunner;
  /** The current permission mode, for hook inputs. */
  permissionMode(): string;
  /** The user's elicitation UI (the prompter's; headless: decline). Call it only when no hook answered. */
  elicitUI(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationResponse>;
  /** Fire a Notification (e.g. elicitation_dialog before showing the UI). */
  notify(notification: { message: string; title?: string; notification_type: string }): Promise<void>;
  onWarning(message: string): void;
}
export interface McpAttachment {
  tools: HostTool[];
  close(): Promise<void>;
}
export type McpProvider = (ctx: McpStartContext) => Promise<McpAttachment>;
