/**
 * GitHub Copilot CLI: `.github/hooks/*.json` (repository), `~/.copilot/hooks/*.json` (personal);
 * `{"version": 1, "hooks": {"<event>": [{"type": "command", "bash", "powershell", "cwd", "env",
 * "timeoutSec" (default 30)}]}}`. camelCase event names get camelCase payloads; the PascalCase
 * names (PreToolUse, Stop, …) get VS Code-compatible snake_case payloads. preToolUse answers
 * `permissionDecision` allow|deny|ask (+ `permissionDecisionReason`, `modifiedArgs`); agentStop /
 * subagentStop `decision: "block"` + `reason`; permissionRequest `behavior` + `message`. A failing
 * hook never blocks (except exit 2 on permissionRequest = deny). Matchers are regexes anchored as
 * `^(?:p)$`, documented on permissionRequest, notification, preCompact and subagentStart.
 * Copilot CLI 1.0 also denies a preToolUse on exit 2 (stderr = reason) and reads
 * `additionalContext` on preToolUse/postToolUse and `modifiedResult` (`{resultType,
 * textResultForLlm}`) on postToolUse.
 * Source: docs.github.com copilot/reference/copilot-cli-reference/cli-hooks-reference.
 * Reader: reader.ts; wire: wire.ts; detection: detect.ts (this folder).
 */
import { join } from 'node:path';
import type { ExecutionResult, HookBridge, NormalizedHook } from '../../types.js';
import { claudeResult, isObject, jsonObjectOf, mapKeys, snakeToCamel, str, toolTable, TOOL_EVENTS } from '../shared/facts.js';
import type { Dialect, EventMapping, ToolMapping } from '../types.js';
import { detectCopilot } from '../detectors.js';
import { isoTime } from '../../util/iso-time.js';

const EVENTS: readonly EventMapping[] = [
  { native: 'sessionStart', event: 'SessionStart', note: 'additionalContext read by Copilot CLI 1.0.102 (test/agents)' },
  { native: 'sessionEnd', event: 'SessionEnd' },
  {
    native: 'userPromptSubmitted',
    event: 'UserPromptSubmit',
    note: 'decision:"block" + reason and additionalContext read by Copilot CLI 1.0.102 (test/agents)',
  },
  { native: 'preToolUse', event: 'PreToolUse' },
  { native: 'postToolUse', event: 'PostToolUse' },
  { native: 'postToolUseFailure', event: 'PostToolUseFailure' },
  { native: 'agentStop', event: 'Stop' },
  { native: 'subagentStart', event: 'SubagentStart' },
  { native: 'subagentStop', event: 'SubagentStop' },
  { native: 'permissionRequest', event: 'PermissionRequest' },
  { native: 'preCompact', event: 'PreCompact', note: 'notification only in Copilot' },
  { native: 'notification', event: 'Notification' },
  { native: 'errorOccurred', note: 'an error during execution (model call, tool, system); no equivalent' },
  // VS Code-compatible names: same events, snake_case payloads.
  { native: 'SessionStart', event: 'SessionStart' },
  { native: 'SessionEnd', event: 'SessionEnd' },
  { native: 'UserPromptSubmit', event: 'UserPromptSubmit' },
  { native: 'PreToolUse', event: 'PreToolUse' },
  { native: 'PostToolUse', event: 'PostToolUse' },
  { native: 'PostToolUseFailure', event: 'PostToolUseFailure' },
  { native: 'Stop', event: 'Stop' },
  { native: 'SubagentStop', event: 'SubagentStop' },
  { native: 'PreCompact', event: 'PreCompact' },
  { native: 'ErrorOccurred', note: 'no equivalent' },
];
/** Native event name → mapping (payload decoding: wire.ts). */
export const COPILOT_NATIVE_EVENTS: ReadonlyMap<string, EventMapping> = new Map(EVENTS.map((e) => [e.native, e]));
/** Events whose matcher Copilot documents. */
export const COPILOT_MATCHER_EVENTS: ReadonlySet<string> = new Set(['permissionRequest', 'notification', 'preCompact', 'subagentStart']);

