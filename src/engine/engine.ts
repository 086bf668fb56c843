/**
 * The engine: event → plan → execute → parse → reduce → Decision.
 * Holds a frozen registry snapshot, the engine-wide concurrency bound, the Stop-loop
 * counters and the audit sink; everything else is delegated to stage modules.
 */
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { catalog, inputSchema, isEventName, type EventName } from '../events/catalog.js';
import { DEFAULT_CONTINUATION_CAP, eventFacts, permissionModeOf, skipsInPlanMode } from '../events/facts.js';
import type { EventSpec } from '../events/spec.js';
import { buildHookEnv, encodePayload, runCommand, substituteForShell, substitutePlaceholders } from '../backends/index.js';
import { makeResult } from '../backends/result.js';
import { formatZodIssues, parseExecution, type ParsedHook } from '../parse/output.js';
import { defineOwn, effectiveVerdict, policyVerdict, reduce, type Decision, type HookRecord, type ReduceEntry } from '../reduce/reduce.js';
import type {
  CommandHandler,
  ExecutionResult,
  FailureBehavior,
  FunctionHandler,
  HookHandler,
  NormalizedHook,
} from '../types.js';
import { fileAuditSink, type AuditEntry, type AuditSink } from './audit.js';
import { createEnvFile, evaluateEnvFile } from './env-file.js';
import { buildPlanIndex, planHooks, type CompiledHooks, type PlanIndex, type PlannedHook } from './plan.js';
import { createSemaphore } from './semaphore.js';
import { observeRun, type FiringObservation, type ObserveContext } from '../telemetry/observe.js';
import type { AuditWriter } from '../audit/sinks.js';
import type { HttpBackendOptions } from '../backends/http.js';
import type { PromptBackends, PromptBackendOptions } from '../backends/prompt.js';
import type { SessionSnapshot } from '../types.js';
import { mcpToolBackend } from '../backends/mcp-tool.js';
import { createMcpClientManager, isMcpClientManager, type McpClientManager, type McpClientManagerOptions } from '../mcp/manager.js';

/** A backend runs one hook and normalizes what happened. */
export type Backend = (hook: NormalizedHook, payload: Record<string, unknown>, ctx: BackendContext) => Promise<ExecutionResult>;

export interface BackendContext {
  timeoutMs: number;
  signal?: AbortSignal;
  cwd: string;
  projectDir: string;
  sessionEnv: Record<string, string>;
  envFile?: string;
  stdinLimitBytes: number;
  outputLimitBytes: number;
  /** The session's frozen snapshot, when the host runs sessions (prompt hooks read their model from it). */
  session?: SessionSnapshot;
}

/**
 * Default timeouts in seconds: the Claude reference's (command, http and mcp_tool 600 s; events
 * like UserPromptSubmit lower them in the catalog). A dialect's hooks carry their agent's own default.
 */
export const DEFAULT_TIMEOUTS: Record<HookHandler['type'], number> = {
  command: 600,
  http: 600,
  mcp_tool: 600,
  prompt: 30,
  agent: 60,
  function: 10,
};

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
  failureBehavior?: FailureBehavior;
  timeoutBehavior?: FailureBehavior;
  /** Engine-wide bound on live hook executions (default 8). */
  maxConcurrentHooks?: number;
  /** Consecutive Stop/SubagentStop blocks before the agent is let stop anyway (default 8). */
  stopHookMaxConsecutiveBlocks?: number;
  /** Payload cap for command stdin (default 100 KiB; oversized strings are shortened with a marker). */
  stdinLimitBytes?: number;
  /** Per-stream stdout/stderr cap (default 1 MiB). */
  outputLimitBytes?: number;
  /** Grace between SIGTERM and SIGKILL on timeout (ms, default 100). */
  killGraceMs?: number;
  /**
   * Fork command hooks from a small helper process instead of this one, so a hook costs the
   * same whatever this process's size (src/backends/spawner.ts; default true; the CLI, one
   * event per process, turns it off).
   */
  spawner?: boolean;
  /** JSONL audit log path, or a sink function. */
  audit?: string | AuditSink;
  /** Audit sinks from settings (src/audit/sinks.ts): a record per hook execution and per decision. */
  auditWriter?: AuditWriter;
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
  /** Called when an async hook finishes (asyncRewake: exit 2 wakes the agent with the message). */
  onAsyncResult?: (result: { hook: NormalizedHook; event: EventName; record: HookRecord; rewake?: string }) => void;
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
  permissionMode?: string;
  signal?: AbortSignal;
  cwd?: string;
  sessionId?: string;
  /** Frozen session snapshot handed to backends (model for prompt hooks). */
  session?: SessionSnapshot;
  /**
   * Run only the hooks with these ids that match (the reference runtime's per-file patch views,
   * src/host/patch-views.ts: a subset of the session's hooks on a payload others must not see).
   */
  onlyHooks?: ReadonlySet<string>;
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

