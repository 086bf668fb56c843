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
 * A server gets the minimal environment of command hooks (PATH, HOME, …), CLAUDE_PROJECT_DIR
 * and its own `env`; nothing else of ours leaks to it.
 *
 * The SDK (~80 ms to import, an optional peer dependency: ./sdk.ts) is loaded on the first
 * connection only, so an engine that has MCP servers configured but fires no mcp_tool hook pays
 * nothing for them, and works without the SDK installed.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { buildHookEnv } from '../backends/env.js';
import { formatZodIssues } from '../parse/output.js';
import { mcpServerConfigSchema, type McpServerConfig } from './config.js';
import { loadMcpClientSdk, McpSdkMissingError } from './sdk.js';
import type { ProcessGroupStdioTransport } from '../backends/stdio-transport.js';

export interface McpClientManagerOptions {
  /** stdio servers by name, started by the manager. */
  servers?: Record<string, McpServerConfig>;
  /** Already-connected SDK clients by name; the host owns them (close() leaves them open). */
  clients?: Record<string, Client>;
  /** CLAUDE_PROJECT_DIR for servers, and their default cwd (default: process.cwd()). */
  projectDir?: string;
  /** Start-up budget for one server: spawn + initialize (default 30 s). */
  connectTimeoutMs?: number;
  /** Consecutive failures (crash, failed start) after which a server is not restarted (default 3). */
  maxRestarts?: number;
  /** After stdin is closed, how long a server may take to exit before SIGTERM (default 500 ms). */
  shutdownGraceMs?: number;
  /** Between SIGTERM and SIGKILL (default 500 ms). */
  killGraceMs?: number;
  /** Largest message accepted from a server (default 16 MiB); a bigger one drops the connection. */
  maxMessageBytes?: number;
  /** Server stderr, as it arrives (default: only its tail is kept, for error messages). */
  onServerStderr?: (server: string, chunk: string) => void;
  onWarning?: (message: string) => void;
}

export type McpCallFailure =
  | 'unknown-server' // no server of that name
  | 'not-connected' // could not start / external client closed / not restarted any more
  | 'timeout'
  | 'aborted'
  | 'crashed' // the server exited during the call
  | 'failed' // the server answered with a JSON-RPC error (unknown tool, bad arguments, …)
  | 'closed'; // the manager is closed

export type McpCallOutcome = { ok: true; result: CallToolResult } | { ok: false; failure: McpCallFailure; message: string };

export interface McpServerStatus {
  server: string;
  kind: 'stdio' | 'client';
  state: 'idle' | 'connecting' | 'connected' | 'failed' | 'closed';
  pid?: number;
  /** Consecutive failures since the last successful call. */
  failures: number;
  lastError?: string;
}

export interface McpCallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface McpClientManager {
  /** Call one tool. Never throws: every failure is an outcome with a clear message. */
  callTool(server: string, tool: string, args: Record<string, unknown>, opts: McpCallOptions): Promise<McpCallOutcome>;
  /**
   * Start configured servers now (all, or the named ones) and wait until they are ready.
   * Also the way to bring back a server that stopped being restarted. Never throws.
   */
  connect(servers?: string | readonly string[]): Promise<Array<{ server: string; ok: boolean; error?: string }>>;
  /** Use (or stop using, with undefined) a host-managed client under this name. */
  setClient(server: string, client: Client | undefined): void;
  has(server: string): boolean;
  servers(): string[];
  status(): McpServerStatus[];
  /** Stop every server this manager started (process groups included). Idempotent. */
  close(): Promise<void>;
}

/** Runtime check for the engine: a manager, or options to build one. */
export function isMcpClientManager(value: unknown): value is McpClientManager {
  return typeof value === 'object' && value !== null && typeof (value as McpClientManager).callTool === 'function' && typeof (value as McpClientManager).close === 'function';
}

export class McpConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpConfigError';
  }
}

interface Connection {
  client: Client;
  transport: ProcessGroupStdioTransport;
}

interface StdioSlot {
  kind: 'stdio';
  name: string;
  config: McpServerConfig;
  conn?: Connection;
  connecting?: Promise<Connection>;
  /** The transport of a start in progress (for status()). */
  starting?: ProcessGroupStdioTransport;
  failures: number;
  lastError?: string;
}
interface ClientSlot {
  kind: 'client';
  name: string;
  client: Client;
}
type Slot = StdioSlot | ClientSlot;

// JSON-RPC error codes of the SDK's McpError (the SDK is loaded lazily, so no import of ErrorCode).
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;
const MAX_TIMER_MS = 2 ** 31 - 1;
const VERSION = '0.1.0';


