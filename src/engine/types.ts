/** The engine's contract with its callers: options, run context, function registrations, the engine. */
import type { AuditWriter } from '../audit/sinks.js';
import type { HttpBackendOptions } from '../backends/http.js';
import type { PromptBackendOptions } from '../backends/prompt.js';
import type { Backend } from '../backends/types.js';
import type { EventName } from '../events/catalog.js';
import type { McpClientManager, McpClientManagerOptions } from '../mcp/manager.js';
import type { Decision, HookRecord } from '../reduce/reduce.js';
import type { ObserveContext } from '../telemetry/observe.js';
import type { FailureBehavior, FunctionHandler, HookHandler, NormalizedHook, SessionSnapshot } from '../types.js';
import type { AuditSink } from './audit.js';
import type { BuiltinHooks } from './builtin-hooks.js';
import type { SessionCounterStore } from './session-counters.js';

export interface HookEngineOptions {
  /** Hooks from loadConfig() (or anywhere); kept in this order. */
  hooks?: readonly NormalizedHook[];
  /** Project root: CLAUDE_PROJECT_DIR and the default cwd. */
  projectDir?: string;
  cwd?: string;
  homeDir?: string;
  sessionId?: string;
  /** Explicit environment given to command hooks on top of the minimal host environment. */
  sessionEnv?: Record<string, string>;
  /**
   * Names of host variables command hooks inherit besides the minimal set (the
   * `agentHooks.passEnv` setting of user or managed settings; docs/security.md).
   */
  passEnv?: readonly string[];
  /** All hooks off (config disabled, process disabled): every event returns its pass-through default. */
  disabled?: boolean;
  /**
   * Blade's rule: in `permission_mode: "plan"` PreToolUse and PostToolUse hooks do not run.
   * Default false, as in Claude Code, where they fire in plan mode (a secrets guard keeps guarding).
   */
  skipToolHooksInPlanMode?: boolean;
  /**
   * The engine's own hooks, each off by default (src/engine/builtin-hooks.ts): `codeReview`, a
   * prompt hook that reviews each file edit on PostToolUse, on only while the config has no
   * PostToolUse hook of its own. Planned and reduced like any hook; needs the `prompt` model.
   */
  builtinHooks?: BuiltinHooks;
  failureBehavior?: FailureBehavior;
  timeoutBehavior?: FailureBehavior;
  /** Engine-wide bound on live hook executions (default 8). */
  maxConcurrentHooks?: number;
  /** Consecutive Stop/SubagentStop blocks before the agent is let stop anyway (default 8). */
  stopHookMaxConsecutiveBlocks?: number;
  /**
   * Where the per-session counters live (the Stop-block count, the `once` hooks run): default
   * this engine's memory. An entry point whose firings are separate processes or replicas
   * passes a shared store (dispatch: a private state file per session; the policy server: its
   * database), so the rules hold across them.
   */
  sessionCounters?: SessionCounterStore;
  /**
   * Whether a `permission_mode` read from the payload is the host's own choice. Default false:
   * a mode an agent only reports is not proof that a person chose to skip approvals (`codex
   * exec` always reports bypassPermissions), so under a reported bypass a PreToolUse `ask` is
   * denied with the reason instead of becoming allow. A mode passed as RunContext.permissionMode
   * is always the host's choice (a bypass turns ask into allow).
   */
  trustReportedPermissionMode?: boolean;
  /**
   * Payload cap for a hook's input (default 100 KiB): only a tool's output (tool_response) is
   * shortened to fit, with a marker; what a hook judges (tool_input, a prompt, …) is passed whole
   * up to 16 MiB (or this cap, if larger), and past that the hook is not run and the call is denied
   * on events that can block (src/backends/payload.ts).
   */
  stdinLimitBytes?: number;
  /**
   * An input of the wrong type (after the harmless coercions of `coerceCommonFields`): 'throw'
   * (default) an InvalidHookInputError, for the host to handle; 'deny' a Decision that denies it
   * with the reason on events that fail closed when unjudged (`failsClosedWhenUnjudged`), and the
   * error elsewhere — what `dispatch` uses, where the agent reads an error as "proceed".
   */
  invalidInput?: 'throw' | 'deny';
  /** Per-stream stdout/stderr cap (default 1 MiB). */
  outputLimitBytes?: number;
  /**
   * 'bwrap': run every command hook under bubblewrap: no network, the file system read-only but the
   * project, its own PID namespace, so it cannot read its ancestors' environment. 'view': a reviewed
   * hook runs the very bytes of its pinned files that were checked, nothing else restricted
   * (src/backends/sandbox.ts; settings `agentHooks.sandbox`, which turns 'view' on by itself where the
   * agent confines the model's commands: src/config/confinement.ts). Default 'none'. Where bwrap is
   * missing or cannot start, the hook is not run and the call is denied on events that can block.
   */
  sandbox?: 'bwrap' | 'view' | 'none';
  /** Grace between SIGTERM and SIGKILL on timeout (ms, default 100). */
  killGraceMs?: number;
  /**
   * Fork command hooks from a small helper process instead of this one, so a hook costs the
   * same whatever this process's size (src/backends/spawner.ts; default true; the CLI, one
   * event per process, turns it off).
   */
  spawner?: boolean;
  /**
   * Wait for a command hook that declares itself async on its first stdout line, and read its whole
   * output as the firing's answer (Claude Code's own "forceSyncExecution"). Default false: the
   * firing goes on at the declaration and the hook ends in the background (`onAsyncResult`).
   * `agent-hooks dispatch` turns it on: the agent waits on its process anyway (docs/backends.md).
   */
  waitForAsyncDeclaration?: boolean;
  /** JSONL audit log path, or a sink function. */
  audit?: string | AuditSink;
  /** Audit sinks from settings (src/audit/sinks.ts): a record per hook execution and per decision. */
  auditWriter?: AuditWriter;
  /**
   * How long a decision waits for its records to reach every sink of `auditWriter` (ms, default
   * 250; 0: no wait). Records not written by then, and a sink that failed, are named in the
   * decision's warnings, so a lost audit is never silent. Also bounds the audit flush of close()
   * (default there: 5 s).
   */
  auditWaitMs?: number;
  /** Spans and metrics through @opentelemetry/api (default: on when AGENT_HOOKS_ENABLE_TELEMETRY=1; src/telemetry). */
  telemetry?: boolean;
  /** Backends by hook type; command and function are built in. */
  backends?: Partial<Record<HookHandler['type'], Backend>>;
  /** HTTP hooks: resolver, managed URL allowlist, header env allowlist (see docs/backends.md). */
  http?: HttpBackendOptions;
  /** Prompt (and agent) hooks: model provider, base URL, default model (see docs/backends.md). */
  prompt?: PromptBackendOptions;
  /**
   * MCP servers for mcp_tool hooks: a manager (the host owns and closes it) or manager options
   * (the engine creates the manager, with projectDir and onWarning defaulting to the engine's, and close() closes it).
   */
  mcp?: McpClientManager | McpClientManagerOptions;
  /** Validates a rewritten tool input; an invalid rewrite denies the call (never a silent fallback). */
  validateToolInput?: (toolName: string, input: Record<string, unknown>) => { ok: true } | { ok: false; error: string };
  /**
   * Called when a background hook finishes: one configured `async`/`asyncRewake`, or one that declared
   * itself async on its first stdout line (asyncRewake: exit 2 wakes the agent with the message).
   * `additionalContext`: what Claude Code would hand the model on its next request.
   */
  onAsyncResult?: (result: {
    hook: NormalizedHook;
    event: EventName;
    record: HookRecord;
    rewake?: string;
    additionalContext?: string;
  }) => void;
  /** Where over-long output strings are saved. */
  spillDir?: string;
  /**
   * Keep each hook's stdin, stdout and stderr on its record (and audit entry), each capped at
   * this many bytes: what `run --verbose` shows. Off by default: hook output may hold secrets.
   */
  captureIoBytes?: number;
  /** Also write the captured streams to the audit log (default: records only). */
  auditIo?: boolean;
  onWarning?: (message: string) => void;
}

