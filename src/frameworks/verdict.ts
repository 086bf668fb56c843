/**
 * What every framework adapter shares: the tool-name map (so a Claude matcher such as `Bash`
 * applies to a framework's `bash` tool), the one call into the engine (an engine that throws
 * becomes a deny with the reason: never fail open), and the decision read as what the adapter
 * must do with a tool call. No decision is made here: `engine.run()` makes it.
 */
import type { HookEngine } from '../api.js';
import type { EventName } from '../events/catalog.js';
import type { Decision } from '../reduce/reduce.js';

export interface FrameworkHookOptions {
  /** Framework tool name → the Claude tool name the hooks match (added to, and over, the default `bash` → `Bash`). */
  toolNames?: Record<string, string>;
  /** The session the hooks see (session_id); default the framework's thread/run id where it has one, else `default`. */
  sessionId?: string;
  /** The cwd the hooks see; default process.cwd(). */
  cwd?: string;
}

const DEFAULT_TOOL_NAMES: Record<string, string> = { bash: 'Bash' };

export function hookToolName(name: string, opts: FrameworkHookOptions = {}): string {
  return opts.toolNames?.[name] ?? DEFAULT_TOOL_NAMES[name] ?? name;
}

/** engine.run(), with an engine failure turned into a blocking decision that says why. */
export async function runEngine(
  engine: HookEngine,
  event: EventName,
  input: Record<string, unknown>,
  opts: FrameworkHookOptions = {},
): Promise<Decision> {
  const full = { cwd: opts.cwd ?? process.cwd(), ...(opts.sessionId ? { session_id: opts.sessionId } : {}), ...input };
  try {
    return (await (engine as unknown as UntypedRun).run(event, full)) as Decision;
  } catch (err) {
    const reason = `agent-hooks could not judge this ${event} (${err instanceof Error ? err.message : String(err)}); failing closed`;
    return {
      event,
      blocked: true,
      decision: 'deny',
      reason,
      additionalContext: [],
      systemMessages: [],
      continue: true,
      eventOutput: {},
      hooks: [],
      warnings: [],
    };
  }
}

type UntypedRun = { run(event: EventName, input: Record<string, unknown>): Promise<unknown> };

/** What to do with one tool call, read from the engine's PreToolUse decision. */
export type ToolVerdict =
  | { kind: 'deny'; reason: string }
  | { kind: 'ask'; reason: string; input?: Record<string, unknown> }
  | { kind: 'run'; input?: Record<string, unknown>; context?: string };

export function toolVerdict(d: Decision, toolName: string): ToolVerdict {
  const reason = d.reason?.trim() || `blocked by a PreToolUse hook on ${toolName}`;
  if (d.decision === 'ask') return { kind: 'ask', reason, ...(d.updatedInput ? { input: d.updatedInput } : {}) };
  // defer pauses a headless Claude Code run for its caller; a framework loop has no such pause.
  if (d.decision === 'defer') return { kind: 'deny', reason: `a hook deferred this call, which the framework cannot pause for: ${reason}` };
  if (d.blocked || d.decision === 'deny' || d.decision === 'block' || !d.continue) return { kind: 'deny', reason: d.stopReason ?? reason };
  const context = d.additionalContext.length ? d.additionalContext.join('\n\n') : undefined;
  return { kind: 'run', ...(d.updatedInput ? { input: d.updatedInput } : {}), ...(context ? { context } : {}) };
}

/** The model's view of a tool result after PostToolUse: replaced, withheld (block) or with added context. */
export function toolResultText(d: Decision, original: string): string {
  let text = original;
  if (d.updatedOutput !== undefined) text = typeof d.updatedOutput === 'string' ? d.updatedOutput : JSON.stringify(d.updatedOutput);
  if (d.blocked) text = `${text}\n\n[PostToolUse hook] ${d.reason?.trim() || 'blocked'}`;
  if (d.additionalContext.length) text = `${text}\n\n${d.additionalContext.join('\n\n')}`;
  return text;
}

/** Loads a framework module, or says which packages to install when it is missing. */
export async function requireFramework<T>(load: () => Promise<T>, entry: string, packages: string[]): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw err;
    throw new Error(`agent-hooks/${entry} needs ${packages.join(' and ')}: npm install ${packages.join(' ')}`, { cause: err });
  }
}
