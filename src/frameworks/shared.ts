/**
 * What every framework adapter (`agent-hooks/ai-sdk`, `/mcp-client`, `/mastra`, `/langchain`,
 * `/openai-agents`, `/claude-agent-sdk`) shares: the tool-name map, one call into the engine that
 * never throws (an engine that cannot answer is a deny with the reason: never fail open), and the
 * Decision read as the few answers a framework can give. Nothing here decides: `engine.run()`
 * does (the one door); these only translate.
 */
import type { HookEngine, UntypedHookEngine } from '../api.js';
import type { Decision } from '../reduce/reduce.js';

/**
 * Framework tool names → the Claude tool names existing matchers use (`Bash`, `Write`, …).
 * A name not listed reaches the hooks unchanged.
 */
export const DEFAULT_TOOL_NAMES: Readonly<Record<string, string>> = {
  bash: 'Bash',
  shell: 'Bash',
  run_command: 'Bash',
  read: 'Read',
  read_file: 'Read',
  write: 'Write',
  write_file: 'Write',
  edit: 'Edit',
  edit_file: 'Edit',
  glob: 'Glob',
  grep: 'Grep',
  web_fetch: 'WebFetch',
  web_search: 'WebSearch',
};

export interface FrameworkHookOptions {
  /** Tool names as the hooks see them, merged over DEFAULT_TOOL_NAMES (`{ sh: 'Bash' }`). */
  toolNames?: Record<string, string>;
  /** The session id the hooks see (default: the framework's own thread/session id where it has one, else one id per adapter instance). */
  sessionId?: string;
  /** The working directory the hooks see (default: process.cwd()). */
  cwd?: string;
}

/** A PreToolUse Decision as a framework can act on it. */
export type ToolVerdict =
  | { kind: 'run'; input: Record<string, unknown>; context: string[]; allowed: boolean }
  | { kind: 'deny'; reason: string; context: string[] }
  /** `asked`: the framework's approval step has put it to the user (set by the adapter). */
  | { kind: 'ask'; reason: string; input: Record<string, unknown>; context: string[]; asked?: boolean };

export interface EngineBridge {
  /** The name the hooks see for a framework tool. */
  toolName(name: string): string;
  /** engine.run, where a throw becomes a deny Decision that says why; the input's own `session_id`/`cwd` win. */
  run(event: string, input: Record<string, unknown>): Promise<Decision>;
  /** PreToolUse for one call. */
  beforeTool(name: string, input: Record<string, unknown>, id?: string): Promise<ToolVerdict>;
  /** PostToolUse for one call: the output the model should see and the context to append. */
  afterTool(
    name: string,
    input: Record<string, unknown>,
    output: unknown,
    id?: string,
  ): Promise<{ output: unknown; replaced: boolean; context: string[] }>;
}

/** The answer when the engine itself failed: the call does not proceed, and the reason says why. */
function engineFailure(event: string, err: unknown): Decision {
  const why = err instanceof Error ? err.message : String(err);
  return {
    event: event as Decision['event'],
    blocked: true,
    decision: 'deny',
    reason: `agent-hooks could not judge this ${event} (${why}); denied so it does not proceed unchecked`,
    additionalContext: [],
    systemMessages: [],
    continue: true,
    eventOutput: {},
    hooks: [],
    warnings: [],
  };
}

/** Wraps an engine for one adapter instance. */
export function engineBridge(engine: HookEngine | UntypedHookEngine, options: FrameworkHookOptions = {}): EngineBridge {
  const names = { ...DEFAULT_TOOL_NAMES, ...options.toolNames };
  const common = {
    session_id: options.sessionId ?? `framework-${process.pid}-${Date.now().toString(36)}`,
    cwd: options.cwd ?? process.cwd(),
  };
  const untyped = engine as UntypedHookEngine;
  const toolName = (name: string) => names[name] ?? name;
  const run = async (event: string, input: Record<string, unknown>): Promise<Decision> => {
    try {
      return await untyped.run(event as never, { ...common, ...input });
    } catch (err) {
      return engineFailure(event, err);
    }
  };
  return {
    toolName,
    run,
    async beforeTool(name, input, id) {
      const d = await run('PreToolUse', { tool_name: toolName(name), tool_input: input, ...(id ? { tool_use_id: id } : {}) });
      return readPreToolUse(d, input);
    },
    async afterTool(name, input, output, id) {
      const d = await run('PostToolUse', {
        tool_name: toolName(name),
        tool_input: input,
        tool_response: output,
        ...(id ? { tool_use_id: id } : {}),
      });
      return readPostToolUse(d, output);
    },
  };
}

/** Reads a PostToolUse Decision: the output the model should see and the context to append. */
export function readPostToolUse(d: Decision, output: unknown): { output: unknown; replaced: boolean; context: string[] } {
  const context = [...d.additionalContext];
  // A PostToolUse block cannot undo the call: Claude Code shows its reason to the model.
  if (d.blocked && d.reason) context.push(d.reason);
  const replaced = d.updatedOutput !== undefined;
  return { output: replaced ? d.updatedOutput : output, replaced, context };
}

/** Reads a PreToolUse Decision: deny (or a stop, or defer) → deny; ask → ask; otherwise run, maybe rewritten. */
export function readPreToolUse(d: Decision, input: Record<string, unknown>): ToolVerdict {
  const context = [...d.additionalContext];
  const reason = d.reason?.trim() || d.stopReason || 'denied by a PreToolUse hook';
  // defer pauses a headless Claude Code run for its caller; a framework loop has no such pause.
  if (d.decision === 'defer')
    return { kind: 'deny', reason: `a hook deferred this call, which the framework cannot pause for: ${reason}`, context };
  if (d.decision === 'deny' || (d.blocked && d.decision !== 'ask') || d.continue === false) {
    return { kind: 'deny', reason: reason, context };
  }
  const next = d.updatedInput ?? input;
  if (d.decision === 'ask') return { kind: 'ask', reason: d.reason ?? 'a hook asks for confirmation', input: next, context };
  return { kind: 'run', input: next, context, allowed: d.decision === 'allow' };
}

/** What the model reads for a call the hooks denied. */
export function deniedText(reason: string): string {
  return `Tool call denied by a hook: ${reason}`;
}

/** The tool output as text with the hooks' context after it (unchanged when there is none). */
export function withContext(output: unknown, context: readonly string[]): unknown {
  if (context.length === 0) return output;
  const text = typeof output === 'string' ? output : JSON.stringify(output);
  return [text, ...context].join('\n\n');
}

/**
 * Imports the framework an adapter needs; when it is missing, the error names the packages to
 * install (optional peer dependencies of agent-hooks).
 */
export async function loadFramework<T>(entry: string, packages: readonly string[], load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw err;
    throw new Error(
      `agent-hooks/${entry} needs ${packages.join(' and ')}: npm install ${packages.join(' ')} (optional peer dependencies of agent-hooks)`,
      { cause: err },
    );
  }
}
