/**
 * Cursor: `.cursor/hooks.json` (project), `~/.cursor/hooks.json` (user), enterprise paths;
 * `{"version": 1, "hooks": {"<event>": [{"command": …}]}}`, flat entries (no matcher groups).
 * Tool-specific events imply the tool (beforeShellExecution = PreToolUse of Bash); the generic
 * preToolUse/postToolUse take a `matcher` on Cursor's tool names (Shell, Read, Write, Grep, Task,
 * MCP:<tool>). Outputs: `permission` allow|deny|ask with `user_message`/`agent_message`,
 * `continue` on beforeSubmitPrompt, `followup_message` on stop, `additional_context` and `env` on
 * sessionStart. Exit 2 denies; `failClosed: true` makes a failing hook deny.
 * Sources: cursor.com/docs/hooks (the 1.7–2.0 text mirrored in pcomans/caruso reference/cursor_hooks.md);
 * newer events and entry fields (matcher, timeout, failClosed, loop_limit, type "prompt") from
 * third-party schemas and validators — see docs/dialects.md for what is unconfirmed.
 * Reader: reader.ts; wire: wire.ts; detection: detect.ts (this folder).
 */
import { join } from 'node:path';
import type { ExecutionResult, HookBridge, NormalizedHook } from '../../types.js';
import { claudeResult, isObject, jsonObjectOf, str, toolTable, TOOL_EVENTS } from '../shared/facts.js';
import type { Dialect, EventMapping, ToolMapping } from '../types.js';
import { detectCursor } from '../detectors.js';

const MCP_MATCHER = 'mcp__.*';

const EVENTS: readonly EventMapping[] = [
  { native: 'preToolUse', event: 'PreToolUse' },
  { native: 'postToolUse', event: 'PostToolUse' },
  { native: 'postToolUseFailure', event: 'PostToolUseFailure' },
  { native: 'beforeShellExecution', event: 'PreToolUse', tool: 'Bash' },
  { native: 'afterShellExecution', event: 'PostToolUse', tool: 'Bash' },
  { native: 'beforeMCPExecution', event: 'PreToolUse', tool: MCP_MATCHER },
  { native: 'afterMCPExecution', event: 'PostToolUse', tool: MCP_MATCHER },
  { native: 'beforeReadFile', event: 'PreToolUse', tool: 'Read', note: 'allow/deny only (no ask)' },
  { native: 'afterFileEdit', event: 'PostToolUse', tool: 'Edit|Write|MultiEdit' },
  { native: 'beforeSubmitPrompt', event: 'UserPromptSubmit' },
  {
    native: 'stop',
    event: 'Stop',
    note: 'followup_message = continue with that message; Cursor caps auto follow-ups (loop_limit, 5 by default)',
  },
  { native: 'subagentStart', event: 'SubagentStart' },
  { native: 'subagentStop', event: 'SubagentStop' },
  { native: 'sessionStart', event: 'SessionStart' },
  { native: 'sessionEnd', event: 'SessionEnd' },
  { native: 'preCompact', event: 'PreCompact', note: 'observation only in Cursor' },
  { native: 'afterAgentResponse', note: 'assistant message text after the fact; no equivalent' },
  { native: 'afterAgentThought', note: 'thinking text; no equivalent' },
  { native: 'beforeTabFileRead', note: 'Tab completions, not the agent; no equivalent' },
  { native: 'afterTabFileEdit', note: 'Tab completions, not the agent; no equivalent' },
  { native: 'workspaceOpen', note: 'no equivalent' },
];
const NATIVE = new Map(EVENTS.map((e) => [e.native, e]));
/** Native event name → mapping (payload decoding in wire.ts; detection in detect.ts). */
export const CURSOR_NATIVE_EVENTS: ReadonlyMap<string, EventMapping> = NATIVE;
/** Events whose entries take a matcher on tool names (others have the tool implied or no matcher). */
export const CURSOR_MATCHER_EVENTS: ReadonlySet<string> = new Set(['preToolUse', 'postToolUse', 'postToolUseFailure']);

