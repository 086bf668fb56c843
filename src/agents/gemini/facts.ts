/**
 * Gemini CLI: `hooks` in settings.json (`~/.gemini/settings.json`, `.gemini/settings.json`),
 * Claude-shaped groups with `sequential`; handlers `{type:"command", command, name, description,
 * timeout (ms, default 60000), env}`. Events BeforeTool/AfterTool/BeforeAgent/AfterAgent/
 * SessionStart/SessionEnd/PreCompress/Notification (+ model events with no equivalent here).
 * Outputs: top-level `decision` ("allow" | "ask" on BeforeTool | "deny"/"block"), `reason`,
 * `hookSpecificOutput.tool_input` (merged over the call's arguments), `additionalContext`. On
 * AfterTool a deny puts the reason in place of the tool's result (the only output replacement).
 * Exit 2 blocks with stderr. When stdout is empty Gemini parses stderr as the output.
 * Matchers: tool events regex (an invalid regex compares exactly), lifecycle events exact.
 * Sources: google-gemini/gemini-cli packages/core/src/hooks/{types,hookPlanner,hookRunner,hookRegistry}.ts,
 * docs/hooks/reference.md.
 * Reader: reader.ts; wire: wire.ts; detection: detect.ts (this folder).
 */
import { join, resolve } from 'node:path';
import type { EventName } from '../../events/catalog.js';
import type { ExecutionResult, HookBridge, MatcherMode, NormalizedHook } from '../../types.js';
import { groupEvents } from '../claude/facts.js';
import { claudeResult, isObject, jsonObjectOf, str, toolTable, TOOL_EVENTS } from '../shared/facts.js';
import type { Dialect, EventMapping, ToolMapping, Undeliverable } from '../types.js';
import { detectGemini } from '../detectors.js';
import { isoTime } from '../../util/iso-time.js';

const EVENTS: readonly EventMapping[] = [
  { native: 'BeforeTool', event: 'PreToolUse' },
  { native: 'AfterTool', event: 'PostToolUse' },
  { native: 'BeforeAgent', event: 'UserPromptSubmit' },
  { native: 'AfterAgent', event: 'Stop', note: 'deny = reject the response and retry with the reason as the next prompt' },
  { native: 'SessionStart', event: 'SessionStart' },
  { native: 'SessionEnd', event: 'SessionEnd' },
  { native: 'PreCompress', event: 'PreCompact', note: 'advisory in Gemini: it cannot block compression' },
  { native: 'Notification', event: 'Notification' },
  { native: 'BeforeModel', note: 'operates on the LLM request; agent-hooks has no model events' },
  { native: 'AfterModel', note: 'operates on LLM response chunks; agent-hooks has no model events' },
  { native: 'BeforeToolSelection', note: 'filters the tool list sent to the model; no equivalent' },
];

/** Gemini's built-in tool names (docs/tools); tool_input field names match Claude's except where listed. */
export const GEMINI_TOOLS: readonly ToolMapping[] = [
  { canonical: 'Bash', native: 'run_shell_command' },
  { canonical: 'Read', native: 'read_file' },
  { canonical: 'Write', native: 'write_file' },
  { canonical: 'Edit', native: 'replace' },
  { canonical: 'Glob', native: 'glob' },
  { canonical: 'Grep', native: 'search_file_content' },
  { canonical: 'Grep', native: 'grep_search' },
  { canonical: 'LS', native: 'list_directory' },
  { canonical: 'WebFetch', native: 'web_fetch' },
  { canonical: 'WebSearch', native: 'google_web_search' },
  { canonical: 'TodoWrite', native: 'write_todos' },
];

/** Gemini CLI's system settings file for this platform. */
export function geminiSystemSettings(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/GeminiCli/settings.json';
  if (platform === 'win32') return 'C:\\ProgramData\\gemini-cli\\settings.json';
  return '/etc/gemini-cli/settings.json';
}

export function geminiLikeMatcherMode(event: EventName): MatcherMode {
  return TOOL_EVENTS.has(event) ? 'regex-or-exact' : 'exact';
}

export interface GeminiLike {
  events: readonly EventMapping[];
  tools: ReturnType<typeof toolTable>;
}

export function nativeEventOf(events: readonly EventMapping[], hook: NormalizedHook): string {
  const n = hook.dialectData?.nativeEvent;
  if (typeof n === 'string') return n;
  return events.find((e) => e.event === hook.event)?.native ?? hook.event;
}

/** Gemini's events and tool table (also the wire adapter's, wire.ts). */
export const G: GeminiLike = { events: EVENTS, tools: toolTable(GEMINI_TOOLS) };

/** Canonical payload → what Gemini would have sent for the hook's native event. */
function encodePayload(hook: NormalizedHook, p: Record<string, unknown>): Record<string, unknown> {
  const native = nativeEventOf(EVENTS, hook);
  const base: Record<string, unknown> = {
    session_id: p.session_id,
    transcript_path: p.transcript_path,
    cwd: p.cwd,
    hook_event_name: native,
    timestamp: typeof p.timestamp === 'string' && p.timestamp ? p.timestamp : isoTime(),
  };
  switch (hook.event) {
    case 'PreToolUse':
    case 'PostToolUse': {
      const tool = str(p.tool_name) ?? '';
      base.tool_name = G.tools.toNative(tool);
      base.tool_input = G.tools.inputToNative(tool, p.tool_input);
      if (p.mcp_context !== undefined) base.mcp_context = p.mcp_context;
      if (hook.event === 'PostToolUse') base.tool_response = p.tool_response;
      break;
    }
    case 'UserPromptSubmit':
      base.prompt = p.prompt;
      break;
    case 'Stop':
      base.prompt = str(p.prompt) ?? '';
      base.prompt_response = str(p.last_assistant_message) ?? '';
      base.stop_hook_active = p.stop_hook_active === true;
      break;
    case 'SessionStart':
      base.source = p.source;
      break;
    case 'SessionEnd':
      base.reason = p.reason;
      break;
    case 'PreCompact':
      base.trigger = p.trigger;
      break;
    case 'Notification':
      base.notification_type = p.notification_type;
      base.message = p.message;
      base.details = isObject(p.details) ? p.details : {};
      break;
    default:
      break;
  }
  return base;
}

