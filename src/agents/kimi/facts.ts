/**
 * Kimi Code: `[[hooks]]` array tables in `config.toml` (`~/.kimi-code/` or `$KIMI_CODE_HOME`),
 * each with exactly event / matcher / command / timeout (integer seconds 1–600, default 30); any
 * other field, or an unknown event, fails the whole file. Matchers are always regular expressions
 * (`new RegExp(p).test(v)`), an invalid one never matches, empty matches all. Payloads are snake_case.
 * Exit 2 blocks with stderr as the reason; on exit 0 a JSON `hookSpecificOutput.permissionDecision:
 * "deny"` blocks too. Only PreToolUse, UserPromptSubmit and Stop can change the flow; allow, ask,
 * updatedInput and additionalContext are not read. Hooks run in parallel, fail open, SIGTERM then
 * SIGKILL after 100 ms.
 * The older Python kimi-cli (`~/.kimi/config.toml`) is read as a variant: same `[[hooks]]`, but
 * it applies a PreToolUse `hookSpecificOutput.updatedInput`.
 * Sources: moonshotai.github.io/kimi-code customization/hooks, MoonshotAI/kimi-cli.
 * Reader: reader.ts; wire: wire.ts; detection: detect.ts (this folder).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EventName } from '../../events/catalog.js';
import type { ExecutionResult, HookBridge } from '../../types.js';
import { claudeResult, isObject, jsonObjectOf, str } from '../shared/facts.js';
import type { Dialect, EventMapping } from '../types.js';
import { detectKimi, isKimiPluginManifest } from '../detectors.js';

export const KIMI_EVENTS: readonly EventName[] = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionResult',
  'UserPromptSubmit',
  'UserPromptQueued',
  'TurnStarted',
  'Stop',
  'StopFailure',
  'Interrupt',
  'SessionStart',
  'SessionEnd',
  'SessionHeartbeat',
  'SubagentStart',
  'SubagentStop',
  'TaskStarted',
  'PreCompact',
  'PostCompact',
  'Notification',
];
const EVENTS: readonly EventMapping[] = KIMI_EVENTS.map((e) => ({
  native: e,
  event: e,
  ...(e === 'PermissionRequest' ? { note: 'observation only in Kimi (its approval cannot be answered by a hook)' } : {}),
}));
/** The events whose hooks can change the flow. */
export const KIMI_BLOCKING_EVENTS: ReadonlySet<string> = new Set<string>(['PreToolUse', 'UserPromptSubmit', 'Stop']);
const BLOCKING = KIMI_BLOCKING_EVENTS;

/** A config file of the older Python kimi-cli (`~/.kimi/`), not Kimi Code (`~/.kimi-code/`). */
export function isKimiCliFile(file: string): boolean {
  return /(^|[\\/])\.kimi[\\/]config\.toml$/.test(file);
}

/** The wrap Kimi gives a prompt hook's plain stdout before the model sees it. */
function wrapHookResult(text: string): string {
  return `<hook_result>\n${text}\n</hook_result>`;
}

/**
 * The text inside one `wrapHookResult` wrap, or the text itself. Kimi wraps whatever a
 * UserPromptSubmit hook prints, dispatch's answer included: what dispatch prints to Kimi is
 * unwrapped once, so the model sees one wrap.
 */
export function unwrapHookResult(text: string): string {
  const m = /^<hook_result>\n([\s\S]*)\n<\/hook_result>$/.exec(text);
  return m ? (m[1] as string) : text;
}

/** What Kimi reads from a hook's output, in the Claude convention. */
function decodeResult(event: string, result: ExecutionResult, stopHookActive = false, readsUpdatedInput = false): ExecutionResult {
  if (result.status !== 'completed') return result;
  // Kimi keeps the agent going from Stop once per turn: a Stop that is already the follow-up of
  // a block (stop_hook_active) ends the turn whatever the hook says.
  if (event === 'Stop' && stopHookActive)
    return {
      ...result,
      exitCode: result.exitCode === 2 ? 0 : result.exitCode,
      stdout: '',
      stderr: result.exitCode === 2 ? '' : result.stderr,
    };
  if (result.exitCode === 2) {
    // Observation-only events: Kimi does nothing with a block; the engine must not either.
    return BLOCKING.has(event) ? result : { ...result, exitCode: 1 };
  }
  if (result.exitCode !== 0) return result;
  const json = jsonObjectOf(result.stdout);
  if (!json && event === 'UserPromptSubmit' && result.stdout.trim() !== '') {
    // Kimi hands a prompt hook's plain stdout to the model wrapped in <hook_result> tags.
    return claudeResult(result, { hookSpecificOutput: { hookEventName: event, additionalContext: wrapHookResult(result.stdout.trim()) } });
  }
  if (!json) return result; // plain stdout: context on SessionStart, log elsewhere — as in Claude
  const hso = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const o: Record<string, unknown> = {};
  if (readsUpdatedInput && event === 'PreToolUse' && hso.permissionDecision !== 'deny' && isObject(hso.updatedInput)) {
    o.hookSpecificOutput = { hookEventName: event, permissionDecision: 'allow', updatedInput: hso.updatedInput };
  } else if (hso.permissionDecision === 'deny' && BLOCKING.has(event)) {
    const reason = str(hso.permissionDecisionReason) ?? str(json.message) ?? 'blocked by hook';
    if (event === 'PreToolUse')
      o.hookSpecificOutput = { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: reason };
    else {
      o.decision = 'block';
      o.reason = reason;
    }
  } else if (typeof json.message === 'string' && (event === 'UserPromptSubmit' || event === 'SessionStart')) {
    o.hookSpecificOutput = { hookEventName: event, additionalContext: json.message };
  }
  // allow, ask, updatedInput, additionalContext: Kimi does not read them, so neither does the engine here.
  return claudeResult(result, Object.keys(o).length ? o : undefined);
}