export class InvalidHookInputError extends Error {
  constructor(
    readonly event: string,
    readonly issues: string,
  ) {
    super(`invalid ${event} input: ${issues}`);
    this.name = 'InvalidHookInputError';
  }
}

export function emptyDecision(event: EventName): Decision {
  return {
    event,
    blocked: false,
    additionalContext: [],
    systemMessages: [],
    continue: true,
    eventOutput: {},
    hooks: [],
    warnings: [],
  };
}

/** A backend whose implementation is imported on its first call. */
function lazyBackend(load: () => Promise<Backend>): Backend {
  let loaded: Promise<Backend> | undefined;
  return async (hook, payload, ctx) => (await (loaded ??= load()))(hook, payload, ctx);
}

export function createHookEngine(options: HookEngineOptions = {}): HookEngine {
  const projectDir = options.projectDir ?? options.cwd ?? process.cwd();
  const baseCwd = options.cwd ?? projectDir;
  const homeDir = options.homeDir ?? homedir();
  const semaphore = createSemaphore(Math.max(1, options.maxConcurrentHooks ?? 8));
  const stopCap = options.stopHookMaxConsecutiveBlocks ?? DEFAULT_CONTINUATION_CAP;
  const stopBlocks = new Map<string, number>();
  const pending = new Set<Promise<unknown>>();
  const warn = options.onWarning ?? (() => {});
  const parseOptions = (payload: Record<string, unknown>) => ({
    spillDir: options.spillDir,
    ...(typeof payload.tool_name === 'string' ? { toolName: payload.tool_name } : {}),
  });
  const fileSink = typeof options.audit === 'string' ? fileAuditSink(options.audit, (e) => warn(`audit log: ${e.message}`)) : undefined;
  const audit: AuditSink | undefined = typeof options.audit === 'function' ? options.audit : fileSink?.write;

  const configHooks = [...(options.hooks ?? [])];
  // Registrations by number (a Map keeps insertion order and deletes in O(1)); the plan index
  // is rebuilt once, at the next run, after any number of changes.
  const functionHooks = new Map<number, NormalizedHook>();
  let fnSeq = 0;
  const compiled: CompiledHooks = new Map();
  let built: PlanIndex | undefined = buildPlanIndex(configHooks, compiled);
  const currentIndex = (): PlanIndex => (built ??= buildPlanIndex(functionHooks.size === 0 ? configHooks : [...configHooks, ...functionHooks.values()], compiled));
  const rebuild = () => {
    built = undefined;
  };

  const ownedMcp = options.mcp && !isMcpClientManager(options.mcp) ? createMcpClientManager({ projectDir, onWarning: warn, ...options.mcp }) : undefined;
  const mcp = ownedMcp ?? (options.mcp as McpClientManager | undefined);
  // The HTTP client (undici) and the prompt backends load on the first hook that needs them, so
  // an engine with only command hooks starts without them (CLI cold start, docs/performance.md).
  let promptBackends: Promise<PromptBackends> | undefined;
  const loadPromptBackends = () => (promptBackends ??= import('../backends/prompt.js').then((m) => m.createPromptBackends(options.prompt)));
  const backends: Partial<Record<HookHandler['type'], Backend>> = {
    command: commandBackend(options),
    function: functionBackend,
    http: lazyBackend(() => import('../backends/http.js').then((m) => m.httpBackend(options.http))),
    prompt: lazyBackend(() => loadPromptBackends().then((b) => b.prompt)),
    agent: lazyBackend(() => loadPromptBackends().then((b) => b.agent)),
    ...(mcp ? { mcp_tool: mcpToolBackend(mcp) } : {}),
    ...options.backends,
  };

  async function execute(planned: PlannedHook, payload: Record<string, unknown>, ctx: BackendContext): Promise<ExecutionResult> {
    const backend = backends[planned.hook.handler.type];
    if (!backend) {
      return errorResult(`no backend for hook type "${planned.hook.handler.type}" in this engine`);
    }
    // A matcher that cannot be run in bounded time (matcher.ts): reported, never run; `finish` fails it closed.
    if (planned.matcher.refused) return errorResult(planned.matcher.refused);
    const release = await semaphore.acquire();
    try {
      // A dialect hook (Gemini, Kimi, …) gets its own agent's payload, and its answer is read in that agent's convention.
      const bridge = planned.hook.bridge;
      if (bridge) return bridge.decodeResult(planned.hook, payload, await backend(planned.hook, bridge.encodePayload(planned.hook, payload), ctx));
      return await backend(planned.hook, payload, ctx);
    } catch (err) {
      return errorResult(`backend failed: ${(err as Error)?.message ?? String(err)}`);
    } finally {
      release();
    }
  }

  async function run(event: EventName, rawInput: Record<string, unknown>, ctx: RunContext = {}, obs?: FiringObservation): Promise<Decision> {
    if (!isEventName(event)) throw new InvalidHookInputError(String(event), 'unknown event');
    // Untyped callers: null or a non-object must be a clear input error, not a TypeError below.
    if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput)) throw new InvalidHookInputError(event, 'input must be a JSON object');
    if (options.disabled) return emptyDecision(event);
    const spec = catalog[event] as EventSpec;
    const mode = permissionModeOf(ctx.permissionMode, rawInput);
    if (options.skipToolHooksInPlanMode && skipsInPlanMode(event, mode)) return emptyDecision(event);

    const cwd = ctx.cwd ?? (typeof rawInput.cwd === 'string' && rawInput.cwd ? rawInput.cwd : baseCwd);
    const matched = planHooks(currentIndex(), event, rawInput, { cwd, homeDir, projectDir, ...(ctx.onlyHooks ? { only: ctx.onlyHooks } : {}) });
    if (matched.length === 0) return emptyDecision(event);

    const input = completeInput(event, rawInput, { cwd, sessionId: ctx.sessionId ?? options.sessionId, mode });
    const check = inputSchema(event).safeParse(input);
    if (!check.success) throw new InvalidHookInputError(event, formatZodIssues(check.error, input));

    const envFile = spec.envFile && matched.some((p) => p.hook.handler.type === 'command') ? createEnvFile() : undefined;
    const bctx: BackendContext = {
      timeoutMs: 0,
      signal: ctx.signal,
      cwd,
      projectDir,
      sessionEnv: options.sessionEnv ?? {},
      envFile: envFile?.path,
      stdinLimitBytes: options.stdinLimitBytes ?? 100 * 1024,
      outputLimitBytes: options.outputLimitBytes ?? 1024 * 1024,
      session: ctx.session,
    };
    const sessionId = String(input.session_id);
    const entries: ReduceEntry[] = [];
    const records: HookRecord[] = [];
    const warnings: string[] = [];

    const runOne = async (planned: PlannedHook, currentInput: Record<string, unknown>) => {
      const { hook } = planned;
      const payload = { ...currentInput, hook_execution_id: randomUUID(), timestamp: new Date().toISOString() };
      const hctx = { ...bctx, timeoutMs: timeoutFor(hook.handler, spec) * 1000 };
      const h = hook.handler as CommandHandler;
      if (h.type === 'command' && (h.async || h.asyncRewake)) {
        startAsync(planned, payload, hctx, event, obs);
        return undefined;
      }
      const result = await execute(planned, payload, hctx);
      const parsed = parseExecution(event, result, parseOptions(payload));
      return finish(planned, payload, result, parsed);
    };

    const finish = (planned: PlannedHook, payload: Record<string, unknown>, result: ExecutionResult, parsed: ParsedHook) => {
      const { hook } = planned;
      const entry: ReduceEntry = {
        hookId: hook.id,
        parsed,
        // A matcher that could not be evaluated (matcher.ts `refused`) on an event that can block:
        // whether the guard applies is unknown, so fail closed whatever the failure policy says.
        failureBehavior: planned.matcher.refused && policyVerdict(spec, 'deny') ? 'deny' : (hook.handler.failureBehavior ?? options.failureBehavior ?? 'ignore'),
        timeoutBehavior: hook.handler.timeoutBehavior ?? options.timeoutBehavior ?? 'ignore',
      };
      // An invalid rewrite is a validation error that denies the call, never a silent fallback.
      if (parsed.updatedInput && options.validateToolInput && typeof payload.tool_name === 'string') {
        const v = options.validateToolInput(payload.tool_name, parsed.updatedInput);
        if (!v.ok) {
          parsed.verdict = spec.decision === 'permission' || spec.decision === 'permission-request' ? 'deny' : 'block';
          parsed.reason = `hook ${hook.id} rewrote the input of ${payload.tool_name} invalidly: ${v.error}`;
          delete parsed.updatedInput;
        }
      }
      const eff = effectiveVerdict(event, entry, mode);
      const record = makeRecord(planned, result, parsed, eff.verdict, eff.reason ?? parsed.reason, eff.policy);
      if (options.captureIoBytes) record.io = captureIo(payload, result, options.captureIoBytes);
      entries.push(entry);
      records.push(record);
      audit?.(auditEntry(record, payload, sessionId, projectDir, options.auditIo));
      obs?.hook(record, payload);
      return eff.verdict;
    };

    try {
      if (spec.order === 'serial') {
        // Serial: config order, each hook sees the input as rewritten so far; stop at the first deny.
        // An ask is remembered (reduce ranks it) while the chain goes on, so a later deny still wins.
        let current: Record<string, unknown> = input;
        for (const planned of matched) {
          if (ctx.signal?.aborted) break;
          const verdict = await runOne(planned, current);
          const last = entries[entries.length - 1]?.parsed;
          if (last?.updatedInput && verdict !== 'deny' && verdict !== 'block') {
            current = { ...current, tool_input: last.updatedInput };
          }
          if (verdict === 'deny' || verdict === 'block') break;
        }
      } else {
        // Parallel: bounded by the engine-wide semaphore, merged in config order.
        const results = await Promise.all(
          matched.map(async (planned) => {
            const payload = { ...input, hook_execution_id: randomUUID(), timestamp: new Date().toISOString() };
            const hctx = { ...bctx, timeoutMs: timeoutFor(planned.hook.handler, spec) * 1000 };
            const h = planned.hook.handler as CommandHandler;
            if (h.type === 'command' && (h.async || h.asyncRewake)) {
              startAsync(planned, payload, hctx, event, obs);
              return undefined;
            }
            const result = await execute(planned, payload, hctx);
            return { planned, payload, result, parsed: parseExecution(event, result, parseOptions(payload)) };
          }),
        );
        for (const r of results) if (r) finish(r.planned, r.payload, r.result, r.parsed);
      }

      const decision = reduce(event, entries, records, { permissionMode: mode });
      decision.warnings.unshift(...warnings);
      if (envFile) {
        const base = buildHookEnv({ sessionEnv: bctx.sessionEnv, passEnv: options.passEnv, projectDir, envFile: envFile.path });
        const { env, warning } = await evaluateEnvFile(envFile.path, base, cwd);
        if (warning) decision.warnings.push(warning);
        if (Object.keys(env).length > 0) defineOwn(decision.eventOutput, 'env', env);
      }
      applyStopCap(event, decision, sessionId);
      for (const w of decision.warnings) warn(w);
      return decision;
    } finally {
      envFile?.dispose();
    }
  }

  function applyStopCap(event: EventName, decision: Decision, sessionId: string) {
    if (!eventFacts(event).continuationCap) return;
    const key = `${event}\0${sessionId}`;
    if (!decision.blocked) {
      stopBlocks.delete(key);
      return;
    }
    const count = (stopBlocks.get(key) ?? 0) + 1;
    if (count > stopCap) {
      stopBlocks.delete(key);
      decision.blocked = false;
      decision.warnings.push(
        `${event} hooks blocked ${count} consecutive times (cap ${stopCap}); letting the agent stop. Last reason: ${decision.reason ?? '(none)'}`,
      );
      delete decision.decision;
      return;
    }
    stopBlocks.set(key, count);
    if (stopBlocks.size > 10_000) stopBlocks.delete(stopBlocks.keys().next().value as string);
  }

  function startAsync(planned: PlannedHook, payload: Record<string, unknown>, hctx: BackendContext, event: EventName, obs?: FiringObservation) {
    // Background hooks outlive the firing: no abort signal from it, and no env file (disposed at return).
    const bg = { ...hctx, signal: undefined, envFile: undefined };
    const p = execute(planned, payload, bg).then((result) => {
      const parsed = parseExecution(event, result, parseOptions(payload));
      const record = makeRecord(planned, result, parsed, parsed.verdict, parsed.reason, undefined);
      record.outcome = `async:${record.outcome}`;
      if (options.captureIoBytes) record.io = captureIo(payload, result, options.captureIoBytes);
      audit?.(auditEntry(record, payload, String(payload.session_id), projectDir, options.auditIo));
      obs?.hook(record, payload);
      const h = planned.hook.handler as CommandHandler;
      const rewake = h.asyncRewake && result.exitCode === 2 ? result.stderr.trim() || result.stdout.trim() : undefined;
      options.onAsyncResult?.({ hook: planned.hook, event, record, rewake });
    });
    pending.add(p);
    void p.finally(() => pending.delete(p));
  }

  const observed = observeRun<RunContext>(run, { auditWriter: options.auditWriter, telemetry: options.telemetry, projectDir, onWarning: warn });

  return {
    run: observed as HookEngine['run'],
    register(reg) {
      const n = fnSeq++;
      const hook: NormalizedHook = {
        id: `sdk:${reg.name ?? 'function'}#${n}`,
        event: reg.event,
        matcher: reg.matcher,
        handler: {
          type: 'function',
          fn: reg.fn,
          name: reg.name,
          if: reg.if,
          timeout: reg.timeout,
          failureBehavior: reg.failureBehavior,
          timeoutBehavior: reg.timeoutBehavior,
        },
        source: { kind: 'sdk', path: `function:${reg.name ?? n}` },
        dedupKey: `\0function#${n}`,
        projectDir: reg.projectDir,
      };
      functionHooks.set(n, hook);
      rebuild();
      return () => {
        if (functionHooks.delete(n)) {
          compiled.delete(hook);
          rebuild();
        }
      };
    },
    list(event) {
      const all = [...configHooks, ...functionHooks.values()];
      return event ? all.filter((h) => h.event === event) : all;
    },
    setHooks(hooks) {
      for (const h of configHooks) compiled.delete(h);
      configHooks.length = 0;
      for (const h of hooks) configHooks.push(h);
      rebuild();
    },
    async drain() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async close() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await fileSink?.close();
      await options.auditWriter?.flush();
      await ownedMcp?.close();
    },
    concurrency: {
      get active() {
        return semaphore.active;
      },
      get waiting() {
        return semaphore.waiting;
      },
    },
  };
}

