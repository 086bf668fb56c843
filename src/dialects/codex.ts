/**
 * OpenAI Codex: `hooks.json` next to a config layer (`~/.codex/hooks.json`, `<repo>/.codex/hooks.json`)
 * or inline `[hooks]` tables in `config.toml`. Claude-shaped groups; Claude event and tool names
 * (Bash, apply_patch, mcp__server__tool). Differences: default timeout 600 s; matcher exact set
 * `[A-Za-z0-9_|]`; matchers only on tool events and SessionStart; PreToolUse cannot `ask` and
 * rejects a bare `allow`; outputs reject unknown fields.
 * Sources: openai/codex codex-rs/hooks (discovery.rs, output_parser.rs, events/common.rs, schema.rs),
 * codex-rs/config/src/hook_config.rs, developers.openai.com/codex/hooks.
 */
import { join, resolve } from 'node:path';
import type { EventName } from '../events/catalog.js';
import type { ExecutionResult, HookBridge } from '../types.js';
import { groupEvents } from './claude.js';
import { aliasedMatchValue, claudeResult, failClosedReason, isObject, jsonObjectOf, joinContext, joinMessages, out, reasonOf, str, toolTable, TOOL_EVENTS } from './shared.js';
import type { Dialect, DispatchOutput, EventMapping, ToolMapping } from './types.js';

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
const NATIVE = new Map(EVENTS.map((e) => [e.native, e]));

/**
 * Codex names its patch tool apply_patch (tool_input `{command: <patch>}`) and lets a `Write` or
 * `Edit` matcher fire on it (HookToolName::apply_patch's matcher aliases); canonically it is
 * ApplyPatch, so a Claude `Edit|Write|MultiEdit|ApplyPatch` guard sees it. Bash and MCP names are Claude's.
 */
export const CODEX_TOOLS: readonly ToolMapping[] = [{ canonical: 'ApplyPatch', native: 'apply_patch' }];
const TOOLS = toolTable(CODEX_TOOLS);
const MATCHER_ALIASES: Readonly<Record<string, readonly string[]>> = { apply_patch: ['Write', 'Edit'] };

/** Events whose matcher Codex honours (events/common.rs matcher_pattern_for_event); elsewhere it is ignored. */
export const CODEX_MATCHER_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'SessionStart']);

function encode(d: Parameters<Dialect['encodeDecision']>[0], toolName: string | undefined): DispatchOutput {
  const o: Record<string, unknown> = {};
  const hso: Record<string, unknown> = { hookEventName: d.event };
  const notes: string[] = [];
  const context = joinContext(d);
  const message = joinMessages(d);
  switch (d.event) {
    case 'PreToolUse': {
      // Codex PreToolUse: deny (with a reason) or allow+updatedInput; no ask, no bare allow, no continue:false.
      let deny: string | undefined;
      if (d.decision === 'deny' || d.decision === 'block') deny = reasonOf(d);
      else if (d.decision === 'ask' || d.decision === 'defer') deny = failClosedReason(d, 'ask', 'Codex');
      else if (!d.continue) deny = d.stopReason?.trim() || 'stopped by hook';
      if (deny !== undefined) {
        hso.permissionDecision = 'deny';
        hso.permissionDecisionReason = deny;
      } else if (d.updatedInput) {
        hso.permissionDecision = 'allow';
        hso.updatedInput = d.updatedInput;
      }
      if (context !== undefined) hso.additionalContext = context;
      break;
    }
    case 'PermissionRequest':
      if (d.decision === 'allow' && d.updatedInput) {
        hso.decision = { behavior: 'deny', message: failClosedReason(d, 'rewrite', 'Codex') };
      } else if (d.decision === 'allow') {
        hso.decision = { behavior: 'allow' };
        if (Array.isArray(d.eventOutput.updatedPermissions) && d.eventOutput.updatedPermissions.length) notes.push('updatedPermissions is not supported by Codex; left out');
      } else if (d.decision === 'deny') {
        hso.decision = { behavior: 'deny', message: reasonOf(d, 'denied by hook') };
        if (d.eventOutput.interrupt === true) notes.push('interrupt is not supported by Codex; left out');
      }
      if (!d.continue) notes.push('continue:false is not supported on PermissionRequest by Codex; left out');
      break;
    case 'PreCompact':
      // Codex reads only the universal fields here; exit 2 is the blocking convention it shares with Claude.
      if (d.blocked) return out(undefined, 2, reasonOf(d));
      break;
    default:
      if (d.blocked && (d.event === 'PostToolUse' || d.event === 'UserPromptSubmit' || d.event === 'Stop' || d.event === 'SubagentStop')) {
        o.decision = 'block';
        o.reason = reasonOf(d);
      }
      if (d.updatedOutput !== undefined) {
        if (toolName?.startsWith('mcp__')) hso.updatedMCPToolOutput = d.updatedOutput;
        else if (d.event === 'PostToolUse') {
          // Codex replaces only MCP output; a block hands the model the reason instead of the result.
          const replacement = typeof d.updatedOutput === 'string' ? d.updatedOutput : JSON.stringify(d.updatedOutput);
          o.decision = 'block';
          o.reason = `${d.blocked ? `${reasonOf(d)}\n\n` : ''}the tool output was withheld: a hook replaced it, which Codex cannot apply to ${toolName ?? 'this tool'}. Replacement: ${replacement}`;
          notes.push('Codex can replace only MCP tool output; the output was withheld (decision: block) instead');
        } else notes.push(`Codex cannot replace output on ${d.event}; left out`);
      }
      if (context !== undefined && ['PostToolUse', 'UserPromptSubmit', 'SessionStart', 'SubagentStart'].includes(d.event)) hso.additionalContext = context;
      else if (context !== undefined) notes.push(`Codex takes no additionalContext on ${d.event}; left out`);
  }
  if (!d.continue && d.event !== 'PreToolUse' && d.event !== 'PermissionRequest') {
    o.continue = false;
    if (d.stopReason !== undefined) o.stopReason = d.stopReason;
  }
  if (message !== undefined) o.systemMessage = message;
  if (Object.keys(hso).length > 1) o.hookSpecificOutput = hso;
  return out(Object.keys(o).length ? o : undefined, 0, notes.map((n) => `agent-hooks: ${n}`).join('\n'));
}

