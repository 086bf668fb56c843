/**
 * The MCP SDK (`@modelcontextprotocol/sdk`) is an optional peer dependency: most users never
 * run an MCP feature, and its install pulls a whole server stack we do not use. Every import of
 * it goes through here, lazily (dynamic import), on the first use of an MCP feature: mcp_tool
 * hooks, MCP servers of the host runtime, elicitation, `agent-hooks mcp-proxy`. When it is not
 * installed, the feature fails with McpSdkMissingError, which says what to install — never a
 * crash, and nothing else of the package is affected.
 */
const MCP_SDK_PACKAGE = '@modelcontextprotocol/sdk';

export class McpSdkMissingError extends Error {
  constructor(readonly feature: string) {
    super(
      `install ${MCP_SDK_PACKAGE} to use ${feature} (npm install ${MCP_SDK_PACKAGE}: it is an optional peer dependency of agent-hooks)`,
    );
    this.name = 'McpSdkMissingError';
  }
}

/** The SDK itself is absent (not a module of it failing for another reason). */
function isSdkMissing(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException | undefined;
  return (
    (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') &&
    typeof e.message === 'string' &&
    e.message.includes(MCP_SDK_PACKAGE)
  );
}

/** Run `load` (one or more dynamic imports of the SDK); a missing SDK becomes McpSdkMissingError naming `feature`. */
export async function importMcpSdk<T>(feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isSdkMissing(err)) throw new McpSdkMissingError(feature);
    throw err;
  }
}

type ClientModule = typeof import('@modelcontextprotocol/sdk/client/index.js');
type TransportModule = typeof import('../backends/stdio-transport.js');

export interface McpClientSdk {
  Client: ClientModule['Client'];
  Transport: TransportModule['ProcessGroupStdioTransport'];
  types: typeof import('@modelcontextprotocol/sdk/types.js');
}

let clientSdk: Promise<McpClientSdk> | undefined;

/** The SDK client, our stdio transport (which uses the SDK's framing) and the SDK's types, loaded once. */
export function loadMcpClientSdk(feature: string): Promise<McpClientSdk> {
  clientSdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('../backends/stdio-transport.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([c, t, types]) => ({ Client: c.Client, Transport: t.ProcessGroupStdioTransport, types }));
  const p = clientSdk;
  // A failed load is not cached: installing the SDK while a long-lived host runs is enough.
  p.catch(() => {
    if (clientSdk === p) clientSdk = undefined;
  });
  return importMcpSdk(feature, () => p);
}

/** The SDK's types module (schemas, error codes). */
export function loadMcpTypes(feature: string): Promise<McpClientSdk['types']> {
  return importMcpSdk(feature, () => import('@modelcontextprotocol/sdk/types.js'));
}