/**
 * Validate an input the way run() does (common fields filled). run() validates only when a
 * hook matches, to keep no-match dispatch allocation-free; callers that want the check
 * regardless (the CLI, dispatchers) use this.
 */
export function checkInput(event: EventName, input: Record<string, unknown>, defaults: { cwd?: string; sessionId?: string } = {}): string | undefined {
  const full = completeInput(event, input, { cwd: defaults.cwd ?? process.cwd(), sessionId: defaults.sessionId });
  const check = inputSchema(event).safeParse(full);
  return check.success ? undefined : formatZodIssues(check.error, full);
}

function completeInput(
  event: EventName,
  raw: Record<string, unknown>,
  d: { cwd: string; sessionId?: string; mode?: string },
): Record<string, unknown> {
  // Copied key by key into a literal, not `{ ...raw }`: on Node 20's V8 each key added to a
  // spread copy costs about 1 µs (docs/performance.md), several times this whole function.
  const input: Record<string, unknown> = { session_id: undefined, transcript_path: undefined, cwd: undefined, hook_event_name: event };
  for (const key of Object.keys(raw)) {
    if (key === 'hook_event_name') continue;
    if (key === '__proto__') defineOwn(input, key, raw[key]); // a JSON key, not the prototype
    else input[key] = raw[key];
  }
  if (input.session_id === undefined) input.session_id = d.sessionId ?? 'default';
  if (input.cwd === undefined) input.cwd = d.cwd;
  if (input.transcript_path === undefined) input.transcript_path = '';
  if (input.permission_mode === undefined && d.mode !== undefined) input.permission_mode = d.mode;
  // Filled per execution; placeholders so the shared shape validates.
  input.hook_execution_id ??= '';
  input.timestamp ??= '';
  return input;
}

