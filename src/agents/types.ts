/**
 * One agent, in three parts, each in its folder (src/agents/<name>/) and each loaded on first use
 * (src/agents/registry.ts): the facts (`Dialect`: config files, event and tool names, default
 * timeouts, matcher rules, detection, the hook bridge), the config reader (`DialectReader`: parse
 * and serialize its hook config) and the wire codec (`WireAdapter`: what `agent-hooks dispatch`
 * decodes and answers). The engine inside stays one; all three translate to and from its
 * Claude-shaped canonical form.
 *
 * This module, the facts and the wire codecs are kept free of zod, TOML and the engine, so that
 * `agent-hooks dispatch` can answer "no hooks to run" without loading them.
 */
import type { EventName } from '../events/catalog.js';
import type { Decision } from '../reduce/reduce.js';
import type { Diagnostic, HookBridge, MatcherMode, NormalizedHook, SourceKind } from '../types.js';

export const DIALECT_NAMES = [
  'claude',
  'codex',
  'gemini',
  'qwen',
  'kimi',
  'cursor',
  'copilot',
  'droid',
  'opencode',
  'kilo',
  'pi',
  'letta',
  'cline',
  'auggie',
] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

export function isDialectName(name: string): name is DialectName {
  return (DIALECT_NAMES as readonly string[]).includes(name);
}

/** One native event and what it is in the engine. */
export interface EventMapping {
  native: string;
  /** Canonical (catalog) event; undefined: no equivalent, hooks under it cannot be loaded. */
  event?: EventName;
  /** Tool the native event implies (Cursor's beforeShellExecution is PreToolUse of Bash). */
  tool?: string;
  /** Why there is no equivalent, or what differs. */
  note?: string;
}

/** One tool: canonical (Claude) name, the agent's name, and tool_input fields that are named differently. */
export interface ToolMapping {
  canonical: string;
  native: string;
  /** canonical field → native field */
  fields?: Readonly<Record<string, string>>;
}

