/**
 * Warnings about hooks that load but will not behave as written, beyond what the config
 * loader already reports: invalid regex matchers and invalid `if` rules (the hook never
 * runs), regex matchers the linear-time engine cannot run (an error when they cannot be
 * bounded at all), hook types this engine has no backend for, and mcp_tool hooks that name a server
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
    const spec = eventFacts(hook.event);
    const at = { level: 'warning' as const, file: hook.source.file, path: hook.source.path };
    if (spec.matcher && hook.matcher !== undefined) {
      const m = compileMatcher(hook.matcher, spec.matcher.exactSet);
      if (m.kind === 'invalid') {
        out.push({
          ...at,
          message: `matcher ${JSON.stringify(hook.matcher)} is not a valid regular expression (${m.error ?? 'invalid'}); this hook never runs`,
        });
      } else if (m.refused) {
        out.push({
          ...at,
          level: 'error',
          message: `${m.refused}; this hook reports an error instead of running: on an event that can block it denies (fails closed), elsewhere its failure policy applies. Rewrite it without backreferences or lookaround`,
        });
      } else if (m.kind === 'regex' && m.linear === undefined) {
        out.push({
          ...at,
          message: `matcher ${JSON.stringify(hook.matcher)} uses backreferences or lookaround, which the linear-time engine cannot run; it is matched with JavaScript's engine on the first 256 characters of the value only`,
        });
      }
    }
    if (spec.ifCondition && hook.handler.if !== undefined) {
      const parsed = parseRule(hook.handler.if);
      if (!parsed.ok)
        out.push({
          ...at,
          message: `"if" condition ${JSON.stringify(hook.handler.if)} is invalid (${parsed.error}); this hook never runs`,
        });
    }
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