function timeoutFor(handler: HookHandler, spec: EventSpec): number {
  if (typeof handler.timeout === 'number' && handler.timeout > 0) return handler.timeout;
  if (spec.defaultTimeoutSec !== undefined && (handler.type === 'command' || handler.type === 'http' || handler.type === 'mcp_tool')) {
    return Math.min(spec.defaultTimeoutSec, DEFAULT_TIMEOUTS[handler.type]);
  }
  return DEFAULT_TIMEOUTS[handler.type];
}

function errorResult(error: string): ExecutionResult {
  return makeResult({ status: 'error', error });
}

function makeRecord(
  planned: PlannedHook,
  result: ExecutionResult,
  parsed: ParsedHook,
  verdict: string | undefined,
  reason: string | undefined,
  policy: FailureBehavior | undefined,
): HookRecord {
  const { hook } = planned;
  const record: HookRecord = {
    id: hook.id,
    event: hook.event,
    type: hook.handler.type,
    source: { kind: hook.source.kind, file: hook.source.file, path: hook.source.path, pluginName: hook.source.pluginName },
    matcher: hook.matcher,
    outcome: parsed.outcome,
    durationMs: Math.round(result.durationMs * 1000) / 1000,
    exitCode: result.exitCode,
    signal: result.signal ?? null,
    stdoutTruncated: result.stdoutTruncated,
    stderrTruncated: result.stderrTruncated,
    stdinTruncated: result.stdinTruncated,
  };
  if (verdict) record.decision = verdict as HookRecord['decision'];
  if (reason) record.reason = reason;
  if (policy) record.policy = policy;
  const error = parsed.message ?? result.error;
  if (error) record.error = error;
  return record;
}