/** Codex's reading of a hook's output, expressed so the Claude parse stage reaches the same verdict. */
function decodeResult(event: string, result: ExecutionResult): ExecutionResult {
  if (result.status !== 'completed') return result;
  const failed = (why: string) => ({ ...result, exitCode: 1, stdout: '', stderr: why });
  if (result.exitCode === 2) return result.stderr.trim() ? result : failed(`${event} hook exited with code 2 but did not write a blocking reason to stderr`);
  if (result.exitCode !== 0) return result;
  const json = jsonObjectOf(result.stdout);
  if (!json) return result;
  const hso = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : undefined;
  if (event === 'PreToolUse' || event === 'PermissionRequest') {
    if (json.continue === false || json.stopReason !== undefined || json.suppressOutput === true) return failed(`${event} hook returned unsupported continue/stopReason/suppressOutput`);
  }
  if (event === 'PreToolUse') {
    const decision = hso?.permissionDecision;
    if (hso?.updatedInput !== undefined && decision !== 'allow') return failed('PreToolUse hook returned updatedInput without permissionDecision:allow');
    if (decision === 'allow' && hso?.updatedInput === undefined) return failed('PreToolUse hook returned unsupported permissionDecision:allow');
    if (decision === 'ask') return failed('PreToolUse hook returned unsupported permissionDecision:ask');
    if (decision === 'deny' && !str(hso?.permissionDecisionReason)?.trim()) return failed('PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason');
    if (json.decision === 'approve') return failed('PreToolUse hook returned unsupported decision:approve');
  }
  if (event === 'PermissionRequest' && isObject(hso?.decision)) {
    const dec = hso.decision;
    if (dec.updatedInput !== undefined || dec.updatedPermissions !== undefined || dec.interrupt === true) return failed('PermissionRequest hook returned an unsupported field');
  }
  if (json.decision === 'block' && !str(json.reason)?.trim()) return failed(`${event} hook returned decision:block without a non-empty reason`);
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
  detect(file, doc) {
    if (!isObject(doc)) return 0;
    const inCodexDir = /(^|[\\/])\.codex[\\/]/.test(file);
    if (/\.toml$/i.test(file)) return isObject(doc.hooks) ? (inCodexDir ? 0.95 : 0.8) : 0;
    if (!isObject(doc.hooks)) return 0;
    const events = groupEvents(doc.hooks);
    if (events.length && !events.every((e) => NATIVE.has(e))) return 0.1;
    return inCodexDir ? 0.95 : 0.3;
  },
  configuredEvents: (doc) => (isObject(doc) ? groupEvents(doc.hooks).filter((e) => e !== 'state') : []),
  async parse(doc, ctx) {
    return (await import('./config/codex.js')).parseCodex(doc, ctx);
  },
  async serialize(hooks, opts) {
    return (await import('./config/codex.js')).serializeCodex(hooks, opts);
  },
  decodePayload(raw, nativeEvent) {
    const name = nativeEvent ?? str(raw.hook_event_name);
    if (!name) return { skip: 'payload has no hook_event_name (pass --event)' };
    const m = NATIVE.get(name);
    if (!m?.event) return { skip: `Codex event ${JSON.stringify(name)} has no equivalent`, nativeEvent: name };
    const payload: Record<string, unknown> = { ...raw, hook_event_name: m.event };
    if (payload.transcript_path === null) payload.transcript_path = '';
    if (typeof raw.tool_name === 'string') payload.tool_name = TOOLS.toCanonical(raw.tool_name);
    return { event: m.event as EventName, nativeEvent: name, payload, raw };
  },
  encodeDecision: (d, input) => encode(d, str(input.payload.tool_name)),
  noop: () => out(undefined),
  bridge: codexBridge,
};