export interface RunContext extends ObserveContext {
  /**
   * The permission mode the host chose (default: the payload's `permission_mode`, taken as only
   * reported: see HookEngineOptions.trustReportedPermissionMode).
   */
  permissionMode?: string;
  signal?: AbortSignal;
  cwd?: string;
  sessionId?: string;
  /** Frozen session snapshot handed to backends (model for prompt hooks). */
  session?: SessionSnapshot;
}

export interface FunctionHookRegistration<E extends EventName = EventName> {
  event: E;
  matcher?: string;
  if?: string;
  name?: string;
  timeout?: number;
  failureBehavior?: FailureBehavior;
  timeoutBehavior?: FailureBehavior;
  /** Without a project the hook applies to every project; with one, only there. */
  projectDir?: string;
  fn: FunctionHandler['fn'];
}

export interface HookEngine {
  run<E extends EventName>(event: E, input: Record<string, unknown>, ctx?: RunContext): Promise<Decision>;
  /** Register an in-process function hook; returns its unregister function. */
  register(reg: FunctionHookRegistration): () => void;
  /** The effective hooks (config order), optionally for one event. */
  list(event?: EventName): NormalizedHook[];
  /** Replace the config hooks (function registrations stay); firings already planned keep their plan. */
  setHooks(hooks: readonly NormalizedHook[]): void;
  /** Wait for background (async) hooks to finish. */
  drain(): Promise<void>;
  /** Drain, then close the audit log and the MCP servers the engine started. */
  close(): Promise<void>;
  readonly concurrency: { readonly active: number; readonly waiting: number };
}