/** A hook's streams, each cut to `cap` bytes with a marker saying how much was left out. */
function captureIo(payload: Record<string, unknown>, result: ExecutionResult, cap: number): NonNullable<HookRecord['io']> {
  const cut = (text: string): string => {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes <= cap) return text;
    return `${Buffer.from(text, 'utf8').subarray(0, cap).toString('utf8').replace(/\uFFFD$/, '')}…[${bytes - cap} more bytes]`;
  };
  const stdout = result.value !== undefined ? encodeForCapture(result.value) : result.stdout;
  return { stdin: cut(encodeForCapture(payload)), stdout: cut(stdout), stderr: cut(result.stderr) };
}

/** A captured stream is a diagnostic: a value too deep to encode is named, never a crash. */
function encodeForCapture(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch (err) {
    return `[not representable as JSON: ${(err as Error).message}]`;
  }
}

function auditEntry(record: HookRecord, payload: Record<string, unknown>, sessionId: string, projectDir: string, withIo = false): AuditEntry {
  const entry: AuditEntry = {
    ts: new Date().toISOString(),
    session_id: sessionId,
    project: projectDir,
    ...record,
  };
  if (!withIo) delete entry.io;
  if (typeof payload.hook_execution_id === 'string') entry.hook_execution_id = payload.hook_execution_id;
  if (typeof payload.tool_name === 'string') entry.tool_name = payload.tool_name;
  return entry;
}

