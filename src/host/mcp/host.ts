/**
 * MCP in the host runtime: connects MCP servers, offers their tools as `mcp__<server>__<tool>`
 * tools for the runtime's registry, and answers their elicitation requests through hooks and
 * the host's prompter (./elicit.ts).
 *
 * stdio servers run in their own process group through the transport of src/mcp (close ends
 * stdin, then SIGTERM/SIGKILL to the whole group), with the minimal environment of command
 * hooks plus the session's frozen environment and the server's own `env` — so SessionStart's
 * environment reaches servers started after it, and nothing else of ours leaks.
 *
 * The connected clients can be handed to the engine's MCP client manager (`clients()`), so
 * mcp_tool hooks call the same server processes the agent uses.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { buildHookEnv } from '../../backends/env.js';
import type { RunContext } from '../../engine/engine.js';
import { formatZodIssues } from '../../parse/output.js';
import { mcpServerConfigSchema, type McpServerConfig } from '../../mcp/config.js';
import type { ProcessGroupStdioTransport } from '../../backends/stdio-transport.js';
import { loadMcpClientSdk, loadMcpTypes, McpSdkMissingError } from '../../mcp/sdk.js';
import { elicit, type ElicitationOutcome, type ElicitationPrompter, type ElicitationRequest, type HookRunner } from './elicit.js';

/** The part of a session handle (src/session) the MCP host uses. */
export interface McpHostSession extends HookRunner {
  readonly id: string;
  readonly projectDir: string;
  readonly worktreeDir?: string;
  /** Frozen session environment (SessionStart): given to the stdio servers. */
  readonly env: Readonly<Record<string, string>>;
}

export interface McpHostOptions {
  /** stdio servers by name, started by connect(). */
  servers?: Record<string, McpServerConfig>;
  /**
   * Already-connected SDK clients by name; the host owns them (close() leaves them open). Their
   * elicitation requests reach the hooks only if they were created with the elicitation capability.
   */
  clients?: Record<string, Client>;
  /** Fires the hooks (a HookEngine). Give `engine` or `session`, or neither (no hooks). */
  engine?: HookRunner;
  /** A session handle: fires its hooks, and its id, directories and frozen env are used. */
  session?: McpHostSession;
  /** Asks the user for elicitations no hook decided (default: none = headless = decline). */
  prompter?: ElicitationPrompter;
  /** Project directory: CLAUDE_PROJECT_DIR and default cwd of servers (default: session's, else process.cwd()). */
  projectDir?: string;
  /** Environment for servers on top of the minimal one (default: the session's frozen env). */
  env?: Record<string, string>;
  /** Common fields of hook payloads, read at each elicitation (session_id, transcript_path, cwd, permission_mode). */
  hookInput?: () => Record<string, unknown>;
  /** Passed to hooks.run for elicitations (permission mode, session snapshot). */
  runContext?: () => RunContext;
  /** Start-up budget per server (default 30 s). */
  connectTimeoutMs?: number;
  /** Default budget of one tool call (default 60 s; progress notifications reset it). */
  toolTimeoutMs?: number;
  /** After stdin is closed, how long a server may take to exit before SIGTERM (default 500 ms). */
  shutdownGraceMs?: number;
  /** Between SIGTERM and SIGKILL (default 500 ms). */
  killGraceMs?: number;
  /** Every elicitation outcome with its trace (the decision trace of the host). */
  onElicitation?: (server: string, request: ElicitationRequest, outcome: ElicitationOutcome) => void;
  onServerStderr?: (server: string, chunk: string) => void;
  onWarning?: (message: string) => void;
}

export interface McpToolRunContext {
  signal?: AbortSignal;
  /** Budget of this call (default: the host's toolTimeoutMs). */
  timeoutMs?: number;
}

/** One MCP tool as the runtime's tool registry sees it. */
export interface McpHostTool {
  /** `mcp__<server>__<tool>`, each part with characters outside [A-Za-z0-9_-] replaced by `_`. */
  name: string;
  server: string;
  /** The tool's name on its server. */
  tool: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /**
   * Call the tool. Resolves with the server's CallToolResult; rejects with McpToolError when the
   * server reports an error result (`isError`, result attached) or the call fails.
   */
  run(input: Record<string, unknown>, ctx?: McpToolRunContext): Promise<CallToolResult>;
}