function canonicalDecision(
  event: string,
  decision: unknown,
  reason: string | undefined,
  o: Record<string, unknown>,
  hso: Record<string, unknown>,
): void {
  if (decision === 'deny' || decision === 'block') {
    if (event === 'PreToolUse') {
      hso.permissionDecision = 'deny';
      hso.permissionDecisionReason = reason ?? 'No reason provided';
    } else {
      o.decision = 'block';
      o.reason = reason ?? 'No reason provided';
    }
  } else if ((decision === 'allow' || decision === 'approve') && event === 'PreToolUse') {
    hso.permissionDecision = 'allow';
    if (reason !== undefined) hso.permissionDecisionReason = reason;
  } else if (decision === 'ask' && event === 'PreToolUse') {
    hso.permissionDecision = 'ask';
    if (reason !== undefined) hso.permissionDecisionReason = reason;
  }
}

/** Gemini's reading of a hook's output, re-expressed in the Claude convention. */
export function decodeGeminiLike(
  tools: GeminiLike['tools'],
  hook: NormalizedHook,
  payload: Record<string, unknown>,
  result: ExecutionResult,
): ExecutionResult {
  if (result.status !== 'completed' || result.exitCode !== 0) return result; // exit 2 blocks with stderr, others warn: as in Claude
  const text = result.stdout.trim();
  if (!text) return result;
  let json = jsonObjectOf(text);
  if (!json) {
    // Gemini also accepts double-encoded JSON; plain text is a system message.
    try {
      const once: unknown = JSON.parse(text);
      json = typeof once === 'string' ? jsonObjectOf(once) : undefined;
    } catch {
      json = undefined;
    }
    if (!json) return claudeResult(result, { systemMessage: text });
  }
  const event = hook.event;
  const o: Record<string, unknown> = {};
  const hso: Record<string, unknown> = { hookEventName: event };
  for (const k of ['continue', 'stopReason', 'systemMessage', 'suppressOutput'] as const) if (json[k] !== undefined) o[k] = json[k];
  canonicalDecision(event, json.decision, str(json.reason), o, hso);
  const spec = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  if (typeof spec.additionalContext === 'string' && event !== 'PreToolUse') hso.additionalContext = spec.additionalContext;
  if (event === 'PreToolUse' && isObject(spec.tool_input)) {
    const tool = str(payload.tool_name) ?? '';
    const original = isObject(payload.tool_input) ? payload.tool_input : {};
    // Gemini merges the hook's tool_input over the model's arguments.
    hso.updatedInput = { ...original, ...(tools.inputToCanonical(tools.toNative(tool), spec.tool_input) as Record<string, unknown>) };
    hso.permissionDecision ??= 'allow';
  }
  // AfterTool deny: Gemini hands the model the reason in place of the tool's result.
  if (event === 'PostToolUse' && (json.decision === 'deny' || json.decision === 'block'))
    hso.updatedToolOutput = str(json.reason) ?? 'No reason provided';
  if (Object.keys(hso).length > 1) o.hookSpecificOutput = hso;
  return claudeResult(result, o);
}

export const geminiBridge: HookBridge = {
  matchValue: (hook, value) => (TOOL_EVENTS.has(hook.event) ? G.tools.toNative(value) : value),
  encodePayload,
  decodeResult: (hook, payload, result) => decodeGeminiLike(G.tools, hook, payload, result),
};

/** What the agent cannot deliver (src/agents/shared/undeliverable.ts; docs/dialects.md "Not deliverable by the agent"). */
export const GEMINI_UNDELIVERABLE: readonly Undeliverable[] = [
  {
    event: 'PreToolUse',
    part: 'context',
    version: 'Gemini CLI 0.61.0',
    what: 'its BeforeTool path reads only stop, block/deny and tool_input; additionalContext is read on AfterTool and BeforeAgent only',
  },
];

export const gemini: Dialect = {
  name: 'gemini',
  title: 'Gemini CLI',
  format: 'json',
  projectDirEnv: ['GEMINI_PROJECT_DIR'],
  // System settings (the administrator's; GEMINI_CLI_SYSTEM_SETTINGS_PATH moves them), then user, then project.
  configLocations: ({ projectDir, homeDir, env }) => [
    { kind: 'user', file: env.GEMINI_CLI_SYSTEM_SETTINGS_PATH ? resolve(env.GEMINI_CLI_SYSTEM_SETTINGS_PATH) : geminiSystemSettings() },
    { kind: 'user', file: join(homeDir, '.gemini', 'settings.json') },
    { kind: 'project', file: join(projectDir, '.gemini', 'settings.json') },
  ],
  locations: { user: ['/etc/gemini-cli/settings.json (system)', '~/.gemini/settings.json'], project: ['.gemini/settings.json'] },
  defaults: { timeoutSec: 60, timeoutUnit: 'ms' },
  events: EVENTS,
  tools: GEMINI_TOOLS,
  matcherMode: geminiLikeMatcherMode,
  detect: detectGemini,
  configuredEvents: (doc) =>
    isObject(doc) ? groupEvents(doc.hooks).filter((e) => !['enabled', 'disabled', 'notifications'].includes(e)) : [],
  undeliverable: GEMINI_UNDELIVERABLE,
  bridge: geminiBridge,
};
