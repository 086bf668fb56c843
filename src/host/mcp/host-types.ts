/** The MCP host's public shapes (./host.ts builds it). */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RunContext } from '../../engine/engine.js';
import type { McpServerConfig } from '../../mcp/config.js';
import type { ElicitationOutcome, ElicitationPrompter, ElicitationRequest, HookRunner } from './elicit.js';

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

interface McpToolRunContext {
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