export type McpToolFailure = 'tool-error' | 'failed' | 'timeout' | 'aborted' | 'not-connected';

export class McpToolError extends Error {
  constructor(
    message: string,
    readonly failure: McpToolFailure,
    /** The server's result, for `tool-error`. */
    readonly result?: CallToolResult,
  ) {
    super(message);
    this.name = 'McpToolError';
  }
}

export interface McpHostServerStatus {
  server: string;
  kind: 'stdio' | 'client';
  state: 'idle' | 'connected' | 'failed' | 'closed';
  pid?: number;
  tools: number;
  error?: string;
}

export interface McpHost {
  /** Start the stdio servers, install the elicitation handlers, list every server's tools. Never throws. */
  connect(): Promise<Array<{ server: string; ok: boolean; error?: string }>>;
  /** Every tool of every connected server (a fresh array). */
  tools(): McpHostTool[];
  tool(name: string): McpHostTool | undefined;
  /** The elicitation path every server's requests take; callable directly (tests, other transports). */
  elicit(request: ElicitationRequest, opts?: { signal?: AbortSignal }): Promise<ElicitationOutcome>;
  /** Connected clients by server name (for `createMcpClientManager({ clients })` of mcp_tool hooks). */
  clients(): Record<string, Client>;
  status(): McpHostServerStatus[];
  /** Stop every server the host started (process groups included). Idempotent. */
  close(): Promise<void>;
}