/** The built-in command backend: placeholders, minimal env, capped stdin, process-group lifecycle. */
function commandBackend(options: HookEngineOptions): Backend {
  return async (hook, payload, ctx) => {
    const handler = hook.handler as CommandHandler;
    const vars = {
      CLAUDE_PROJECT_DIR: ctx.projectDir,
      CLAUDE_PLUGIN_ROOT: hook.source.pluginRoot ?? hook.source.skillRoot,
      CLAUDE_PLUGIN_DATA: hook.source.pluginData,
    };
    const stdin = encodePayload(payload, ctx.stdinLimitBytes);
    const env = buildHookEnv({
      sessionEnv: ctx.sessionEnv,
      passEnv: options.passEnv,
      hookEnv: handler.env,
      projectDir: ctx.projectDir,
      pluginRoot: vars.CLAUDE_PLUGIN_ROOT,
      pluginData: vars.CLAUDE_PLUGIN_DATA,
      envFile: ctx.envFile,
    });
    const result = await runCommand({
      // Shell form: a path with shell metacharacters is left as ${VAR} for the shell to expand
      // from the environment, so a project directory name can never inject a command.
      command: handler.args ? substitutePlaceholders(handler.command, vars) : substituteForShell(handler.command, vars, handler.shell ?? 'sh'),
      args: handler.args?.map((a) => substitutePlaceholders(a, vars)),
      shell: handler.shell,
      cwd: ctx.cwd,
      env,
      stdin: stdin.text,
      timeoutMs: ctx.timeoutMs,
      killGraceMs: options.killGraceMs,
      spawner: options.spawner ?? true,
      maxOutputBytes: ctx.outputLimitBytes,
      signal: ctx.signal,
    });
    return stdin.truncated ? { ...result, stdinTruncated: true } : result;
  };
}

