/** The shapes of a host session (runtime.ts): its options, the session a host holds, trace entries. */
import type { LoadConfigOptions } from '../config/load.js';
import type { EventName } from '../events/catalog.js';
import type { Decision } from '../reduce/reduce.js';
import type { HookManager, HookManagerOptions, SessionEngineOptions, SessionHandle } from '../session/manager.js';
import type { SubagentDefinition, TurnResult } from './agent.js';
import type { CompactionResult, Summarizer } from './compaction.js';
import type { Message, Model } from './model.js';
import type { HostPermissionMode, PermissionEngine, PermissionRules } from './permissions.js';
import type { Actor, RuntimeSlots } from './runtime-slots.js';
import type { Task } from './tasks.js';
import type { ToolOutcome, ToolPipeline } from './tool-pipeline.js';
import type { AutoClassifier, ElicitationRequest, ElicitationResponse, HostTool, McpProvider, Prompter, ToolRegistry } from './types.js';

export type TraceEntry =
  | { kind: 'hooks'; event: EventName; decision: Decision }
  | { kind: 'tool'; outcome: ToolOutcome; actor: Actor }
  | { kind: 'message'; message: Message; actor: Actor }
  | { kind: 'display'; text: string; actor: Actor }
  | { kind: 'warning'; text: string }
  | { kind: 'session'; text: string };

export interface HostSessionOptions {
  /** The workspace: project directory of the hooks config, and the tools' confinement root. */
  workspace: string;
  sessionId?: string;
  model: Model;
  /** Config loading for the workspace (default: user, project, local and managed settings). */
  config?: Omit<LoadConfigOptions, 'cwd' | 'projectDir' | 'gate'>;
  /** Hook trust (see createHookManager). */
  trust?: HookManagerOptions['trust'];
  /** Engine options (audit log, timeouts, concurrency, backends…). */
  engineOptions?: SessionEngineOptions;
  /** A manager the host owns (then `config`/`trust` are its business, and end() only disposes this session). */
  manager?: HookManager;
  permissions?: PermissionRules;
  mode?: HostPermissionMode;
  /** Explicit session environment (SessionStart exports are added, then it is frozen). */
  env?: Record<string, string>;
  /** Extra tools next to the built-in eight (and Task). */
  tools?: HostTool[];
  prompter?: Prompter;
  autoClassifier?: AutoClassifier;
  mcp?: McpProvider;
  /** Subagent types of the Task tool (default: general-purpose). */
  subagents?: Record<string, SubagentDefinition>;
  /** SessionHeartbeat interval in ms (default 60 000; 0 turns it off). */
  heartbeatMs?: number;
  /** Outer guard on Stop / SubagentStop hooks (default 30 000 ms). */
  stopGuardMs?: number;
  /** SessionEnd's overall budget at shutdown (default 2 000 ms). */
  sessionEndBudgetMs?: number;
  /** End the session on SIGINT/SIGTERM (SessionEnd runs), then exit with 128+signal. */
  handleSignals?: boolean;
  maxSteps?: number;
  autoCompactChars?: number;
  summarize?: Summarizer;
  toolConcurrency?: 'parallel' | 'serial';
  /**
   * Run Setup hooks (trigger `init` or `maintenance`) before SessionStart, as `--init` /
   * `--maintenance` do; their CLAUDE_ENV_FILE exports join the session env and their
   * additionalContext comes first in the conversation. Default: no Setup.
   */
  setup?: 'init' | 'maintenance';
  /** FileChanged: quiet time before a burst of changes to one file is reported (default 100 ms). */
  fileWatchDebounceMs?: number;
  /** Load <workspace>/CLAUDE.md into context (InstructionsLoaded fires); default true. */
  loadInstructions?: boolean;
  /** Write JSONL transcripts here (hooks get transcript_path); default none. */
  transcriptDir?: string;
  onTrace?: (entry: TraceEntry) => void;
}

export interface HostSession {
  readonly id: string;
  readonly workspace: string;
  /** The frozen session environment. */
  readonly env: Readonly<Record<string, string>>;
  readonly messages: Message[];
  readonly slots: RuntimeSlots;
  readonly permissions: PermissionEngine;
  readonly tools: ToolRegistry;
  readonly pipeline: ToolPipeline;
  readonly hooks: SessionHandle;
  /** SessionStart's decision (context, env, records). */
  readonly start: Decision;
  /** Setup's decision, when the session started with `setup`. */
  readonly setup?: Decision;
  /** The session's task list (TaskCreate / TaskUpdate). */
  tasks(): Task[];
  /** The session's working directory: the workspace until a Bash `cd` or setCwd moves it. */
  readonly cwd: string;
  /** Directories added with addDirectory (confinement roots next to the workspace). */
  readonly directories: readonly string[];
  /** Environment added by CwdChanged/FileChanged CLAUDE_ENV_FILE exports (Bash sees it on top of env). */
  readonly dynamicEnv: Readonly<Record<string, string>>;
  /** Paths the FileChanged watcher watches now (matcher names in the cwd + watchPaths). */
  watchedPaths(): string[];
  /** Move the session cwd (inside the workspace or an added directory); CwdChanged fires. */
  setCwd(dir: string): Promise<void>;
  /** Add a working directory (confinement root); DirectoryAdded fires. */
  addDirectory(dir: string, source?: 'slash_command' | 'register_repo_root'): Promise<void>;
  /** Submit a prompt; while a turn runs it is queued (UserPromptQueued) and runs after it. */
  submit(prompt: string, opts?: { signal?: AbortSignal }): Promise<TurnResult>;
  /** Abort the running turn (Interrupt fires). */
  interrupt(reason?: string): void;
  /** Manual compaction; throws CompactionBlockedError when a PreCompact hook blocks. */
  compact(instructions?: string): Promise<CompactionResult>;
  /** The user's elicitation UI, as given to the MCP provider (headless: decline). */
  elicitUI(request: ElicitationRequest, signal?: AbortSignal): Promise<ElicitationResponse>;
  /** SessionEnd (own budget), close MCP servers, dispose the hooks session. Idempotent. */
  end(reason?: string): Promise<void>;
  readonly ended: boolean;
}

export type StartHostSessionResult = { ok: true; session: HostSession } | { ok: false; reason: string; decision: Decision };
