/**
 * The MCP client manager's public shapes (./manager.ts builds it). The SDK is an optional peer
 * dependency, so these declarations name none of its types: a consumer without it must still
 * compile them (test/package/declarations.test.ts). The SDK's Client is an McpClient, and a
 * ClientOptions is an McpClientOptions; a host that uses more of the client casts to the SDK's type.
 */
import type { ServerExit } from '../backends/process-tree.js';
import type { McpServerConfig } from './config.js';
import type { KnownKeys } from '../util/option-keys.js';

/** What the manager calls on a client: a connected `Client` of @modelcontextprotocol/sdk is one. */
export interface McpClient {
  /** Set while the client is connected. */
  readonly transport?: object | undefined;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { timeout?: number; maxTotalTimeout?: number; signal?: AbortSignal },
  ): Promise<unknown>;
}

/** The SDK's ClientOptions (`{ capabilities: {} }` and the rest), handed to its Client unchanged. */
export type McpClientOptions = object;

/** A tool's answer: the SDK's CallToolResult (content blocks, structured content, isError). */
export interface McpToolResult {
  content: Array<{ type: string; text?: string; [field: string]: unknown }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [field: string]: unknown;
}

export interface McpClientManagerOptions {
  /** stdio servers by name, started by the manager. */
  servers?: Record<string, McpServerConfig>;
  /** Already-connected SDK clients by name; the host owns them (close() leaves them open). */
  clients?: Record<string, McpClient>;
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
  /** Environment for servers on top of the minimal one (the host runtime: the session's frozen env). */
  env?: Record<string, string>;
  /** Default cwd of servers (default: projectDir). */
  cwd?: string;
  /** Name, version and options of each server's SDK client (default: no capabilities). */
  clientOptions?: (server: string) => McpClientOptions;
  /** Called with each new client before it connects (e.g. to install request handlers). */
  prepareClient?: (server: string, client: McpClient) => void | Promise<void>;
  /**
   * A connected server went away (not through close()). Default: a warning that it is restarted
   * on its next use. `description` reads like "exited with code 3; stderr: …".
   */
  onServerClosed?: (server: string, exit: ServerExit | undefined, description: string) => void;
}

/** The keys createMcpClientManager (and the engine's `mcp` option) accept; any other is refused. */
export const MCP_MANAGER_OPTION_KEYS = {
  servers: true,
  clients: true,
  projectDir: true,
  connectTimeoutMs: true,
  maxRestarts: true,
  shutdownGraceMs: true,
  killGraceMs: true,
  maxMessageBytes: true,
  onServerStderr: true,
  onWarning: true,
  env: true,
  cwd: true,
  clientOptions: true,
  prepareClient: true,
  onServerClosed: true,
} as const satisfies KnownKeys<McpClientManagerOptions>;

export type McpCallFailure =
  | 'unknown-server' // no server of that name
  | 'not-connected' // could not start / external client closed / not restarted any more
  | 'timeout'
  | 'aborted'
  | 'crashed' // the server exited during the call
  | 'failed' // the server answered with a JSON-RPC error (unknown tool, bad arguments, …)
  | 'closed'; // the manager is closed

export type McpCallOutcome = { ok: true; result: McpToolResult } | { ok: false; failure: McpCallFailure; message: string };

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
  /** The connected SDK client of a server (undefined while it is not connected). */
  client(server: string): McpClient | undefined;
  /** Use (or stop using, with undefined) a host-managed client under this name. */
  setClient(server: string, client: McpClient | undefined): void;
  has(server: string): boolean;
  servers(): string[];
  status(): McpServerStatus[];
  /** Stop every server this manager started (process groups included). Idempotent. */
  close(): Promise<void>;
}

/** Runtime check for the engine: a manager, or options to build one. */
export function isMcpClientManager(value: unknown): value is McpClientManager {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as McpClientManager).callTool === 'function' &&
    typeof (value as McpClientManager).close === 'function'
  );
}

export class McpConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpConfigError';
  }
}
