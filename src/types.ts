/**
 * Shared data shapes that flow between the stages:
 * config → registry (NormalizedHook) → plan → execute (ExecutionResult) → reduce (Decision).
 */
import type { EventName } from './events/catalog.js';

export type FailureBehavior = 'ignore' | 'ask' | 'deny';

export type SourceKind =
  | 'managed' // managed policy settings
  | 'user' // ~/.claude/settings.json
  | 'project' // .claude/settings.json
  | 'local' // .claude/settings.local.json
  | 'cli' // --settings FILE
  | 'plugin' // <plugin>/hooks/hooks.json
  | 'skill' // skill / agent frontmatter
  | 'sdk' // registered in code
  | 'builtin'; // the engine's own, switched on by the host (builtinHooks)

/** Where a hook came from; kept on every matched hook. */
export interface Provenance {
  kind: SourceKind;
  /** File the hook was read from (absent for sdk). */
  file?: string;
  /** JSON pointer-ish path of the handler inside the file, e.g. hooks.PreToolUse[0].hooks[1]. */
  path: string;
  pluginRoot?: string;
  pluginName?: string;
  pluginId?: string;
  /** Plugin persistent data directory (CLAUDE_PLUGIN_DATA). */
  pluginData?: string;
  skillRoot?: string;
  skillName?: string;
  /**
   * Read from a skill's or subagent's YAML frontmatter: registered only while the skill/agent is
   * in use, and reviewed with the workspace when the file is the project's (src/trust).
   */
  frontmatter?: 'skill' | 'agent';
  /** Set for managed policy hooks and plugins force-enabled by policy. */
  managed?: boolean;
}

interface HandlerCommon {
  if?: string;
  timeout?: number; // seconds
  statusMessage?: string;
  once?: boolean;
  /** false: kept in the config, never planned (the engine skips it; `list` and the panels show it off). */
  enabled?: boolean;
  failureBehavior?: FailureBehavior;
  timeoutBehavior?: FailureBehavior;
}

export interface CommandHandler extends HandlerCommon {
  type: 'command';
  command: string;
  args?: string[];
  async?: boolean;
  asyncRewake?: boolean;
  shell?: 'bash' | 'sh' | 'powershell';
  env?: Record<string, string>;
}
export interface HttpHandler extends HandlerCommon {
  type: 'http';
  url: string;
  headers?: Record<string, string>;
  allowedEnvVars?: string[];
  /** Hosts exempt from the https requirement and the address-range checks (an explicit opt-out). */
  allowedHosts?: string[];
  /** Skip TLS certificate verification for this hook only. */
  allowInsecureTLS?: boolean;
}
export interface McpToolHandler extends HandlerCommon {
  type: 'mcp_tool';
  server: string;
  tool: string;
  input?: Record<string, unknown>;
}
export interface PromptHandler extends HandlerCommon {
  type: 'prompt' | 'agent';
  prompt: string;
  model?: string;
  /** Prompt hooks: on ok:false feed the reason back and continue instead of ending the turn. */
  continueOnBlock?: boolean;
}
/** In-process hook registered in code. Never part of a trust digest. */
export interface FunctionHandler extends HandlerCommon {
  type: 'function';
  /** Name shown in records and lists. */
  name?: string;
  fn: (input: Record<string, unknown>, ctx: { signal: AbortSignal }) => unknown | Promise<unknown>;
}
export type HookHandler = CommandHandler | HttpHandler | McpToolHandler | PromptHandler | FunctionHandler;

/** One hook as the registry holds it: event + matcher + handler + provenance. */
export interface NormalizedHook {
  /** Stable id: `${kind}:${file}#${path}` (or sdk:name#n). */
  id: string;
  event: EventName;
  /** Raw matcher string from config (undefined = match all). */
  matcher?: string;
  handler: HookHandler;
  source: Provenance;
  /** Dedup key: `${pluginRoot ?? skillRoot ?? ''}\0${payload}`; function hooks are never deduped. */
  dedupKey: string;
  /** Only for sdk function hooks: restrict to this project directory. */
  projectDir?: string;
  /** Agent dialect the hook was written for (`gemini`, `kimi`, …); absent = Claude, the native dialect. */
  dialect?: string;
  /** How `matcher` is read; absent = Claude's rules (exact-name set, else regex). */
  matcherMode?: MatcherMode;
  /**
   * Payload field the matcher is tested against on an event the catalog gives no matcher
   * (Kimi matches UserPromptSubmit hooks against the prompt: `prompt`); absent = the catalog's.
   */
  matchField?: string;
  /** Translates payload and result at the hook's edge, so a dialect's script sees its own agent's shapes. */
  bridge?: HookBridge;
  /** Dialect-only fields with no engine meaning (names, native event, …), kept for `convert`. */
  dialectData?: Record<string, unknown>;
  /**
   * Set by the trust loader (src/trust/verify.ts) on a hook a person reviewed: the engine calls it
   * before each execution, and a failure is an engine fault (closed on events that can block).
   */
  verify?: HookVerifier;
  /** Files a reviewed hook's review covers (what it pins, its config file): tool calls that write them are refused. */
  guards?: readonly string[];
}

