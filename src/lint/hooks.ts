/**
 * The lint of hooks loaded outside loadConfig (`agent-hooks/stages`, `check`): the silent
 * mistakes (./mistakes.ts, which every load reports), plus what depends on the engine the hooks
 * run in: hook types without a backend, mcp_tool hooks naming a server that is not configured,
 * and the HTTP target checks.
 */
import '../matching/if-rule.js'; // fills the `if` parser's slot, for the mistakes' `if` check
import type { Diagnostic, NormalizedHook } from '../types.js';
import { lintNetworkHook } from '../net/lint.js';
import { lintMistakes } from './mistakes.js';

export interface LintOptions {
  /**
   * Names of the configured MCP servers. Given: mcp_tool hooks count as executable and one
   * naming another server is reported. Absent: mcp_tool is executable only if listed in
   * executableTypes, and server names are not checked.
   */
  mcpServers?: readonly string[];
}

/** Every lint of hooks loaded outside loadConfig (`agent-hooks/stages`): the mistakes, then what the engine can run. */
export function lintHooks(hooks: readonly NormalizedHook[], executableTypes: readonly string[], opts: LintOptions = {}): Diagnostic[] {
  return [...lintMistakes(hooks), ...lintRunnable(hooks, executableTypes, opts)];
}

/** What loadConfig cannot know: hook types without a backend here, unconfigured MCP servers, HTTP targets. */
export function lintRunnable(hooks: readonly NormalizedHook[], executableTypes: readonly string[], opts: LintOptions = {}): Diagnostic[] {
  const executable = opts.mcpServers ? [...executableTypes, 'mcp_tool'] : executableTypes;
  const out: Diagnostic[] = [];
  for (const hook of hooks) {
    const at = { level: 'warning' as const, file: hook.source.file, path: hook.source.path };
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
