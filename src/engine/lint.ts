/**
 * Warnings about hooks that load but will not behave as written, beyond what the config
 * loader already reports: invalid regex matchers and invalid `if` rules (the hook never
 * runs), matchers and `if` rules the linear-time engine cannot run (an error: the hook fails
 * closed), hook types this engine has no backend for, and mcp_tool hooks that name a server
 * that is not configured.
 */
import { eventFacts } from '../events/facts.js';
import { compileMatcher, parseRule } from '../matching/index.js';
import type { Diagnostic, NormalizedHook } from '../types.js';
import { lintNetworkHook } from '../net/lint.js';

export interface LintOptions {
  /**
   * Names of the configured MCP servers. Given: mcp_tool hooks count as executable and one
   * naming another server is reported. Absent: mcp_tool is executable only if listed in
   * executableTypes, and server names are not checked.
   */
  mcpServers?: readonly string[];
}

export function lintHooks(hooks: readonly NormalizedHook[], executableTypes: readonly string[], opts: LintOptions = {}): Diagnostic[] {
  const executable = opts.mcpServers ? [...executableTypes, 'mcp_tool'] : executableTypes;
  const out: Diagnostic[] = [];
  for (const hook of hooks) {
    const at = { level: 'warning' as const, file: hook.source.file, path: hook.source.path };
    out.push(...lintMatching(hook).map((d) => ({ ...at, ...d })));
    // HTTP hooks: refused targets, the allowedHosts opt-out, allowInsecureTLS, unlisted header variables.
    out.push(...lintNetworkHook(hook, at));
    if (!executable.includes(hook.handler.type)) {
      const message =
        hook.handler.type === 'mcp_tool'
          ? 'mcp_tool hooks need MCP servers (createHookEngine option `mcp`, or `agent-hooks run --mcp-config FILE`); without them it reports an error and its failure policy applies'
          : `hook type "${hook.handler.type}" has no backend in this engine yet; it reports an error and its failure policy applies`;
      out.push({ ...at, message });
    } else if (hook.handler.type === 'mcp_tool' && opts.mcpServers && !opts.mcpServers.includes(hook.handler.server)) {
      const known = opts.mcpServers.length ? opts.mcpServers.join(', ') : 'none';
      out.push({
        ...at,
        message: `MCP server "${hook.handler.server}" is not configured (configured: ${known}); this hook reports an error and its failure policy applies`,
      });
    }
  }
  return out;
}

const FAILS_CLOSED =
  'this hook reports an error instead of running: on an event that can block it denies (fails closed), elsewhere its failure policy applies';

/**
 * What is wrong with a hook's matcher and `if` (`check`, and `doctor` per hook): an invalid one
 * never runs (a warning); one the linear-time engine cannot run is a config error.
 */
export function lintMatching(hook: NormalizedHook): { level: 'warning' | 'error'; message: string }[] {
  const spec = eventFacts(hook.event);
  const out: { level: 'warning' | 'error'; message: string }[] = [];
  if (spec.matcher && hook.matcher !== undefined) {
    const m = compileMatcher(hook.matcher, spec.matcher.exactSet);
    if (m.kind === 'invalid') {
      out.push({
        level: 'warning',
        message: `matcher ${JSON.stringify(hook.matcher)} is not a valid regular expression (${m.error ?? 'invalid'}); this hook never runs`,
      });
    } else if (m.refused) {
      out.push({ level: 'error', message: `${m.refused}; ${FAILS_CLOSED}. Rewrite it without backreferences or lookaround` });
    }
  }
  if (spec.ifCondition && hook.handler.if !== undefined) {
    const parsed = parseRule(hook.handler.if);
    if (parsed.ok) return out;
    if (parsed.unbounded)
      out.push({ level: 'error', message: `"if" ${parsed.error}; ${FAILS_CLOSED}. Rewrite it without extglob negations` });
    else
      out.push({
        level: 'warning',
        message: `"if" condition ${JSON.stringify(hook.handler.if)} is invalid (${parsed.error}); this hook never runs`,
      });
  }
  return out;
}
