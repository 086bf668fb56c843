/**
 * OpenAI Codex: `hooks.json` next to a config layer (`~/.codex/hooks.json`, `<repo>/.codex/hooks.json`)
 * or inline `[hooks]` tables in `config.toml`. Claude-shaped groups; Claude event and tool names
 * (Bash, apply_patch, mcp__server__tool). Differences: default timeout 600 s; matcher exact set
 * `[A-Za-z0-9_|]`; matchers only on tool events and SessionStart; PreToolUse cannot `ask` and
 * rejects a bare `allow`; outputs reject unknown fields.
 * Sources: openai/codex codex-rs/hooks (discovery.rs, output_parser.rs, events/common.rs, schema.rs),
 * codex-rs/config/src/hook_config.rs, developers.openai.com/codex/hooks.
 * Reader: reader.ts; wire: wire.ts; detection: detect.ts (this folder).
 */
import { join, resolve } from 'node:path';
import type { ExecutionResult, HookBridge } from '../../types.js';
import { groupEvents } from '../claude/facts.js';
import { aliasedMatchValue, claudeResult, isObject, jsonObjectOf, str, toolTable, TOOL_EVENTS } from '../shared/facts.js';
import type { Dialect, EventMapping, ToolMapping } from '../types.js';
import { detectCodex } from '../detectors.js';

const EVENTS: readonly EventMapping[] = [
  { native: 'PreToolUse', event: 'PreToolUse' },
  { native: 'PermissionRequest', event: 'PermissionRequest' },
  { native: 'PostToolUse', event: 'PostToolUse' },
  { native: 'PreCompact', event: 'PreCompact' },
  { native: 'PostCompact', event: 'PostCompact' },
  { native: 'SessionStart', event: 'SessionStart' },
  { native: 'UserPromptSubmit', event: 'UserPromptSubmit' },
  { native: 'Stop', event: 'Stop' },
  { native: 'SubagentStart', event: 'SubagentStart' },
  { native: 'SubagentStop', event: 'SubagentStop' },
  { native: 'StopFailure', event: 'StopFailure' },
  { native: 'SessionEnd', event: 'SessionEnd', note: 'listed in the Codex docs; not in the hook_config.rs versions we read' },
  { native: 'Interrupt', event: 'Interrupt', note: 'listed in the Codex docs; not in the hook_config.rs versions we read' },
];
/** Native event name → mapping (payload decoding in wire.ts; detection in detect.ts). */
export const CODEX_NATIVE_EVENTS: ReadonlyMap<string, EventMapping> = new Map(EVENTS.map((e) => [e.native, e]));

/**
 * Codex names its patch tool apply_patch (tool_input `{command: <patch>}`) and lets a `Write` or
 * `Edit` matcher fire on it (HookToolName::apply_patch's matcher aliases); canonically it is
 * ApplyPatch, so a Claude `Edit|Write|MultiEdit|ApplyPatch` guard sees it. Bash and MCP names are Claude's.
 */
export const CODEX_TOOLS: readonly ToolMapping[] = [{ canonical: 'ApplyPatch', native: 'apply_patch' }];
export const CODEX_TOOL_TABLE = toolTable(CODEX_TOOLS);
const TOOLS = CODEX_TOOL_TABLE;
const MATCHER_ALIASES: Readonly<Record<string, readonly string[]>> = { apply_patch: ['Write', 'Edit'] };

/** Events whose matcher Codex honours (events/common.rs matcher_pattern_for_event); elsewhere it is ignored. */
export const CODEX_MATCHER_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'SessionStart']);

/**
 * Codex's reading of a hook's output, expressed so the Claude parse stage reaches the same verdict.
 * Two answers Codex rejects (and then runs the tool: its hook failed, non-blocking) are kept as
 * the hook wrote them, because both ask to stop and the engine never lets such an answer turn
 * into a pass: a PreToolUse `ask` (under dispatch refused, as any ask Codex cannot put to the
 * user) and `continue: false` (the agent stops). Codex 0.169.0 ran the command after a hook's
 * `ask` in its own file (test/agents/dialect-diff native-files, `ask-permissive`).
 */
