/**
 * Starting one configured stdio server: spawn (through the backends' process-group transport),
 * initialize, and watch for its end. Concurrent callers share one start; a server that failed
 * more than `maxRestarts` times in a row is not started again until connect() asks for it.
 */
import { buildHookEnv } from '../backends/env.js';
import type { ProcessGroupStdioTransport } from '../backends/stdio-transport.js';
import { describeExit, errorMessage } from './messages.js';
import { loadMcpClientSdk, McpSdkMissingError } from './sdk.js';
import type { Connection, ManagerState, StdioSlot } from './state.js';

const VERSION = '0.1.0';

export function startServer(m: ManagerState, slot: StdioSlot): Promise<Connection> {
  if (slot.conn) return Promise.resolve(slot.conn);
  if (slot.connecting) return slot.connecting;
  if (slot.failures > m.maxRestarts) {
    return Promise.reject(
      new Error(
        `failed ${slot.failures} times in a row and is not restarted any more (last: ${slot.lastError ?? 'unknown'}); call connect("${slot.name}") to retry`,
      ),
    );
  }
  const attempt = connectServer(m, slot);
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
      if (!m.closed && !(err instanceof McpSdkMissingError)) {
        slot.failures++;
        slot.lastError = errorMessage(err);
      }
    },
  );
  return attempt;
}

async function connectServer(m: ManagerState, slot: StdioSlot): Promise<Connection> {
  const sdk = await loadMcpClientSdk('mcp_tool hooks');
  const { options } = m;
  const { config } = slot;
  const transport = new sdk.Transport({
    command: config.command,
    args: config.args ?? [],
    cwd: config.cwd ?? options.cwd ?? m.projectDir,
    env: buildHookEnv({ projectDir: m.projectDir, hookEnv: config.env, ...(options.env ? { sessionEnv: { ...options.env } } : {}) }),
    shutdownGraceMs: options.shutdownGraceMs ?? 500,
    killGraceMs: options.killGraceMs ?? 500,
    maxMessageBytes: options.maxMessageBytes ?? 16 * 1024 * 1024,
    stderrTailBytes: 4096,
    onStderr: options.onServerStderr ? (chunk) => options.onServerStderr?.(slot.name, chunk) : undefined,
  });
  slot.starting = transport;
  const client = new sdk.Client({ name: 'agent-hooks', version: VERSION }, options.clientOptions?.(slot.name) ?? { capabilities: {} });
  const conn: Connection = { client, transport };
  // Set before connect: the SDK chains our handler in front of its own.
  transport.onclose = () => onServerClose(m, slot, conn);
  client.onerror = () => {}; // protocol noise; failures surface through calls and onclose
  try {
    m.reaper.track(transport);
    await options.prepareClient?.(slot.name, client);
    await client.connect(transport, { timeout: m.connectTimeoutMs });
  } catch (err) {
    // Judge before we stop it ourselves: did the server die, or did the handshake fail?
    const why = transport.exit ? describeExit(transport) : errorMessage(err);
    await transport.close();
    m.reaper.untrack(transport);
    throw new Error(`could not be started (${config.command}): ${why}`);
  }
  if (m.closed) {
    await transport.close();
    throw new Error('the MCP client manager was closed');
  }
  slot.conn = conn;
  return conn;
}

function onServerClose(m: ManagerState, slot: StdioSlot, conn: Connection): void {
  const transport: ProcessGroupStdioTransport = conn.transport;
  m.reaper.untrack(transport);
  if (slot.conn !== conn) return;
  slot.conn = undefined;
  if (m.closed) return;
  slot.failures++;
  const description = describeExit(transport);
  slot.lastError = `server ${description}`;
  if (m.options.onServerClosed) m.options.onServerClosed(slot.name, transport.exit, description);
  else m.warn(`MCP server "${slot.name}" ${description}; it is restarted on its next use`);
}