/**
 * In-process function hooks: the timeout stops waiting and aborts the signal; the handler must honour it.
 * Per event this is the hot path of dispatch, so a handler that returns synchronously gets no
 * timer, and the AbortController is only made when the handler reads `signal`.
 */
const TIMED_OUT = Symbol('timed out');
const functionBackend: Backend = async (hook, payload, ctx) => {
  const handler = hook.handler as FunctionHandler;
  const start = performance.now();
  let controller: AbortController | undefined;
  let abortReason: { reason: unknown } | undefined;
  const abort = (reason: unknown) => {
    if (abortReason) return;
    abortReason = { reason };
    controller?.abort(reason);
  };
  const hookCtx = {
    get signal(): AbortSignal {
      if (!controller) {
        controller = new AbortController();
        if (abortReason) controller.abort(abortReason.reason);
      }
      return controller.signal;
    },
  };
  const onAbort = () => abort(ctx.signal?.reason);
  // A literal, not `{ ...base, status }`: keys added to a spread copy are slow (see completeInput).
  const result = (status: ExecutionResult['status'], error?: string): ExecutionResult => {
    const r: ExecutionResult = {
      status,
      exitCode: status === 'completed' ? 0 : null,
      stdout: '',
      stderr: '',
      stdoutTruncated: false,
      stderrTruncated: false,
      stdinTruncated: false,
      durationMs: performance.now() - start,
    };
    if (error !== undefined) r.error = error;
    return r;
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    if (ctx.signal?.aborted) abort(ctx.signal.reason);
    let value: unknown = handler.fn(payload, hookCtx);
    if (isThenable(value)) {
      ctx.signal?.addEventListener('abort', onAbort, { once: true });
      const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), ctx.timeoutMs);
      });
      value = await Promise.race([value, timeout]);
      if (value === TIMED_OUT) {
        abort(new Error('hook timed out'));
        return result('timeout', `function hook timed out after ${ctx.timeoutMs} ms`);
      }
    }
    const done = result('completed');
    done.value = value ?? undefined;
    return done;
  } catch (err) {
    return result('error', `function hook threw: ${(err as Error)?.message ?? String(err)}`);
  } finally {
    if (timer) clearTimeout(timer);
    ctx.signal?.removeEventListener('abort', onAbort);
  }
};

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