/**
 * A reviewed hook's check at execution (src/trust/verify.ts), where it runs: `failed` says why it
 * must not run (and how to re-trust); otherwise `recheck`, called after it ran, says whether what
 * it executed changed while it ran (then its answer does not count).
 */
export type HookVerifier = (at: {
  cwd: string;
  projectDir: string;
  /** Also return what was verified of each pinned path, for the sandbox to serve (src/backends/sandbox-view.ts). */
  serve?: boolean;
}) => Promise<
  | { failed: string }
  | {
      recheck?: () => Promise<string | undefined>;
      /** The real directories the check resolved: the hook runs there (its project and plugin dirs too). */
      where?: { cwd: string; projectDir: string; roots: Partial<Pick<Provenance, 'pluginRoot' | 'skillRoot' | 'pluginData'>> };
      served?: ReadonlyMap<string, ServedPin>;
    }
>;

/** What the engine verified of one pinned path: the file's bytes, a link's target, or that it is absent. */
export type ServedPin = { kind: 'file'; bytes: Buffer; mode: number } | { kind: 'link'; target: string } | { kind: 'missing' };

/**
 * Matcher semantics of the dialects:
 * - `claude`: `*`/empty = all; only `[A-Za-z0-9_\- ,|]` = exact names; else unanchored regex (invalid never matches)
 * - `claude-narrow`: the same with the narrow exact set `[A-Za-z0-9_|]` (Codex)
 * - `regex`: always an unanchored regex, invalid never matches (Kimi)
 * - `regex-star`: the same, and `*` matches everything; a name is a regex too, so `Execu` matches
 *   `Execute` (Factory Droid 0.225.2, run in test/agents/dialect-diff)
 * - `regex-or-exact`: trimmed, `*` all, unanchored regex, invalid → exact comparison (Gemini
 *   tool events, Qwen Code)
 * - `regex-anchored`: regex anchored as `^(?:p)$`, invalid never matches (Copilot CLI)
 * - `exact`: whole-string equality (Gemini lifecycle events)
 */
export type MatcherMode = 'claude' | 'claude-narrow' | 'regex' | 'regex-star' | 'regex-or-exact' | 'regex-anchored' | 'exact';

/** Set by a dialect loader on its hooks; the engine calls it around each execution of such a hook. */
export interface HookBridge {
  /** The value the hook's matcher sees for a canonical one (agents name tools differently). */
  matchValue?(hook: NormalizedHook, value: string): string;
  /** Canonical (Claude-shaped) payload → the payload the hook's own agent would send. */
  encodePayload(hook: NormalizedHook, payload: Record<string, unknown>): Record<string, unknown>;
  /** What the hook printed, in its agent's convention → the same result in the Claude convention. */
  decodeResult(hook: NormalizedHook, payload: Record<string, unknown>, result: ExecutionResult): ExecutionResult;
}

/** Problem found in config; path-qualified. */
export interface Diagnostic {
  level: 'error' | 'warning';
  file?: string;
  /** Dotted JSON path, e.g. hooks.PreToolUse[0].hooks[1].type */
  path: string;
  message: string;
}

/**
 * Frozen per-session resources a backend may read. Set once when a session starts; backends
 * use it instead of live global state so a resumed session keeps behaving the same.
 */
export interface SessionSnapshot {
  readonly sessionId: string;
  /** Model for prompt hooks without their own `model`. */
  readonly model?: string;
  /** Environment frozen at session start (e.g. AGENT_HOOKS_MODEL_BASE_URL for prompt hooks). */
  readonly env?: Readonly<Record<string, string>>;
}

/** The one normalized result every backend produces. */
export interface ExecutionResult {
  /** completed: the hook ran to an exit; timeout; error: could not start / backend failure; aborted: caller cancelled. */
  status: 'completed' | 'timeout' | 'error' | 'aborted';
  /** Exit code for processes (HTTP 2xx maps to 0, other statuses to 1); null when killed or never started. */
  exitCode: number | null;
  signal?: string | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** The payload was larger than the stdin cap and string fields were shortened. */
  stdinTruncated: boolean;
  durationMs: number;
  error?: string;
  /** Function hooks return a value directly instead of stdout. */
  value?: unknown;
  /**
   * The engine, not the hook, failed: it could not run the hook as configured (its matcher or `if`
   * could not be decided, or a module it needs did not load). On an event that can block the hook
   * denies whatever its failure policy says: whether the guard would have allowed is unknown.
   */
  engineFault?: true;
  /** What the engine noted of the run that is not the hook's answer (an entry it created not kept). */
  warnings?: string[];
  /**
   * The hook declared itself async on its first stdout line (Claude Code 2.1): this result is that
   * declaration, and the hook runs on; its own result settles here.
   */
  background?: Promise<ExecutionResult>;
}
