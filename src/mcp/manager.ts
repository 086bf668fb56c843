/**
 * MCP client manager: the MCP servers mcp_tool hooks call, by name.
 *
 * Two kinds of server:
 * - configured stdio servers (`servers`): started on first use or by connect(), reused by
 *   every hook, restarted on the next call after a crash (bounded: after `maxRestarts`
 *   consecutive failures the server stays down until connect() is called for it), and
 *   stopped with their whole process group by close();
 * - already-connected SDK clients (`clients`): the host owns and closes them; a client whose
 *   transport has closed is "not connected".
 *
 * A server gets the minimal environment of command hooks (PATH, HOME, …), CLAUDE_PROJECT_DIR,
 * the `env` option and its own `env`; nothing else of ours leaks to it.
 *
 * The one MCP client stack of the package: the host runtime's MCP host (src/host/mcp/host.ts)
 * starts its servers through a manager too. Here: the public object; the state record is
 * ./state.ts, starting a server ./start.ts, a tool call ./call.ts.
 *
 * The SDK (~80 ms to import, an optional peer dependency: ./sdk.ts) is loaded on the first
 * connection only, so an engine that has MCP servers configured but fires no mcp_tool hook pays
 * nothing for them, and works without the SDK installed.
 */
import { formatZodIssues } from '../parse/zod-issues.js';
import { callTool } from './call.js';
import { requireMcpServerSchema } from '../util/zod-slot.js';
import { errorMessage } from './messages.js';
import { createReaper } from './reaper.js';
import { McpSdkMissingError } from './sdk.js';
import { startServer } from './start.js';
import type { ManagerState, Slot } from './state.js';
import { checkKnownKeys } from '../util/option-keys.js';
import {
  MCP_MANAGER_OPTION_KEYS,
  McpConfigError,
  type McpClientManager,
  type McpClientManagerOptions,
  type McpServerStatus,
} from './types.js';

export {
  isMcpClientManager,
  McpConfigError,
  type McpCallFailure,
  type McpCallOutcome,
  type McpClient,
  type McpClientOptions,
  type McpToolResult,
  type McpClientManager,
  type McpClientManagerOptions,
  type McpServerStatus,
} from './types.js';

export function createMcpClientManager(options: McpClientManagerOptions = {}): McpClientManager {
  checkKnownKeys('createMcpClientManager', options, MCP_MANAGER_OPTION_KEYS);
  const m: ManagerState = {
    options,
    projectDir: options.projectDir ?? process.cwd(),
    connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
    maxRestarts: options.maxRestarts ?? 3,
    warn: options.onWarning ?? (() => {}),
    slots: createSlots(options),
    reaper: createReaper(),
    closed: false,
  };
  return {
    callTool: (server, tool, args, opts) => callTool(m, server, tool, args, opts),
    connect: (which) => connect(m, which),
    client(server) {
      const slot = m.slots.get(server);
      if (!slot || m.closed) return undefined;
      return slot.kind === 'client' ? slot.client : slot.conn?.client;
    },
    setClient(server, client) {
      const slot = m.slots.get(server);
      if (slot?.kind === 'stdio')
        throw new McpConfigError(`MCP server "${server}" is a configured stdio server; it cannot be replaced by a client`);
      if (client) m.slots.set(server, { kind: 'client', name: server, client });
      else m.slots.delete(server);
    },
    has: (server) => m.slots.has(server),
    servers: () => [...m.slots.keys()],
    status: () => [...m.slots.values()].map((slot) => slotStatus(m, slot)),
    close: () => close(m),
  };
}

function createSlots(options: McpClientManagerOptions): Map<string, Slot> {
  const slots = new Map<string, Slot>();
  for (const [name, config] of Object.entries(options.servers ?? {})) {
    const check = requireMcpServerSchema().safeParse(config);
    if (!check.success) throw new McpConfigError(`MCP server "${name}": ${formatZodIssues(check.error)}`);
    slots.set(name, { kind: 'stdio', name, config, failures: 0 });
  }
  for (const [name, client] of Object.entries(options.clients ?? {})) {
    if (slots.has(name)) throw new McpConfigError(`MCP server "${name}" is given both as a server definition and as a client`);
    slots.set(name, { kind: 'client', name, client });
  }
  return slots;
}

async function connect(m: ManagerState, which?: string | readonly string[]) {
  const names = which === undefined ? [...m.slots.keys()] : typeof which === 'string' ? [which] : [...which];
  return Promise.all(
    names.map(async (server) => {
      const slot = m.slots.get(server);
      if (m.closed) return { server, ok: false, error: 'the MCP client manager is closed' };
      if (!slot) return { server, ok: false, error: `MCP server "${server}" is not configured` };
      if (slot.kind === 'client')
        return slot.client.transport ? { server, ok: true } : { server, ok: false, error: `MCP server "${server}" is not connected` };
      if (slot.failures > m.maxRestarts) slot.failures = 0; // an explicit connect is the way back
      try {
        await startServer(m, slot);
        return { server, ok: true };
      } catch (err) {
        if (err instanceof McpSdkMissingError) return { server, ok: false, error: err.message };
        return { server, ok: false, error: `MCP server "${server}" ${errorMessage(err)}` };
      }
    }),
  );
}

function slotStatus(m: ManagerState, slot: Slot): McpServerStatus {
  if (slot.kind === 'client') {
    return { server: slot.name, kind: 'client', state: slot.client.transport ? 'connected' : 'closed', failures: 0 };
  }
  const state = m.closed
    ? 'closed'
    : slot.conn
      ? 'connected'
      : slot.connecting
        ? 'connecting'
        : slot.failures > m.maxRestarts
          ? 'failed'
          : 'idle';
  const s: McpServerStatus = { server: slot.name, kind: 'stdio', state, failures: slot.failures };
  const pid = slot.conn?.transport.pid ?? slot.starting?.pid;
  if (pid !== undefined && !m.closed) s.pid = pid;
  if (slot.lastError) s.lastError = slot.lastError;
  return s;
}

async function close(m: ManagerState): Promise<void> {
  const { live } = m.reaper;
  if (m.closed) {
    await Promise.allSettled([...live].map((t) => t.close()));
    return;
  }
  m.closed = true;
  const pending: Promise<unknown>[] = [];
  for (const slot of m.slots.values()) {
    if (slot.kind !== 'stdio') continue;
    // A start in progress is not waited for: killing its server ends it at once.
    if (slot.starting) pending.push(slot.starting.close());
    if (slot.connecting) pending.push(slot.connecting.catch(() => {}));
  }
  await Promise.allSettled(pending);
  const closing: Promise<void>[] = [];
  for (const slot of m.slots.values()) {
    if (slot.kind !== 'stdio' || !slot.conn) continue;
    closing.push(slot.conn.transport.close());
    slot.conn = undefined;
  }
  closing.push(...[...live].map((t) => t.close()));
  await Promise.allSettled(closing);
}