export const COPILOT_TOOLS: readonly ToolMapping[] = [
  { canonical: 'Bash', native: 'bash' },
  { canonical: 'PowerShell', native: 'powershell' },
  { canonical: 'Write', native: 'create', fields: { file_path: 'path', content: 'file_text' } },
  { canonical: 'Edit', native: 'edit', fields: { file_path: 'path', old_string: 'old_str', new_string: 'new_str' } },
  { canonical: 'Read', native: 'view', fields: { file_path: 'path' } },
  { canonical: 'Glob', native: 'glob' },
  { canonical: 'Grep', native: 'grep' },
  { canonical: 'WebFetch', native: 'web_fetch' },
  { canonical: 'Task', native: 'task' },
  { canonical: 'AskUserQuestion', native: 'ask_user' },
];
export const COPILOT_TOOL_TABLE = toolTable(COPILOT_TOOLS);
const TOOLS = COPILOT_TOOL_TABLE;

const isSnakeFormat = (native: string) => /^[A-Z]/.test(native);

export function copilotNativeEvent(hook: NormalizedHook): string {
  const n = hook.dialectData?.nativeEvent;
  if (typeof n === 'string') return n;
  return EVENTS.find((e) => e.event === hook.event)?.native ?? hook.event;
}

/** What Copilot reads from a hook's output, in the Claude convention. */
function decodeResult(hook: NormalizedHook, payload: Record<string, unknown>, result: ExecutionResult): ExecutionResult {
  if (result.status !== 'completed') return result;
  const event = hook.event;
  if (result.exitCode === 2 && event === 'PermissionRequest') {
    const json = jsonObjectOf(result.stdout) ?? {};
    return claudeResult(
      result,
      { hookSpecificOutput: { hookEventName: event, decision: { behavior: 'deny', message: str(json.message) ?? 'denied by hook' } } },
      0,
      '',
    );
  }
  if (result.exitCode === 2 && event === 'PostToolUseFailure') {
    const text = result.stderr.trim();
    return claudeResult(result, text ? { hookSpecificOutput: { hookEventName: event, additionalContext: text } } : undefined, 0, '');
  }
  // Copilot CLI 1.0 denies a tool call on exit 2 (stderr is the reason), as Claude does.
  if (result.exitCode === 2 && event === 'PreToolUse')
    return result.stderr.trim() ? result : { ...result, stderr: 'denied by hook (exit 2)' };
  // Any other failure is logged and skipped: never a block.
  if (result.exitCode !== 0) return result.exitCode === 2 ? { ...result, exitCode: 1 } : result;
  const json = jsonObjectOf(result.stdout);
  if (!json) return claudeResult(result, undefined);
  const o: Record<string, unknown> = {};
  const hso: Record<string, unknown> = { hookEventName: event };
  if (event === 'PreToolUse') {
    const d = json.permissionDecision;
    if (d === 'allow' || d === 'deny' || d === 'ask') hso.permissionDecision = d;
    if (typeof json.permissionDecisionReason === 'string') hso.permissionDecisionReason = json.permissionDecisionReason;
    if (d === 'deny' && hso.permissionDecisionReason === undefined) hso.permissionDecisionReason = 'denied by hook';
    if (isObject(json.modifiedArgs) && d !== 'deny') {
      hso.updatedInput = TOOLS.inputToCanonical(TOOLS.toNative(str(payload.tool_name) ?? ''), json.modifiedArgs);
      hso.permissionDecision ??= 'allow';
    }
    if (typeof json.additionalContext === 'string') hso.additionalContext = json.additionalContext;
  } else if (event === 'PostToolUse') {
    if (typeof json.additionalContext === 'string') hso.additionalContext = json.additionalContext;
    const m = json.modifiedResult;
    if (isObject(m)) hso.updatedToolOutput = typeof m.textResultForLlm === 'string' ? m.textResultForLlm : m;
  } else if ((event === 'Stop' || event === 'SubagentStop') && json.decision === 'block') {
    o.decision = 'block';
    o.reason = str(json.reason) ?? 'blocked by hook';
  } else if (event === 'PermissionRequest' && (json.behavior === 'allow' || json.behavior === 'deny')) {
    hso.decision =
      json.behavior === 'deny'
        ? { behavior: 'deny', message: str(json.message) ?? 'denied by hook', ...(json.interrupt === true ? { interrupt: true } : {}) }
        : { behavior: 'allow' };
  } else if (event === 'UserPromptSubmit' || event === 'SessionStart') {
    if (event === 'UserPromptSubmit' && json.decision === 'block') {
      o.decision = 'block';
      o.reason = str(json.reason) ?? 'blocked by hook';
    }
    if (typeof json.additionalContext === 'string') hso.additionalContext = json.additionalContext;
  } else if ((event === 'Notification' || event === 'SubagentStart') && typeof json.additionalContext === 'string') {
    hso.additionalContext = json.additionalContext;
  }
  if (Object.keys(hso).length > 1) o.hookSpecificOutput = hso;
  return claudeResult(result, Object.keys(o).length ? o : undefined);
}

