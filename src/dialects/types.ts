/**
 * The facts of each agent's dialect, the lower module that both stages read: its config files,
 * event and tool names, default timeouts, matcher rules, detection and the hook bridge. Reading
 * its config files lives in the config stage (src/config/readers/); answering its hook calls in
 * dispatch (src/dispatch/wire/). The engine inside stays one; both translate to and from its
 * Claude-shaped canonical form.
 *
 * This module and the facts modules are kept free of zod, TOML and the engine, so that
 * `agent-hooks dispatch` can answer "no hooks to run" without loading them.
 */
import type { EventName } from '../events/catalog.js';
import type { HookBridge, MatcherMode } from '../types.js';

export const DIALECT_NAMES = ['claude', 'codex', 'gemini', 'qwen', 'kimi', 'cursor', 'copilot', 'droid'] as const;
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
export type ConfigLocation = { kind: 'user' | 'project' | 'local'; file: string } | { kind: 'user' | 'project' | 'local'; dir: string };

/**
 * Something a hook can answer (or an event it needs) that the agent itself never delivers,
 * read from the agent's code: dispatch notes it when it happens, `check --agent` warns at
 * config time. A `fire` entry with `blocking` is a guard that will never run on that agent.
 */
export interface Undeliverable {
  event: EventName;
  /** context: additionalContext is dropped by the agent; fire: the agent never runs the event's hooks. */
  part: 'context' | 'fire';
  /** Agent and version whose code was read. */
  version: string;
  /** What its code does instead. */
  what: string;
  /** The event's hooks can block: a guard configured there never guards anything. */
  blocking?: boolean;
}

/** One agent's dialect: the facts (src/config/readers/ parses its files, src/dispatch/wire/ answers its calls). */
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
   * Claude). It lives with the facts, not the wire adapter: config readers attach it to every hook
   * they read, and src/config/ never imports the dispatch side.
   */
  bridge?: HookBridge;
  /** What the agent cannot deliver (src/dialects/undeliverable.ts). */
  undeliverable?: readonly Undeliverable[];
}