function decodeResult(event: string, result: ExecutionResult): ExecutionResult {
  if (result.status !== 'completed') return result;
  const failed = (why: string) => ({ ...result, exitCode: 1, stdout: '', stderr: why });
  if (result.exitCode === 2)
    return result.stderr.trim() ? result : failed(`${event} hook exited with code 2 but did not write a blocking reason to stderr`);
  if (result.exitCode !== 0) return result;
  const json = jsonObjectOf(result.stdout);
  if (!json) return result;
  const hso = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : undefined;
  if ((event === 'PreToolUse' || event === 'PermissionRequest') && json.continue !== false) {
    if (json.stopReason !== undefined || json.suppressOutput === true)
      return failed(`${event} hook returned unsupported stopReason/suppressOutput`);
  }
  if (event === 'PreToolUse') {
    const decision = hso?.permissionDecision;
    if (hso?.updatedInput !== undefined && decision !== 'allow')
      return failed('PreToolUse hook returned updatedInput without permissionDecision:allow');
    if (decision === 'allow' && hso?.updatedInput === undefined)
      return failed('PreToolUse hook returned unsupported permissionDecision:allow');
    if (decision === 'deny' && !str(hso?.permissionDecisionReason)?.trim())
      return failed('PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason');
    if (json.decision === 'approve') return failed('PreToolUse hook returned unsupported decision:approve');
  }
  if (event === 'PermissionRequest' && isObject(hso?.decision)) {
    const dec = hso.decision;
    if (dec.updatedInput !== undefined || dec.updatedPermissions !== undefined || dec.interrupt === true)
      return failed('PermissionRequest hook returned an unsupported field');
  }
  if (json.decision === 'block' && !str(json.reason)?.trim())
    return failed(`${event} hook returned decision:block without a non-empty reason`);
  return claudeResult(result, json);
}

export const codexBridge: HookBridge = {
  matchValue: (hook, value) => (TOOL_EVENTS.has(hook.event) ? aliasedMatchValue(hook, TOOLS.toNative(value), MATCHER_ALIASES) : value),
  encodePayload: (_hook, payload) => ({
    ...payload,
    ...(typeof payload.tool_name === 'string' ? { tool_name: TOOLS.toNative(payload.tool_name) } : {}),
    transcript_path: payload.transcript_path === '' ? null : payload.transcript_path,
  }),
  decodeResult: (hook, _payload, result) => decodeResult(hook.event, result),
};

export const codex: Dialect = {
  name: 'codex',
  title: 'Codex',
  format: 'json',
  // Its hooks' environment names no project directory: the trusted workspace containing cwd is the project.
  projectDirEnv: [],
  // CODEX_HOME moves the user layer (Codex's own override of ~/.codex).
  configLocations: ({ projectDir, homeDir, env }) => {
    const home = env.CODEX_HOME ? resolve(env.CODEX_HOME) : join(homeDir, '.codex');
    return [
      { kind: 'user', file: join(home, 'hooks.json') },
      { kind: 'user', file: join(home, 'config.toml') },
      { kind: 'project', file: join(projectDir, '.codex', 'hooks.json') },
      { kind: 'project', file: join(projectDir, '.codex', 'config.toml') },
    ];
  },
  locations: {
    user: ['~/.codex/hooks.json', '~/.codex/config.toml ([hooks])'],
    project: ['.codex/hooks.json', '.codex/config.toml ([hooks])'],
  },
  defaults: { timeoutSec: 600, timeoutUnit: 's' },
  events: EVENTS,
  tools: CODEX_TOOLS,
  matcherMode: () => 'claude-narrow',
  // Codex 0.169.0 ran two identical PreToolUse groups twice (test/agents/dialect-diff).
  keepsIdenticalHooks: true,
  detect: detectCodex,
  configuredEvents: (doc) => (isObject(doc) ? groupEvents(doc.hooks).filter((e) => e !== 'state') : []),
  bridge: codexBridge,
};