export const CURSOR_TOOLS: readonly ToolMapping[] = [
  { canonical: 'Bash', native: 'Shell' },
  { canonical: 'Read', native: 'Read' },
  { canonical: 'Write', native: 'Write' },
  // Cursor's edit tool; `path` is read as file_path so path rules (`Edit(**/.env)`) see the file.
  { canonical: 'Edit', native: 'StrReplace', fields: { file_path: 'path' } },
  { canonical: 'Grep', native: 'Grep' },
  { canonical: 'Task', native: 'Task' },
];
/** Cursor names MCP tools `MCP:<tool>` without the server; canonical names use `cursor` as the server. */
const TOOLS = toolTable(CURSOR_TOOLS, {
  toNative: (n) => (n.startsWith('mcp__') ? `MCP:${n.split('__').slice(2).join('__') || n}` : undefined),
  toCanonical: (n) => (n.startsWith('MCP:') ? `mcp__cursor__${n.slice(4)}` : undefined),
});

export function cursorNativeEvent(hook: NormalizedHook): string {
  const n = hook.dialectData?.nativeEvent;
  if (typeof n === 'string') return n;
  return EVENTS.find((e) => e.event === hook.event && !e.tool)?.native ?? hook.event;
}

function decodeResult(hook: NormalizedHook, payload: Record<string, unknown>, result: ExecutionResult): ExecutionResult {
  if (result.status !== 'completed' || result.exitCode !== 0) return result;
  const json = jsonObjectOf(result.stdout);
  if (!json) return claudeResult(result, undefined);
  const native = cursorNativeEvent(hook);
  const event = hook.event;
  const o: Record<string, unknown> = {};
  const hso: Record<string, unknown> = { hookEventName: event };
  const message = str(json.agent_message) ?? str(json.user_message);
  if (event === 'PreToolUse') {
    const p = json.permission;
    if (p === 'deny' || (p === 'ask' && native === 'beforeReadFile')) {
      hso.permissionDecision = 'deny';
      hso.permissionDecisionReason = message ?? 'denied by hook';
    } else if (p === 'ask' || p === 'allow') {
      hso.permissionDecision = p;
      if (message !== undefined) hso.permissionDecisionReason = message;
    }
    if (isObject(json.updated_input) && native === 'preToolUse' && p !== 'deny') {
      hso.updatedInput = TOOLS.inputToCanonical(TOOLS.toNative(str(payload.tool_name) ?? ''), json.updated_input);
      hso.permissionDecision ??= 'allow';
    }
  } else if (event === 'UserPromptSubmit' && json.continue === false) {
    o.decision = 'block';
    o.reason = str(json.user_message) ?? 'blocked by hook';
  } else if ((event === 'Stop' || event === 'SubagentStop') && typeof json.followup_message === 'string' && json.followup_message.trim()) {
    o.decision = 'block';
    o.reason = json.followup_message;
  }
  if (typeof json.additional_context === 'string' && (event === 'SessionStart' || event === 'PostToolUse'))
    hso.additionalContext = json.additional_context;
  if (json.updated_mcp_tool_output !== undefined && event === 'PostToolUse') hso.updatedMCPToolOutput = json.updated_mcp_tool_output;
  if (typeof json.user_message === 'string' && o.reason === undefined && hso.permissionDecisionReason === undefined)
    o.systemMessage = json.user_message;
  if (Object.keys(hso).length > 1) o.hookSpecificOutput = hso;
  return claudeResult(result, Object.keys(o).length ? o : undefined);
}