export const kimiBridge: HookBridge = {
  encodePayload(hook, p) {
    const o: Record<string, unknown> = { ...p };
    if (p.tool_use_id !== undefined || typeof p.tool_name === 'string') {
      // Kimi always sends the call id on tool events; agents that have none get an empty one.
      o.tool_call_id = p.tool_use_id ?? '';
      delete o.tool_use_id;
    }
    if (p.tool_response !== undefined) {
      o.tool_output = p.tool_response;
      delete o.tool_response;
    }
    if (hook.event === 'SubagentStart' || hook.event === 'SubagentStop') o.agent_name = p.agent_type;
    if (hook.event === 'SubagentStop' && p.last_assistant_message !== undefined) o.response = p.last_assistant_message;
    if (hook.event === 'StopFailure') {
      o.error_type = p.error;
      if (p.error_details !== undefined) o.error_message = p.error_details;
    }
    return o;
  },
  decodeResult: (hook, payload, result) =>
    decodeResult(hook.event, result, payload.stop_hook_active === true, hook.dialectData?.variant === 'kimi-cli'),
};

/** Whether a file is a Kimi Code plugin manifest (`kimi.plugin.json`, or `.kimi-plugin/plugin.json`). */
export { isKimiPluginManifest };

/**
 * Manifests of the enabled plugins recorded in `<home>/plugins/installed.json` (Kimi Code's
 * plugin store: `{version: 1, plugins: [{id, root, enabled, …}]}`). `kimi.plugin.json` wins over
 * `.kimi-plugin/plugin.json` when a root has both, as Kimi's loader does. An unreadable store
 * yields none: its hooks are Kimi's to report, and config.toml is read regardless.
 */
export function kimiPluginManifests(kimiHome: string): string[] {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(join(kimiHome, 'plugins', 'installed.json'), 'utf8'));
  } catch {
    return [];
  }
  if (!isObject(doc) || !Array.isArray(doc.plugins)) return [];
  const out: string[] = [];
  for (const rec of doc.plugins) {
    if (!isObject(rec) || rec.enabled !== true || typeof rec.root !== 'string' || rec.root === '') continue;
    const root = resolve(kimiHome, rec.root);
    const atRoot = join(root, 'kimi.plugin.json');
    out.push(existsSync(atRoot) ? atRoot : join(root, '.kimi-plugin', 'plugin.json'));
  }
  return out;
}

export const kimi: Dialect = {
  name: 'kimi',
  title: 'Kimi Code',
  format: 'toml',
  // Its hooks' environment names no project directory: the trusted workspace containing cwd is the project.
  projectDirEnv: [],
  // Kimi has no project-level hooks: only its home's config.toml (KIMI_CODE_HOME moves it).
  configLocations: ({ homeDir, env }) => {
    const home = env.KIMI_CODE_HOME ? resolve(env.KIMI_CODE_HOME) : join(homeDir, '.kimi-code');
    return [
      { kind: 'user', file: join(home, 'config.toml') },
      // The older Python kimi-cli: same [[hooks]] (read as a variant that applies updatedInput).
      { kind: 'user', file: join(homeDir, '.kimi', 'config.toml') },
      // Enabled plugins: their manifests' `hooks` arrays (plugins are per user in Kimi Code).
      ...kimiPluginManifests(home).map((file) => ({ kind: 'user' as const, file })),
    ];
  },
  locations: {
    user: [
      '~/.kimi-code/config.toml ([[hooks]])',
      '$KIMI_CODE_HOME/config.toml',
      '~/.kimi/config.toml (Python kimi-cli)',
      'enabled plugins in $KIMI_CODE_HOME/plugins/installed.json: kimi.plugin.json or .kimi-plugin/plugin.json',
    ],
    project: [],
  },
  defaults: { timeoutSec: 30, timeoutUnit: 's' },
  events: EVENTS,
  tools: [],
  matcherMode: () => 'regex',
  detect: detectKimi,
  configuredEvents(doc) {
    if (!isObject(doc) || !Array.isArray(doc.hooks)) return [];
    return doc.hooks.flatMap((h) => (isObject(h) && typeof h.event === 'string' ? [h.event] : []));
  },
  bridge: kimiBridge,
};