export interface LocationContext {
  projectDir: string;
  homeDir: string;
  /** For agents whose home can be moved (KIMI_CODE_HOME, CODEX_HOME). */
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * One place an agent reads hooks from: a file, or every `*.json` directly in a directory
 * (Copilot's hooks/ folders). `kind` is the layer: user files are the user's own; project and
 * local files are workspace files and pass the trust gate.
 */
type ConfigLocation = { kind: 'user' | 'project' | 'local'; file: string } | { kind: 'user' | 'project' | 'local'; dir: string };

/**
 * Something a hook can answer (or an event it needs) that the agent itself never delivers,
 * read from the agent's code: dispatch notes it when it happens, `check --agent` warns at
 * config time. A `fire` entry with `blocking` is a guard that will never run on that agent.
 */
export interface Undeliverable {
  event: EventName;
  /**
   * context: additionalContext is dropped by the agent; fire: the agent never runs the event's
   * hooks (or never reads what they answer); answer: it runs them, but one answer it cannot apply
   * and dispatch ends the agent instead (src/dispatch/end-agent.ts).
   */
  part: 'context' | 'fire' | 'answer';
  /** Agent and version whose code was read. */
  version: string;
  /** What its code does instead. */
  what: string;
  /** The event's hooks can block: a guard configured there never guards anything (answer: not fully). */
  blocking?: boolean;
}

/** One agent's facts (its reader parses its files, its wire codec answers its calls). */
export interface Dialect {
  name: DialectName;
  /** Product name, for messages and docs. */
  title: string;
  /** Config file syntax. */
  format: 'json' | 'toml';
  /**
   * The variables the agent sets in its hooks' environment to its project directory, first wins
   * (`dispatch` takes the project from them, not from the payload's cwd, which follows a `cd`).
   * Only the agent's own names: a CLAUDE_PROJECT_DIR inherited from an outer session names another project.
   */
  projectDirEnv: readonly string[];
  /** Where the agent reads hook config (documentation, `check` directory walks). */
  locations: { user: readonly string[]; project: readonly string[] };
  /** The concrete files discovery reads for this agent (`loadConfig({ discoverDialects })`, docs/dialects.md "Discovery"). */
  configLocations(ctx: LocationContext): ConfigLocation[];
  /** Defaults of the agent, applied at load so the engine needs no dialect knowledge. */
  defaults: {
    /** Command timeout in seconds when the config sets none; undefined = not documented (engine default applies). */
    timeoutSec?: number;
    /** Unit of the config's timeout field. */
    timeoutUnit: 's' | 'ms';
  };
  events: readonly EventMapping[];
  tools: readonly ToolMapping[];
  /** Matcher rules of the agent for a canonical event. */
  matcherMode(event: EventName): MatcherMode;
  /**
   * The agent runs identical hooks (same event, matcher and handler) once each, where Claude
   * Code, Gemini CLI and Qwen Code run them once in all: the engine then keeps each of them.
   */
  keepsIdenticalHooks?: true;
  /** How sure we are that a parsed document is this dialect's (0 = not at all, 1 = certain). */
  detect(file: string, doc: unknown): number;
  /** Native event names that have at least one hook entry in a parsed document (dispatch's fast path). */
  configuredEvents(doc: unknown): string[];
  /**
   * Translates payloads and results for hooks of this dialect run by the engine (absent for
   * Claude). It lives with the facts, not the wire codec: the readers attach it to every hook
   * they read, and the engine runs it without loading the dispatch side.
   */
  bridge?: HookBridge;
  /** What the agent cannot deliver (src/agents/shared/undeliverable.ts). */
  undeliverable?: readonly Undeliverable[];
}

/** How sure a detector is that a parsed document is its agent's (0 = not at all, 1 = certain). */
export type Detector = (file: string, doc: unknown) => number;

// ---------------------------------------------------------------------------------------------
// The config reader: an agent's hook config → NormalizedHooks, and back.

export interface ParseContext {
  file: string;
  kind: SourceKind;
}

export interface ParseResult {
  hooks: NormalizedHook[];
  diagnostics: Diagnostic[];
  /** False when the file was rejected (any error): it contributes no hooks. */
  ok: boolean;
}

/** A construct of the source that the target dialect cannot express; never dropped silently. */
export interface Loss {
  /** Where the construct was (provenance path of the hook, or a file-level path). */
  path: string;
  /** Hook id when the loss concerns one hook. */
  hookId?: string;
  /** 'hook' = the whole hook was left out; 'field' = the hook is kept without this part. */
  scope: 'hook' | 'field';
  message: string;
}

export interface SerializeOptions {
  /** Codex: `json` (hooks.json, default) or `toml` (`[hooks]` tables for config.toml). */
  format?: 'json' | 'toml';
}

export interface SerializeResult {
  text: string;
  losses: Loss[];
}

/** Reading and writing one agent's config documents. */
export interface DialectReader {
  name: DialectName;
  /** Parsed document → hooks (validated, path-qualified diagnostics; never throws). */
  parse(doc: unknown, ctx: ParseContext): Promise<ParseResult>;
  /** Hooks → this dialect's config text, reporting every construct it cannot express. */
  serialize(hooks: readonly NormalizedHook[], opts?: SerializeOptions): Promise<SerializeResult>;
}

// ---------------------------------------------------------------------------------------------
// The wire codec: the payload an agent sends to `agent-hooks dispatch`, and the answer.

/** A payload the agent sent, in canonical form. */
export interface DispatchInput {
  event: EventName;
  nativeEvent: string;
  /** Claude-shaped payload (tool names and tool_input fields canonical). */
  payload: Record<string, unknown>;
  /** The payload as the agent sent it. */
  raw: Record<string, unknown>;
}

/** What `agent-hooks dispatch` prints and exits with. */
export interface DispatchOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  /**
   * Set where the agent has no answer for the decision and would let it through: dispatch ends
   * the agent before it reads anything (src/dispatch/end-agent.ts); this says why. The other
   * fields stay the answer given if the agent cannot be ended.
   */
  endAgent?: EndAgent;
}

/** Why dispatch ends the agent, and how the agent's process is recognised by its command line. */
export interface EndAgent {
  reason: string;
  agent: RegExp;
}

/** How `agent-hooks dispatch` talks to one agent. */
export interface WireAdapter {
  name: DialectName;
  /** The agent's payload → canonical event and payload; `skip` when the event has no equivalent. */
  decodePayload(raw: Record<string, unknown>, nativeEvent?: string): DispatchInput | { skip: string; nativeEvent?: string };
  /** The engine's decision → what the agent reads (stdout, stderr, exit code). */
  encodeDecision(decision: Decision, input: DispatchInput): DispatchOutput;
  /** What to answer when no hook ran (or the event has no equivalent). */
  noop(nativeEvent?: string): DispatchOutput;
  /**
   * The agent parses stderr as the hook's output when stdout is empty (Gemini CLI and Qwen Code
   * read `stdout.trim() || stderr.trim()`; plain text becomes an allow with a system message).
   * Dispatch then answers `{}` on stdout whenever it prints a note, so a note is never a verdict.
   */
  stderrReadAsOutput?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Installing: where `agent-hooks install --agent D` writes D's dispatch lines (src/install/).

export type InstallScope = 'user' | 'project';

/**
 * How dispatch is installed into one agent: the place per scope and the shape of one entry. The
 * formats: `json` (a `hooks` object of event → entry lists, edited in place), `toml` (Kimi's
 * `[[hooks]]` tables, appended), `hooks-dir` (one executable per event, Cline) and `plugin` (one
 * module file the agent loads: OpenCode, Kilo, Pi).
 */
export interface InstallSpec {
  /** Product name, for messages. */
  title: string;
  format: 'json' | 'toml' | 'hooks-dir' | 'plugin';
  /** The file (hooks-dir: the directory) of a scope, or why the agent has none. */
  target(scope: InstallScope, ctx: LocationContext): string | { unsupported: string };
  /** The native events dispatch is installed for: every event the agent delivers that the engine has. */
  events: readonly EventMapping[];
  /** One entry of an event's list (json). */
  entry?(command: string): Record<string, unknown>;
  /** Top-level keys a file it creates starts with (Cursor's and Copilot's `version: 1`). */
  base?: Readonly<Record<string, unknown>>;
  /** The payload does not name the event: the dispatch line passes `--event` (Copilot's camelCase events). */
  namesEvent?: true;
  /** How a hook blocks when dispatch cannot start: exit 2 and the reason on stderr, or Cline's JSON `cancel`. */
  blocksBy: 'exit2' | 'cancel-json';
  /** What the user must still do for the agent to read a project's file (printed after a project install). */
  projectNote?: string;
  /** The module file's text (plugin): the package's directory and the settings files, absolute. */
  plugin?(packageDir: string, settings: readonly string[]): string;
}

// ---------------------------------------------------------------------------------------------
// The adapter: one per agent folder (src/agents/<name>/index.ts), listed in src/agents/registry.ts.

/**
 * One agent. `detect` is always at hand (dispatch's no-hooks check detects a file's agent before
 * loading anything); the three parts are loaded on first use, so dispatch loads one agent's facts
 * and wire codec, and only a load that reads an agent's file compiles that reader's schemas.
 */
export interface Agent {
  name: DialectName;
  detect: Detector;
  facts(): Promise<Dialect>;
  reader(): Promise<DialectReader>;
  wire(): Promise<WireAdapter>;
  /** Where and how `agent-hooks install` writes this agent's dispatch lines. */
  install(): Promise<InstallSpec>;
}
