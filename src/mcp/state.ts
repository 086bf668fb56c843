/** The MCP client manager's state: one plain record, read and changed by the functions of ./start.ts, ./call.ts and ./manager.ts. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ProcessGroupStdioTransport } from '../backends/stdio-transport.js';
import type { McpServerConfig } from './config.js';
import type { Reaper } from './reaper.js';
import type { McpClient, McpClientManagerOptions } from './types.js';

export interface Connection {
  client: Client;
  transport: ProcessGroupStdioTransport;
}

/** A configured stdio server, started by us. */
export interface StdioSlot {
  kind: 'stdio';
  name: string;
  config: McpServerConfig;
  conn?: Connection;
  connecting?: Promise<Connection>;
  /** The transport of a start in progress (for status()). */
  starting?: ProcessGroupStdioTransport;
  /** Consecutive failures since the last successful call. */
  failures: number;
  lastError?: string;
}

/** A client the host connected and owns. */
interface ClientSlot {
  kind: 'client';
  name: string;
  client: McpClient;
}

export type Slot = StdioSlot | ClientSlot;

export interface ManagerState {
  readonly options: McpClientManagerOptions;
  readonly projectDir: string;
  readonly connectTimeoutMs: number;
  readonly maxRestarts: number;
  readonly warn: (message: string) => void;
  readonly slots: Map<string, Slot>;
  readonly reaper: Reaper;
  closed: boolean;
}