export function createMcpClientManager(options: McpClientManagerOptions = {}): McpClientManager {
  const projectDir = options.projectDir ?? process.cwd();
  const connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
  const maxRestarts = options.maxRestarts ?? 3;
  const warn = options.onWarning ?? (() => {});
  const slots = new Map<string, Slot>();
  let closed = false;

  for (const [name, config] of Object.entries(options.servers ?? {})) {
    const check = mcpServerConfigSchema.safeParse(config);
    if (!check.success) throw new McpConfigError(`MCP server "${name}": ${formatZodIssues(check.error)}`);
    slots.set(name, { kind: 'stdio', name, config, failures: 0 });
  }
  for (const [name, client] of Object.entries(options.clients ?? {})) {
    if (slots.has(name)) throw new McpConfigError(`MCP server "${name}" is given both as a server definition and as a client`);
    slots.set(name, { kind: 'client', name, client });
  }

  // Safety net for hosts that exit without close(): no server outlives us.
  const live = new Set<ProcessGroupStdioTransport>();
  const killAllSync = () => {
    for (const t of live) {
      if (t.pid === undefined || t.exit) continue;
      try {
        process.kill(process.platform === 'win32' ? t.pid : -t.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  };
  let exitHook = false;
  const track = (t: ProcessGroupStdioTransport) => {
    live.add(t);
    if (!exitHook) {
      process.on('exit', killAllSync);
      exitHook = true;
    }
  };
  const untrack = (t: ProcessGroupStdioTransport) => {
    live.delete(t);
    if (live.size === 0 && exitHook) {
      process.off('exit', killAllSync);
      exitHook = false;
    }
  };

  function describeExit(t: ProcessGroupStdioTransport): string {
    const e = t.exit;
    const how = t.dropReason
      ? `${t.dropReason}; its connection was dropped`
      : !e
        ? 'closed its connection'
        : e.signal
          ? `was killed by ${e.signal}`
          : `exited with code ${e.code}`;
    const tail = lastLines(t.stderrTail);
    return tail ? `${how}; stderr: ${tail}` : how;
  }

  function startServer(slot: StdioSlot): Promise<Connection> {
    if (slot.conn) return Promise.resolve(slot.conn);
    if (slot.connecting) return slot.connecting;
    if (slot.failures > maxRestarts) {
      return Promise.reject(
        new Error(`failed ${slot.failures} times in a row and is not restarted any more (last: ${slot.lastError ?? 'unknown'}); call connect("${slot.name}") to retry`),
      );
    }
    const attempt = (async (): Promise<Connection> => {
      const sdk = await loadMcpClientSdk('mcp_tool hooks');
      const { config } = slot;
      const transport = new sdk.Transport({
        command: config.command,
        args: config.args ?? [],
        cwd: config.cwd ?? projectDir,
        env: buildHookEnv({ projectDir, hookEnv: config.env }),
        shutdownGraceMs: options.shutdownGraceMs ?? 500,
        killGraceMs: options.killGraceMs ?? 500,
        maxMessageBytes: options.maxMessageBytes ?? 16 * 1024 * 1024,
        stderrTailBytes: 4096,
        onStderr: options.onServerStderr ? (chunk) => options.onServerStderr?.(slot.name, chunk) : undefined,
      });
      slot.starting = transport;
      const client = new sdk.Client({ name: 'agent-hooks', version: VERSION }, { capabilities: {} });
      const conn: Connection = { client, transport };
      // Set before connect: the SDK chains our handler in front of its own.
      transport.onclose = () => {
        untrack(transport);
        if (slot.conn !== conn) return;
        slot.conn = undefined;
        if (closed) return;
        slot.failures++;
        slot.lastError = `server ${describeExit(transport)}`;
        warn(`MCP server "${slot.name}" ${describeExit(transport)}; it is restarted on its next use`);
      };
      client.onerror = () => {}; // protocol noise; failures surface through calls and onclose
      try {
        track(transport);
        await client.connect(transport, { timeout: connectTimeoutMs });
      } catch (err) {
        // Judge before we stop it ourselves: did the server die, or did the handshake fail?
        const why = transport.exit ? describeExit(transport) : errorMessage(err);
        await transport.close();
        untrack(transport);
        throw new Error(`could not be started (${config.command}): ${why}`);
      }
      if (closed) {
        await transport.close();
        throw new Error('the MCP client manager was closed');
      }
      slot.conn = conn;
      return conn;
    })();
    slot.connecting = attempt;
    attempt.then(
      () => {
        slot.connecting = undefined;
        slot.starting = undefined;
      },
      (err) => {
        slot.connecting = undefined;
        slot.starting = undefined;
        // A missing SDK is no fault of the server: it does not count towards maxRestarts.
        if (!closed && !(err instanceof McpSdkMissingError)) {
          slot.failures++;
          slot.lastError = errorMessage(err);
        }
      },
    );
    return attempt;
  }

  async function callTool(server: string, tool: string, args: Record<string, unknown>, opts: McpCallOptions): Promise<McpCallOutcome> {
    const fail = (failure: McpCallFailure, message: string): McpCallOutcome => ({ ok: false, failure, message });
    if (closed) return fail('closed', 'the MCP client manager is closed');
    const slot = slots.get(server);
    if (!slot) {
      const known = [...slots.keys()];
      return fail('unknown-server', `MCP server "${server}" is not configured${known.length ? ` (configured: ${known.join(', ')})` : ' (no MCP servers are configured)'}`);
    }
    if (opts.signal?.aborted) return fail('aborted', 'aborted before the call');
    const timeoutMs = Math.min(Math.max(1, opts.timeoutMs), MAX_TIMER_MS);
    const deadline = Date.now() + timeoutMs;

    let client: Client;
    let transport: ProcessGroupStdioTransport | undefined;
    if (slot.kind === 'client') {
      client = slot.client;
      if (!client.transport) return fail('not-connected', `MCP server "${server}" is not connected`);
    } else {
      const started = await raceDeadline(startServer(slot), timeoutMs, opts.signal);
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
      })) as CallToolResult;
      if (slot.kind === 'stdio') slot.failures = 0;
      return { ok: true, result };
    } catch (err) {
      if (opts.signal?.aborted) return fail('aborted', `aborted during the call to MCP tool "${tool}" on server "${server}"`);
      const code = (err as { code?: unknown })?.code;
      if (code === REQUEST_TIMEOUT) return fail('timeout', `MCP tool "${tool}" on server "${server}" did not answer within ${timeoutMs} ms`);
      if (code === CONNECTION_CLOSED || (transport && transport.exit)) {
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

  async function connect(which?: string | readonly string[]) {
    const names = which === undefined ? [...slots.keys()] : typeof which === 'string' ? [which] : [...which];
    return Promise.all(
      names.map(async (server) => {
        const slot = slots.get(server);
        if (closed) return { server, ok: false, error: 'the MCP client manager is closed' };
        if (!slot) return { server, ok: false, error: `MCP server "${server}" is not configured` };
        if (slot.kind === 'client') return slot.client.transport ? { server, ok: true } : { server, ok: false, error: `MCP server "${server}" is not connected` };
        if (slot.failures > maxRestarts) slot.failures = 0; // an explicit connect is the way back
        try {
          await startServer(slot);
          return { server, ok: true };
        } catch (err) {
          if (err instanceof McpSdkMissingError) return { server, ok: false, error: err.message };
          return { server, ok: false, error: `MCP server "${server}" ${errorMessage(err)}` };
        }
      }),
    );
  }

  return {
    callTool,
    connect,
    setClient(server, client) {
      const slot = slots.get(server);
      if (slot?.kind === 'stdio') throw new McpConfigError(`MCP server "${server}" is a configured stdio server; it cannot be replaced by a client`);
      if (client) slots.set(server, { kind: 'client', name: server, client });
      else slots.delete(server);
    },
    has: (server) => slots.has(server),
    servers: () => [...slots.keys()],
    status() {
      return [...slots.values()].map((slot): McpServerStatus => {
        if (slot.kind === 'client') {
          return { server: slot.name, kind: 'client', state: slot.client.transport ? 'connected' : 'closed', failures: 0 };
        }
        const state = closed ? 'closed' : slot.conn ? 'connected' : slot.connecting ? 'connecting' : slot.failures > maxRestarts ? 'failed' : 'idle';
        const s: McpServerStatus = { server: slot.name, kind: 'stdio', state, failures: slot.failures };
        const pid = slot.conn?.transport.pid ?? slot.starting?.pid;
        if (pid !== undefined && !closed) s.pid = pid;
        if (slot.lastError) s.lastError = slot.lastError;
        return s;
      });
    },
    async close() {
      if (closed) {
        await Promise.allSettled([...live].map((t) => t.close()));
        return;
      }
      closed = true;
      const pending: Promise<unknown>[] = [];
      for (const slot of slots.values()) {
        if (slot.kind !== 'stdio') continue;
        // A start in progress is not waited for: killing its server ends it at once.
        if (slot.starting) pending.push(slot.starting.close());
        if (slot.connecting) pending.push(slot.connecting.catch(() => {}));
      }
      await Promise.allSettled(pending);
      const closing: Promise<void>[] = [];
      for (const slot of slots.values()) {
        if (slot.kind !== 'stdio' || !slot.conn) continue;
        closing.push(slot.conn.transport.close());
        slot.conn = undefined;
      }
      closing.push(...[...live].map((t) => t.close()));
      await Promise.allSettled(closing);
    },
  };
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

function errorMessage(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  // The SDK prefixes "MCP error -32602: "; the code means nothing to a hook author.
  return m.replace(/^MCP error -?\d+: /, '');
}

function lastLines(text: string): string {
  const lines = text.trim().split('\n').slice(-3).join(' | ');
  return lines.length > 500 ? `…${lines.slice(-500)}` : lines;
}