function encodePayload(hook: NormalizedHook, p: Record<string, unknown>): Record<string, unknown> {
  const native = copilotNativeEvent(hook);
  const s: Record<string, unknown> = {
    session_id: p.session_id,
    cwd: p.cwd,
  };
  const tool = str(p.tool_name);
  if (tool !== undefined) {
    s.tool_name = TOOLS.toNative(tool);
    s[isSnakeFormat(native) ? 'tool_input' : 'tool_args'] = TOOLS.inputToNative(tool, p.tool_input);
  }
  switch (hook.event) {
    case 'PostToolUse':
      s.tool_result = isObject(p.tool_response)
        ? p.tool_response
        : {
            result_type: 'success',
            text_result_for_llm: typeof p.tool_response === 'string' ? p.tool_response : JSON.stringify(p.tool_response ?? null),
          };
      break;
    case 'PostToolUseFailure':
      s.error = p.error;
      break;
    case 'Stop':
    case 'SubagentStop':
      s.transcript_path = p.transcript_path;
      s.stop_reason = 'end_turn';
      if (hook.event === 'SubagentStop') s.agent_name = p.agent_type;
      break;
    case 'SubagentStart':
      s.transcript_path = p.transcript_path;
      s.agent_name = p.agent_type;
      break;
    case 'UserPromptSubmit':
      s.prompt = p.prompt;
      break;
    case 'SessionStart':
      s.source = p.source;
      break;
    case 'SessionEnd':
      s.reason = p.reason;
      break;
    case 'PreCompact':
      s.transcript_path = p.transcript_path;
      s.trigger = p.trigger;
      s.custom_instructions = p.custom_instructions;
      break;
    case 'Notification':
      s.message = p.message;
      s.notification_type = p.notification_type;
      if (p.title !== undefined) s.title = p.title;
      break;
    default:
      break;
  }
  if (isSnakeFormat(native)) return { hook_event_name: native, ...s, timestamp: isoTime() };
  return { ...mapKeys(s, snakeToCamel), timestamp: Date.now() };
}

export const copilotBridge: HookBridge = {
  matchValue: (hook, value) => (TOOL_EVENTS.has(hook.event) ? TOOLS.toNative(value) : value),
  encodePayload,
  decodeResult,
};

export const copilot: Dialect = {
  name: 'copilot',
  title: 'Copilot CLI',
  format: 'json',
  // Its hooks' environment names no project directory: the trusted workspace containing cwd is the project.
  projectDirEnv: [],
  configLocations: ({ projectDir, homeDir }) => [
    { kind: 'user', dir: join(homeDir, '.copilot', 'hooks') },
    { kind: 'project', dir: join(projectDir, '.github', 'hooks') },
  ],
  locations: { user: ['~/.copilot/hooks/*.json'], project: ['.github/hooks/*.json'] },
  defaults: { timeoutSec: 30, timeoutUnit: 's' },
  events: EVENTS,
  tools: COPILOT_TOOLS,
  matcherMode: () => 'regex-anchored',
  detect: detectCopilot,
  configuredEvents: (doc) =>
    isObject(doc) && isObject(doc.hooks)
      ? Object.keys(doc.hooks).filter(
          (k) =>
            Array.isArray((doc.hooks as Record<string, unknown>)[k]) &&
            ((doc.hooks as Record<string, unknown[]>)[k] as unknown[]).length > 0,
        )
      : [],
  bridge: copilotBridge,
};
