/** How long a hook may run: its own timeout, else its event's (catalog), else its type's default. */
import type { EventFacts } from '../events/spec.js';
import type { HookHandler } from '../types.js';

/**
 * Default timeouts in seconds: the Claude reference's (command, http and mcp_tool 600 s; events
 * like UserPromptSubmit lower them in the catalog). A dialect's hooks carry their agent's own default.
 */
export const DEFAULT_TIMEOUTS: Record<HookHandler['type'], number> = {
  command: 600,
  http: 600,
  mcp_tool: 600,
  prompt: 30,
  agent: 60,
  function: 10,
};

export function timeoutFor(handler: HookHandler, spec: EventFacts): number {
  if (typeof handler.timeout === 'number' && handler.timeout > 0) return handler.timeout;
  if (spec.defaultTimeoutSec !== undefined && (handler.type === 'command' || handler.type === 'http' || handler.type === 'mcp_tool')) {
    return Math.min(spec.defaultTimeoutSec, DEFAULT_TIMEOUTS[handler.type]);
  }
  return DEFAULT_TIMEOUTS[handler.type];
}