function encodePayload(hook: NormalizedHook, p: Record<string, unknown>): Record<string, unknown> {
  const native = cursorNativeEvent(hook);
  const o: Record<string, unknown> = {
    conversation_id: p.session_id,
    generation_id: '',
    hook_event_name: native,
    workspace_roots: [p.cwd],
    transcript_path: p.transcript_path || null,
  };
  const input = isObject(p.tool_input) ? p.tool_input : {};
  const tool = str(p.tool_name) ?? '';
  switch (native) {
    case 'beforeShellExecution':
    case 'afterShellExecution':
      o.command = input.command;
      o.cwd = p.cwd;
      if (native === 'afterShellExecution')
        o.output = isObject(p.tool_response) ? (p.tool_response.stdout ?? '') : String(p.tool_response ?? '');
      break;
    case 'beforeMCPExecution':
    case 'afterMCPExecution':
      o.tool_name = tool.split('__').slice(2).join('__') || tool;
      o.tool_input = JSON.stringify(input);
      if (native === 'afterMCPExecution') o.result_json = JSON.stringify(p.tool_response ?? null);
      break;
    case 'beforeReadFile':
      o.file_path = input.file_path;
      break;
    case 'afterFileEdit':
      o.file_path = input.file_path;
      o.edits = Array.isArray(input.edits)
        ? input.edits
        : [{ old_string: input.old_string, new_string: input.new_string ?? input.content }];
      break;
    case 'preToolUse':
    case 'postToolUse':
    case 'postToolUseFailure':
      o.tool_name = TOOLS.toNative(tool);
      o.tool_input = TOOLS.inputToNative(tool, input);
      o.cwd = p.cwd;
      if (p.tool_use_id !== undefined) o.tool_use_id = p.tool_use_id;
      if (native === 'postToolUse')
        o.tool_output = typeof p.tool_response === 'string' ? p.tool_response : JSON.stringify(p.tool_response ?? null);
      if (native === 'postToolUseFailure') o.error_message = p.error;
      break;
    case 'beforeSubmitPrompt':
      o.prompt = p.prompt;
      break;
    case 'stop':
    case 'subagentStop':
      o.status = 'completed';
      o.loop_count = p.stop_hook_active === true ? 1 : 0;
      if (native === 'subagentStop') o.subagent_type = p.agent_type;
      break;
    case 'subagentStart':
      o.subagent_id = p.agent_id;
      o.subagent_type = p.agent_type;
      break;
    case 'sessionEnd':
      o.reason = p.reason;
      break;
    case 'preCompact':
      o.trigger = p.trigger;
      break;
    default:
      break;
  }
  return o;
}

export const cursorBridge: HookBridge = {
  matchValue: (hook, value) =>
    TOOL_EVENTS.has(hook.event) && hook.dialectData?.impliedMatcher === undefined ? TOOLS.toNative(value) : value,
  encodePayload,
  decodeResult,
};

export const cursor: Dialect = {
  name: 'cursor',
  title: 'Cursor',
  format: 'json',
  projectDirEnv: ['CURSOR_PROJECT_DIR'],
  configLocations: ({ projectDir, homeDir }) => [
    { kind: 'user', file: join(homeDir, '.cursor', 'hooks.json') },
    { kind: 'project', file: join(projectDir, '.cursor', 'hooks.json') },
  ],
  locations: { user: ['~/.cursor/hooks.json'], project: ['.cursor/hooks.json'] },
  defaults: { timeoutUnit: 's' },
  events: EVENTS,
  tools: CURSOR_TOOLS,
  matcherMode: () => 'regex',
  detect: detectCursor,
  configuredEvents: (doc) =>
    isObject(doc) && isObject(doc.hooks)
      ? Object.keys(doc.hooks).filter(
          (k) =>
            Array.isArray((doc.hooks as Record<string, unknown>)[k]) &&
            ((doc.hooks as Record<string, unknown[]>)[k] as unknown[]).length > 0,
        )
      : [],
  bridge: cursorBridge,
};

export { EVENTS as CURSOR_EVENTS, TOOLS as CURSOR_TOOL_TABLE };
