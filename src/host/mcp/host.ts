/**
 * MCP in the host runtime: connects MCP servers, offers their tools as `mcp__<server>__<tool>`
 * tools for the runtime's registry (./tools.ts), and answers their elicitation requests through
 * hooks and the host's prompter (./elicit.ts).
 *
 * stdio servers are started by an MCP client manager (src/mcp, the one client stack), so they run
 * in their own process group (close ends stdin, then SIGTERM/SIGKILL to the whole group), with
 * the minimal environment of command hooks plus the session's frozen environment and the
 * server's own `env` — so SessionStart's environment reaches servers started after it, and
 * nothing else of ours leaks. A server that goes away is not restarted behind the agent's back:
 * its tools fail until connect() is called again.
 *
 * The connected clients can be handed to the engine's MCP client manager (`clients()`), so
 * mcp_tool hooks call the same server processes the agent uses.
 */
import type { Client, ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import type { ServerExit } from '../../backends/stdio-transport.js';
import { formatZodIssues } from '../../parse/output.js';
import { mcpServerConfigSchema } from '../../mcp/config.js';
import { createMcpClientManager } from '../../mcp/manager.js';
import { errorMessage } from '../../mcp/messages.js';
import { loadMcpClientSdk, loadMcpTypes, McpSdkMissingError } from '../../mcp/sdk.js';
import type { McpClientManager } from '../../mcp/types.js';
import { elicit, type ElicitationOutcome, type ElicitationRequest, type HookRunner } from './elicit.js';
import type { McpHost, McpHostOptions, McpHostServerStatus, McpHostSession, McpHostTool } from './host-types.js';
import { listTools } from './tools.js';

export {
  McpToolError,
  type McpHost,
  type McpHostOptions,
  type McpHostTool,
} from './host-types.js';
export { mcpToolName } from './tools.js';

const FEATURE = 'MCP servers in the host runtime';

interface HostSlot {
  name: string;
  kind: 'stdio' | 'client';
  client?: Client;
  state: McpHostServerStatus['state'];
  tools: McpHostTool[];
  error?: string;
  connecting?: Promise<void>;
}

/** The host's state: one plain record the functions below read and change. */
interface HostState {
  readonly options: McpHostOptions;
  readonly hooks: HookRunner | undefined;
  readonly session: McpHostSession | undefined;
  readonly warn: (message: string) => void;
  readonly toolTimeoutMs: number;
  readonly slots: Map<string, HostSlot>;
  /** Starts and stops the stdio servers. */
  manager: McpClientManager;
  closed: boolean;
}

export function createMcpHost(options: McpHostOptions = {}): McpHost {
  if (options.engine && options.session) throw new TypeError('createMcpHost: give `engine` or `session`, not both');
  const h: HostState = {
    options,
    hooks: options.session ?? options.engine,
    session: options.session,
    warn: options.onWarning ?? (() => {}),
    toolTimeoutMs: options.toolTimeoutMs ?? 60_000,
    slots: createSlots(options),
    manager: undefined as unknown as McpClientManager, // set below: its callbacks need `h`
    closed: false,
  };
  h.manager = createServerManager(h);
  return {
    connect: () => Promise.all([...h.slots.values()].map((slot) => connectOne(h, slot))),
    tools: () => [...h.slots.values()].flatMap((s) => (s.state === 'connected' ? s.tools : [])),
    tool(name) {
      for (const s of h.slots.values()) {
        if (s.state !== 'connected') continue;
        const t = s.tools.find((x) => x.name === name);
        if (t) return t;
      }
      return undefined;
    },
    elicit: (request, opts = {}) => runElicitation(h, request, opts.signal),
    clients() {
      const out: Record<string, Client> = {};
      for (const s of h.slots.values()) if (s.client && s.state === 'connected') out[s.name] = s.client;
      return out;
    },
    status: () => hostStatus(h),
    async close() {
      h.closed = true;
      await h.manager.close();
    },
  };
}

function createSlots(options: McpHostOptions): Map<string, HostSlot> {
  const slots = new Map<string, HostSlot>();
  for (const [name, config] of Object.entries(options.servers ?? {})) {
    const check = mcpServerConfigSchema.safeParse(config);
    if (!check.success) throw new TypeError(`MCP server "${name}": ${formatZodIssues(check.error)}`);
    slots.set(name, { name, kind: 'stdio', state: 'idle', tools: [] });
  }
  for (const [name, client] of Object.entries(options.clients ?? {})) {
    if (slots.has(name)) throw new TypeError(`MCP server "${name}" is given both as a server definition and as a client`);
    slots.set(name, { name, kind: 'client', client, state: client.transport ? 'connected' : 'closed', tools: [] });
  }
  return slots;
}

function createServerManager(h: HostState): McpClientManager {
  const { options, session } = h;
  const projectDir = options.projectDir ?? session?.projectDir ?? process.cwd();
  return createMcpClientManager({
    servers: options.servers,
    projectDir,
    cwd: session?.worktreeDir ?? projectDir,
    env: { ...(options.env ?? session?.env ?? {}) },
    connectTimeoutMs: options.connectTimeoutMs,
    shutdownGraceMs: options.shutdownGraceMs,
    killGraceMs: options.killGraceMs,
    onServerStderr: options.onServerStderr,
    onWarning: h.warn,
    clientOptions: (server): ClientOptions => ({
      capabilities: { elicitation: { form: {}, url: {} } },
      listChanged: { tools: { autoRefresh: false, onChanged: () => void refreshTools(h, h.slots.get(server)) } },
    }),
    // The manager hands over the SDK Client it made; its public type names no SDK type (src/mcp/types.ts).
    prepareClient: (server, client) => installElicitation(h, server, client as Client),
    onServerClosed: (server, exit) => onServerClosed(h, server, exit),
  });
}

function onServerClosed(h: HostState, server: string, exit: ServerExit | undefined): void {
  const slot = h.slots.get(server);
  if (!slot || h.closed) return;
  slot.state = 'failed';
  slot.error = `the server ${exit ? (exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`) : 'closed its connection'}`;
  h.warn(`MCP server "${server}": ${slot.error}; its tools fail until the host reconnects`);
}

async function connectOne(h: HostState, slot: HostSlot): Promise<{ server: string; ok: boolean; error?: string }> {
  if (h.closed) return { server: slot.name, ok: false, error: 'the MCP host is closed' };
  // Connected stdio servers stay; a crashed one is started again. Host clients are re-listed.
  if (slot.kind === 'stdio' && slot.state === 'connected') return { server: slot.name, ok: true };
  try {
    // Concurrent connect() calls share one start.
    slot.connecting ??= (slot.kind === 'stdio' ? connectServer(h, slot) : connectClient(h, slot)).finally(() => {
      slot.connecting = undefined;
    });
    await slot.connecting;
    slot.error = undefined;
    return { server: slot.name, ok: true };
  } catch (err) {
    slot.state = 'failed';
    slot.error = errorMessage(err);
    if (err instanceof McpSdkMissingError) return { server: slot.name, ok: false, error: err.message };
    return { server: slot.name, ok: false, error: `MCP server "${slot.name}" ${slot.error}` };
  }
}

async function connectServer(h: HostState, slot: HostSlot): Promise<void> {
  await loadMcpClientSdk(FEATURE); // a missing SDK is reported as the host's, not mcp_tool hooks'
  const [r] = await h.manager.connect(slot.name);
  const prefix = `MCP server "${slot.name}" `;
  if (!r?.ok) throw new Error(r?.error?.startsWith(prefix) ? r.error.slice(prefix.length) : (r?.error ?? 'could not be started'));
  const client = h.manager.client(slot.name) as Client | undefined; // a stdio server's: an SDK Client the manager made
  if (!client) throw new Error('closed its connection while starting');
  slot.client = client;
  slot.state = 'connected';
  if (client.getServerCapabilities()?.tools) await refreshTools(h, slot);
}

async function connectClient(h: HostState, slot: HostSlot): Promise<void> {
  const client = slot.client!;
  if (!client.transport) throw new Error('is not connected');
  if (client.getServerCapabilities() === undefined) throw new Error('has not finished initialize');
  try {
    await installElicitation(h, slot.name, client);
  } catch (err) {
    if (err instanceof McpSdkMissingError) throw err;
    // The SDK refuses the handler when the client did not declare the elicitation capability.
    h.warn(
      `MCP server "${slot.name}": its client cannot receive elicitation requests (${errorMessage(err)}); create it with capabilities.elicitation to run Elicitation hooks`,
    );
  }
  slot.state = 'connected';
  if (client.getServerCapabilities()?.tools) await refreshTools(h, slot);
}

async function refreshTools(h: HostState, slot: HostSlot | undefined): Promise<void> {
  const client = slot?.client;
  if (!slot || !client) return;
  try {
    slot.tools = await listTools(h, slot.name, client);
  } catch (err) {
    h.warn(`MCP server "${slot.name}": listing its tools failed: ${errorMessage(err)}`);
  }
}

function hostStatus(h: HostState): McpHostServerStatus[] {
  const pids = new Map(h.manager.status().map((s) => [s.server, s.pid]));
  return [...h.slots.values()].map((s) => {
    const st: McpHostServerStatus = {
      server: s.name,
      kind: s.kind,
      state: h.closed && s.kind === 'stdio' ? 'closed' : s.state,
      tools: s.tools.length,
    };
    const pid = s.kind === 'stdio' ? pids.get(s.name) : undefined;
    if (pid !== undefined && !h.closed && s.state === 'connected') st.pid = pid;
    if (s.error) st.error = s.error;
    return st;
  });
}

// ── elicitation ──────────────────────────────────────────────────────────────────────

function hookInput(h: HostState): Record<string, unknown> {
  const base: Record<string, unknown> = {};
  if (h.session) {
    base.session_id = h.session.id;
    base.cwd = h.session.worktreeDir ?? h.session.projectDir;
  }
  return { ...base, ...h.options.hookInput?.() };
}

async function runElicitation(h: HostState, request: ElicitationRequest, signal?: AbortSignal): Promise<ElicitationOutcome> {
  const outcome = await elicit(request, {
    hooks: h.hooks,
    prompter: h.options.prompter,
    input: hookInput(h),
    runContext: h.options.runContext?.(),
    signal,
  });
  if (outcome.message) h.warn(`MCP server "${request.server}": elicitation ${outcome.action}: ${outcome.message}`);
  h.options.onElicitation?.(request.server, request, outcome);
  return outcome;
}

async function installElicitation(h: HostState, server: string, client: Client): Promise<void> {
  const { ElicitRequestSchema } = await loadMcpTypes(FEATURE);
  client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
    const p = req.params as Record<string, unknown>;
    const request: ElicitationRequest = { server, message: String(p.message ?? ''), mode: p.mode === 'url' ? 'url' : 'form' };
    if (p.requestedSchema !== undefined) request.requestedSchema = p.requestedSchema as Record<string, unknown>;
    if (typeof p.url === 'string') request.url = p.url;
    if (typeof p.elicitationId === 'string') request.elicitationId = p.elicitationId;
    const outcome = await runElicitation(h, request, extra.signal);
    return outcome.action === 'accept' && outcome.content ? { action: 'accept', content: outcome.content } : { action: outcome.action };
  });
}
