/**
 * MCP proxy with hooks: sits between an MCP client and a real MCP server and relays JSON-RPC
 * messages both ways, running hooks where Claude Code would:
 *
 *   client → tools/call   PreToolUse (deny: an error result, the server never sees the call;
 *                          updatedInput: re-validated against the tool's listed inputSchema, then
 *                          sent instead; ask: PermissionRequest hooks, then the user through the
 *                          client's elicitation support, else denied)
 *   server → its result   PostToolUse (updatedMCPToolOutput replaces the result; additionalContext
 *                          and block reasons are appended as text) or PostToolUseFailure
 *                          (isError results and JSON-RPC errors)
 *   server → elicitation/create   Elicitation / user (forwarded to the client) / ElicitationResult,
 *                          final content validated against the requested schema (./elicit.ts)
 *
 * Everything else (initialize, lists, resources, prompts, sampling, roots, pings, progress,
 * notifications, cancellation) passes through unchanged. Server→client requests are re-numbered
 * so that the proxy's own requests to the client (forwarded elicitations, confirmations) can never
 * collide with the server's ids; cancellations are translated accordingly.
 *
 * Two deliberate changes to what passes through, so no call escapes the hooks:
 * - initialize: task-augmented tool calls and elicitations (experimental `tasks` capability) are
 *   removed from the capabilities each side announces — their results would arrive later, outside
 *   tools/call and elicitation/create;
 * - initialize: with `advertiseElicitation`, a client without elicitation support is announced
 *   as supporting form elicitation, so that Elicitation hooks can answer (undecided requests are
 *   then declined, as headless).
 *
 * Modules: the state record and shared helpers (./proxy-state.ts), the relay (./proxy-relay.ts),
 * tools/call (./proxy-tools.ts), elicitation/create (./proxy-elicitation.ts); here, start and shutdown.
 */
import { fromClient, fromServer } from './proxy-relay.js';
import { createProxyState, type McpProxy, type McpProxyOptions, type ProxyEnd, type ProxyState } from './proxy-state.js';

export type { McpProxy, McpProxyOptions } from './proxy-state.js';

export function createMcpProxy(options: McpProxyOptions): McpProxy {
  let resolveDone!: (v: ProxyEnd) => void;
  const done = new Promise<ProxyEnd>((r) => (resolveDone = r));
  const s = createProxyState(options, resolveDone);
  const { client, server } = s;
  return {
    async start() {
      client.onmessage = (m) => fromClient(s, m);
      server.onmessage = (m) => fromServer(s, m);
      client.onerror = (e) => s.log(`client: ${e.message}`);
      server.onerror = (e) => s.log(`server: ${e.message}`);
      client.onclose = () => void close(s, 'client');
      server.onclose = () => void close(s, 'server');
      await server.start();
      await client.start();
    },
    close: () => close(s, 'close'),
    done,
  };
}

/**
 * Shut down like a direct connection would: calls already being judged may still reach the
 * server, the server gets EOF and answers what it has (its results still pass PostToolUse), then
 * whatever is left is abandoned. Each wait is bounded, so a client that gave up is not kept waiting.
 */
function close(s: ProxyState, by: 'client' | 'server' | 'close'): Promise<void> {
  s.closing ??= (async () => {
    s.clientGone = true;
    if (by !== 'server') await settle(s.judging, s.drainMs);
    await s.server.close().catch(() => {});
    await settle(s.inflight, s.drainMs);
    s.closed = true;
    for (const c of s.calls.values()) c.abort.abort();
    for (const e of s.elicitations.values()) e.abort();
    for (const r of s.clientRequests.values()) if (r.kind === 'own') r.reject(new Error('the proxy is closed'));
    s.calls.clear();
    s.clientRequests.clear();
    await s.client.close().catch(() => {});
    s.resolveDone({ by });
  })();
  return s.closing;
}

/** Wait until the set is empty (it may grow meanwhile), at most `ms`. */
async function settle(set: Set<Promise<unknown>>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (set.size > 0) {
    const left = end - Date.now();
    if (left <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...set]), new Promise((r) => (timer = setTimeout(r, left)))]);
    clearTimeout(timer);
  }
}