const VERSION = '0.1.0';
const FEATURE = 'MCP servers in the host runtime';
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Claude's rule for the parts of an MCP tool name. */
export function normalizeMcpName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeMcpName(server)}__${normalizeMcpName(tool)}`;
}

interface Slot {
  name: string;
  kind: 'stdio' | 'client';
  config?: McpServerConfig;
  client?: Client;
  transport?: ProcessGroupStdioTransport;
  state: McpHostServerStatus['state'];
  tools: McpHostTool[];
  error?: string;
  connecting?: Promise<void>;
}

export function createMcpHost(options: McpHostOptions = {}): McpHost {
  if (options.engine && options.session) throw new TypeError('createMcpHost: give `engine` or `session`, not both');
  const hooks: HookRunner | undefined = options.session ?? options.engine;
  const session = options.session;
  const projectDir = options.projectDir ?? session?.projectDir ?? process.cwd();
  const warn = options.onWarning ?? (() => {});
  const toolTimeoutMs = options.toolTimeoutMs ?? 60_000;
  const slots = new Map<string, Slot>();
  let closed = false;

  for (const [name, config] of Object.entries(options.servers ?? {})) {
    const check = mcpServerConfigSchema.safeParse(config);
    if (!check.success) throw new TypeError(`MCP server "${name}": ${formatZodIssues(check.error)}`);
    slots.set(name, { name, kind: 'stdio', config, state: 'idle', tools: [] });
  }
  for (const [name, client] of Object.entries(options.clients ?? {})) {
    if (slots.has(name)) throw new TypeError(`MCP server "${name}" is given both as a server definition and as a client`);
    slots.set(name, { name, kind: 'client', client, state: client.transport ? 'connected' : 'closed', tools: [] });
  }

  function hookInput(): Record<string, unknown> {
    const base: Record<string, unknown> = {};
    if (session) {
      base.session_id = session.id;
      base.cwd = session.worktreeDir ?? session.projectDir;
    }
    return { ...base, ...options.hookInput?.() };
  }

  async function runElicitation(request: ElicitationRequest, signal?: AbortSignal): Promise<ElicitationOutcome> {
    const outcome = await elicit(request, {
      hooks,
      prompter: options.prompter,
      input: hookInput(),
      runContext: options.runContext?.(),
      signal,
    });
    if (outcome.message) warn(`MCP server "${request.server}": elicitation ${outcome.action}: ${outcome.message}`);
    options.onElicitation?.(request.server, request, outcome);
    return outcome;
  }

  async function installElicitation(slot: Slot, client: Client) {
    const { ElicitRequestSchema } = await loadMcpTypes(FEATURE);
    client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
      const p = req.params as Record<string, unknown>;
      const request: ElicitationRequest = {
        server: slot.name,
        message: String(p.message ?? ''),
        mode: p.mode === 'url' ? 'url' : 'form',
      };
      if (p.requestedSchema !== undefined) request.requestedSchema = p.requestedSchema as Record<string, unknown>;
      if (typeof p.url === 'string') request.url = p.url;
      if (typeof p.elicitationId === 'string') request.elicitationId = p.elicitationId;
      const outcome = await runElicitation(request, extra.signal);
      return outcome.action === 'accept' && outcome.content ? { action: 'accept', content: outcome.content } : { action: outcome.action };
    });
  }

  async function listTools(slot: Slot, client: Client): Promise<McpHostTool[]> {
    const all: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      all.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const seen = new Set<string>();
    const tools: McpHostTool[] = [];
    for (const t of all) {
      const name = mcpToolName(slot.name, t.name);
      if (seen.has(name)) {
        warn(`MCP server "${slot.name}": tool "${t.name}" has the same name as another after normalization (${name}); skipped`);
        continue;
      }
      seen.add(name);
      tools.push(makeTool(slot, client, name, t));
    }
    return tools;
  }

  function makeTool(slot: Slot, client: Client, name: string, t: Tool): McpHostTool {
    const tool: McpHostTool = {
      name,
      server: slot.name,
      tool: t.name,
      inputSchema: t.inputSchema as Record<string, unknown>,
      async run(input, ctx = {}) {
        if (closed || !client.transport) throw new McpToolError(`MCP server "${slot.name}" is not connected`, 'not-connected');
        const timeout = Math.min(Math.max(1, ctx.timeoutMs ?? toolTimeoutMs), MAX_TIMER_MS);
        let result: CallToolResult;
        try {
          result = (await client.callTool({ name: t.name, arguments: input }, undefined, {
            signal: ctx.signal,
            timeout,
            resetTimeoutOnProgress: true,
          })) as CallToolResult;
        } catch (err) {
          if (ctx.signal?.aborted) throw new McpToolError(`the call to ${name} was aborted`, 'aborted');
          const code = (err as { code?: unknown })?.code;
          if (code === -32001) throw new McpToolError(`${name} did not answer within ${timeout} ms`, 'timeout');
          if (code === -32000 || !client.transport) throw new McpToolError(`MCP server "${slot.name}" closed the connection during the call to ${name}`, 'not-connected');
          throw new McpToolError(`${name} failed: ${errorMessage(err)}`, 'failed');
        }
        if (result.isError) throw new McpToolError(toolErrorText(result) || `${name} returned an error result`, 'tool-error', result);
        return result;
      },
    };
    if (t.description !== undefined) tool.description = t.description;
    if (t.outputSchema !== undefined) tool.outputSchema = t.outputSchema as Record<string, unknown>;
    if (t.annotations !== undefined) tool.annotations = t.annotations as Record<string, unknown>;
    return tool;
  }

  async function refreshTools(slot: Slot, client: Client) {
    try {
      slot.tools = await listTools(slot, client);
    } catch (err) {
      warn(`MCP server "${slot.name}": listing its tools failed: ${errorMessage(err)}`);
    }
  }

  async function connectSlot(slot: Slot): Promise<void> {
    if (slot.kind === 'client') {
      const client = slot.client!;
      if (!client.transport) throw new Error('is not connected');
      if (client.getServerCapabilities() === undefined) throw new Error('has not finished initialize');
      try {
        await installElicitation(slot, client);
      } catch (err) {
        // The SDK refuses the handler when the client did not declare the elicitation capability.
        warn(`MCP server "${slot.name}": its client cannot receive elicitation requests (${errorMessage(err)}); create it with capabilities.elicitation to run Elicitation hooks`);
      }
      slot.state = 'connected';
      if (client.getServerCapabilities()?.tools) await refreshTools(slot, client);
      return;
    }
    const { Client: ClientClass, Transport } = await loadMcpClientSdk(FEATURE);
    const config = slot.config!;
    const transport = new Transport({
      command: config.command,
      args: config.args ?? [],
      cwd: config.cwd ?? session?.worktreeDir ?? projectDir,
      env: buildHookEnv({ sessionEnv: { ...(options.env ?? session?.env ?? {}) }, hookEnv: config.env, projectDir }),
      shutdownGraceMs: options.shutdownGraceMs ?? 500,
      killGraceMs: options.killGraceMs ?? 500,
      maxMessageBytes: 16 * 1024 * 1024,
      stderrTailBytes: 4096,
      onStderr: options.onServerStderr ? (chunk) => options.onServerStderr?.(slot.name, chunk) : undefined,
    });
    const client: Client = new ClientClass(
      { name: 'agent-hooks', version: VERSION },
      {
        capabilities: { elicitation: { form: {}, url: {} } },
        listChanged: { tools: { autoRefresh: false, onChanged: () => void refreshTools(slot, client) } },
      },
    );
    await installElicitation(slot, client);
    client.onerror = () => {}; // protocol noise; failures surface through calls and onclose
    transport.onclose = () => {
      if (slot.transport !== transport || closed) return;
      slot.state = 'failed';
      const e = transport.exit;
      slot.error = `the server ${e ? (e.signal ? `was killed by ${e.signal}` : `exited with code ${e.code}`) : 'closed its connection'}`;
      warn(`MCP server "${slot.name}": ${slot.error}; its tools fail until the host reconnects`);
    };
    slot.transport = transport;
    slot.client = client;
    try {
      await client.connect(transport, { timeout: options.connectTimeoutMs ?? 30_000 });
    } catch (err) {
      const tail = transport.stderrTail.trim().split('\n').slice(-3).join(' | ');
      const why = transport.exit ? `the server exited (${transport.exit.signal ?? `code ${transport.exit.code}`})${tail ? `; stderr: ${tail}` : ''}` : errorMessage(err);
      slot.transport = undefined;
      await transport.close();
      throw new Error(`could not be started (${config.command}): ${why}`);
    }
    if (closed) {
      await transport.close();
      throw new Error('the MCP host was closed');
    }
    slot.state = 'connected';
    if (client.getServerCapabilities()?.tools) await refreshTools(slot, client);
  }

  return {
    async connect() {
      return Promise.all(
        [...slots.values()].map(async (slot) => {
          if (closed) return { server: slot.name, ok: false, error: 'the MCP host is closed' };
          // Connected stdio servers stay; a crashed one is started again. Host clients are re-listed.
          if (slot.kind === 'stdio' && slot.state === 'connected') return { server: slot.name, ok: true };
          try {
            // Concurrent connect() calls share one start.
            slot.connecting ??= connectSlot(slot).finally(() => {
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
        }),
      );
    },
    tools() {
      return [...slots.values()].flatMap((s) => (s.state === 'connected' ? s.tools : []));
    },
    tool(name) {
      for (const s of slots.values()) {
        if (s.state !== 'connected') continue;
        const t = s.tools.find((x) => x.name === name);
        if (t) return t;
      }
      return undefined;
    },
    elicit: (request, opts = {}) => runElicitation(request, opts.signal),
    clients() {
      const out: Record<string, Client> = {};
      for (const s of slots.values()) if (s.client && s.state === 'connected') out[s.name] = s.client;
      return out;
    },
    status() {
      return [...slots.values()].map((s) => {
        const st: McpHostServerStatus = { server: s.name, kind: s.kind, state: closed && s.kind === 'stdio' ? 'closed' : s.state, tools: s.tools.length };
        if (s.transport?.pid !== undefined && !closed && s.state === 'connected') st.pid = s.transport.pid;
        if (s.error) st.error = s.error;
        return st;
      });
    },
    async close() {
      closed = true;
      await Promise.allSettled(
        [...slots.values()].map(async (s) => {
          if (s.kind !== 'stdio' || !s.transport) return;
          const t = s.transport;
          s.transport = undefined;
          await t.close();
        }),
      );
    },
  };
}

/** The text of an error result, for the error message (and PostToolUseFailure's `error`). */
export function toolErrorText(result: CallToolResult): string {
  const texts = (result.content ?? []).flatMap((c) => (c.type === 'text' ? [c.text] : []));
  return texts.join('\n').trim();
}

function errorMessage(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.replace(/^(?:MCP error -?\d+: )+/, '');
}
