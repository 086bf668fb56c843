/**
 * One tool call through the manager: start the server if needed (within the call's budget), call,
 * and turn every failure into an outcome with a clear message. Never throws.
 */
import type { ProcessGroupStdioTransport } from '../backends/stdio-transport.js';
import { describeExit, errorMessage } from './messages.js';
import { McpSdkMissingError } from './sdk.js';
import { startServer } from './start.js';
import type { ManagerState } from './state.js';
import type { McpCallFailure, McpCallOptions, McpCallOutcome, McpClient, McpToolResult } from './types.js';

// JSON-RPC error codes of the SDK's McpError (the SDK is loaded lazily, so no import of ErrorCode).
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function callTool(
  m: ManagerState,
  server: string,
  tool: string,
  args: Record<string, unknown>,
  opts: McpCallOptions,
): Promise<McpCallOutcome> {
  const fail = (failure: McpCallFailure, message: string): McpCallOutcome => ({ ok: false, failure, message });
  if (m.closed) return fail('closed', 'the MCP client manager is closed');
  const slot = m.slots.get(server);
  if (!slot) {
    const known = [...m.slots.keys()];
    return fail(
      'unknown-server',
      `MCP server "${server}" is not configured${known.length ? ` (configured: ${known.join(', ')})` : ' (no MCP servers are configured)'}`,
    );
  }
  if (opts.signal?.aborted) return fail('aborted', 'aborted before the call');
  const timeoutMs = Math.min(Math.max(1, opts.timeoutMs), MAX_TIMER_MS);
  const deadline = Date.now() + timeoutMs;

  let client: McpClient;
  let transport: ProcessGroupStdioTransport | undefined;
  if (slot.kind === 'client') {
    client = slot.client;
    if (!client.transport) return fail('not-connected', `MCP server "${server}" is not connected`);
  } else {
    const started = await raceDeadline(startServer(m, slot), timeoutMs, opts.signal);
    if (started.kind === 'timeout') return fail('timeout', `MCP server "${server}" did not finish starting within ${timeoutMs} ms`);
    if (started.kind === 'aborted') return fail('aborted', `aborted while MCP server "${server}" was starting`);
    if (started.kind === 'error' && started.error instanceof McpSdkMissingError) return fail('not-connected', started.error.message);
    if (started.kind === 'error') return fail('not-connected', `MCP server "${server}" ${errorMessage(started.error)}`);
    ({ client, transport } = started.value);
  }

  const remaining = Math.max(1, deadline - Date.now());
  try {
    const result = (await client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: remaining,
      maxTotalTimeout: remaining,
      signal: opts.signal,
    })) as McpToolResult;
    if (slot.kind === 'stdio') slot.failures = 0;
    return { ok: true, result };
  } catch (err) {
    if (opts.signal?.aborted) return fail('aborted', `aborted during the call to MCP tool "${tool}" on server "${server}"`);
    const code = (err as { code?: unknown })?.code;
    if (code === REQUEST_TIMEOUT) return fail('timeout', `MCP tool "${tool}" on server "${server}" did not answer within ${timeoutMs} ms`);
    if (code === CONNECTION_CLOSED || transport?.exit) {
      if (transport) {
        // onclose fires after the exit is recorded; give the exit event a moment if it lags.
        for (let i = 0; i < 20 && !transport.exit; i++) await new Promise((r) => setTimeout(r, 5));
        return fail('crashed', `MCP server "${server}" ${describeExit(transport)} during the call to tool "${tool}"`);
      }
      return fail('crashed', `MCP server "${server}" closed the connection during the call to tool "${tool}"`);
    }
    return fail('failed', `MCP tool "${tool}" on server "${server}" failed: ${errorMessage(err)}`);
  }
}

type Raced<T> = { kind: 'ok'; value: T } | { kind: 'error'; error: unknown } | { kind: 'timeout' } | { kind: 'aborted' };

/** Wait for `p` at most `ms`; the work itself goes on (a server that starts late is reused). */
function raceDeadline<T>(p: Promise<T>, ms: number, signal?: AbortSignal): Promise<Raced<T>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done({ kind: 'timeout' }), ms);
    const onAbort = () => done({ kind: 'aborted' });
    signal?.addEventListener('abort', onAbort, { once: true });
    function done(r: Raced<T>) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(r);
    }
    p.then(
      (value) => done({ kind: 'ok', value }),
      (error) => done({ kind: 'error', error }),
    );
  });
}
