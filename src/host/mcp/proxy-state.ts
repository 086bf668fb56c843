/**
 * The MCP proxy's state, one plain record (./proxy.ts builds it), and the small functions every
 * part of the proxy uses: sending, firing hooks, requests of our own to the client, tracking work.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { EventName } from '../../events/catalog.js';
import { importMcpSdk } from '../../mcp/sdk.js';
import type { Decision } from '../../reduce/reduce.js';
import type { RunContext } from '../../engine/engine.js';
import type { ElicitationOutcome, ElicitationRequest, HookRunner } from './elicit.js';

export interface McpProxyOptions {
  /** Server name: tools are `mcp__<name>__<tool>` for hooks, and the Elicitation matcher value. */
  name: string;
  /** Fires the hooks (a HookEngine or a session handle); without it the proxy only relays. */
  hooks?: HookRunner;
  /** Towards the MCP client (the proxy is its server), e.g. a StdioServerTransport. */
  client: Transport;
  /** Towards the real server (the proxy is its client), e.g. a ProcessGroupStdioTransport. */
  server: Transport;
  /** Common fields of hook payloads (session_id, transcript_path, cwd, permission_mode). */
  hookInput?: () => Record<string, unknown>;
  runContext?: () => RunContext;
  /** Announce form elicitation to the server when the client lacks it, so hooks can answer (default false). */
  advertiseElicitation?: boolean;
  /** At shutdown, how long work in hand may take per phase (default 500 ms). */
  drainMs?: number;
  /** Human-readable notes (systemMessages, warnings, decisions): the CLI writes them to stderr. */
  onLog?: (line: string) => void;
  onElicitation?: (request: ElicitationRequest, outcome: ElicitationOutcome) => void;
}

export interface McpProxy {
  /** Start both transports (server first) and begin relaying. */
  start(): Promise<void>;
  /** Stop relaying and close both transports. Idempotent. */
  close(): Promise<void>;
  /** Resolves once the proxy has shut down, saying which side ended it. */
  readonly done: Promise<{ by: 'client' | 'server' | 'close' }>;
}

export type Id = string | number;
export type Msg = Record<string, unknown> & { jsonrpc: '2.0' };

export interface PendingCall {
  id: Id;
  toolName: string;
  input: Record<string, unknown>;
  toolUseId: string;
  abort: AbortController;
  forwarded: boolean;
  startedAt: number;
  /** additionalContext of PreToolUse, appended to the result. */
  context: string[];
}

/** A request the proxy sent to the client: a forwarded server request, or one of its own. */
type ClientRequest =
  | { kind: 'forwarded'; serverId: Id }
  | { kind: 'own'; resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void };

export const key = (id: Id) => (typeof id === 'number' ? `n:${id}` : `s:${id}`);
export { isObject } from '../../util/is-object.js';

export type ProxyEnd = { by: 'client' | 'server' | 'close' };

export interface ProxyState {
  readonly options: McpProxyOptions;
  readonly name: string;
  readonly hooks: HookRunner | undefined;
  /** Towards the MCP client, and towards the real server. */
  readonly client: Transport;
  readonly server: Transport;
  readonly log: (line: string) => void;
  readonly drainMs: number;
  /** tools/call requests of the client, by id: being judged, or forwarded and awaiting the result. */
  readonly calls: Map<string, PendingCall>;
  readonly clientRequests: Map<string, ClientRequest>;
  /** Server request id → the id we forwarded it under. */
  readonly forwardedIds: Map<string, string>;
  /** Server elicitations handled here (hooks, maybe a forwarded prompt): cancel by server id. */
  readonly elicitations: Map<string, AbortController>;
  readonly toolListIds: Set<string>;
  initializeId: string | undefined;
  /** Input schemas of the tools the server listed, by tool name (for re-validating rewrites). */
  readonly inputSchemas: Map<string, Record<string, unknown>>;
  readonly validators: Map<string, (v: unknown) => { valid: boolean; errorMessage?: string }>;
  ajv: InstanceType<Sdk['Ajv']> | undefined;
  clientElicitation: { form: boolean; url: boolean };
  seq: number;
  closed: boolean;
  /** The client is gone (or we are closing): nothing more is read from it. */
  clientGone: boolean;
  closing: Promise<void> | undefined;
  /** Handlers still running: tools/call being judged, results being hooked, elicitations. */
  readonly judging: Set<Promise<unknown>>;
  readonly inflight: Set<Promise<unknown>>;
  readonly resolveDone: (v: ProxyEnd) => void;
}

export function createProxyState(options: McpProxyOptions, resolveDone: (v: ProxyEnd) => void): ProxyState {
  return {
    options,
    name: options.name,
    hooks: options.hooks,
    client: options.client,
    server: options.server,
    log: options.onLog ?? (() => {}),
    drainMs: options.drainMs ?? 500,
    calls: new Map(),
    clientRequests: new Map(),
    forwardedIds: new Map(),
    elicitations: new Map(),
    toolListIds: new Set(),
    initializeId: undefined,
    inputSchemas: new Map(),
    validators: new Map(),
    ajv: undefined,
    clientElicitation: { form: false, url: false },
    seq: 0,
    closed: false,
    clientGone: false,
    closing: undefined,
    judging: new Set(),
    inflight: new Set(),
    resolveDone,
  };
}

type Sdk = {
  types: typeof import('@modelcontextprotocol/sdk/types.js');
  Ajv: typeof import('@modelcontextprotocol/sdk/validation/ajv').AjvJsonSchemaValidator;
};
let sdkPromise: Promise<Sdk> | undefined;
export const loadSdk = () =>
  (sdkPromise ??= importMcpSdk('the MCP proxy', () =>
    Promise.all([import('@modelcontextprotocol/sdk/types.js'), import('@modelcontextprotocol/sdk/validation/ajv')]).then(
      ([types, ajv]) => ({
        types,
        Ajv: ajv.AjvJsonSchemaValidator,
      }),
    ),
  ));

export function track(s: ProxyState, set: Set<Promise<unknown>>, p: Promise<unknown>): void {
  set.add(p);
  s.inflight.add(p);
  void p.finally(() => {
    set.delete(p);
    s.inflight.delete(p);
  });
}

export function toClient(s: ProxyState, m: Msg): Promise<void> {
  return s.client.send(m as JSONRPCMessage).catch((e: Error) => s.log(`could not write to the client: ${e.message}`));
}

export function toServer(s: ProxyState, m: Msg): Promise<void> {
  return s.server.send(m as JSONRPCMessage).catch((e: Error) => s.log(`could not write to the server: ${e.message}`));
}

export function hookInput(s: ProxyState): Record<string, unknown> {
  return { ...s.options.hookInput?.() };
}

export async function fire(
  s: ProxyState,
  event: EventName,
  fields: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Decision | { error: string }> {
  try {
    const d = await s.hooks!.run(event, { ...hookInput(s), ...fields }, { ...s.options.runContext?.(), signal });
    for (const m of d.systemMessages) s.log(`${event}: ${m}`);
    return d;
  } catch (err) {
    return { error: (err as Error)?.message ?? String(err) };
  }
}

// ── requests of our own to the client
export function requestClient(
  s: ProxyState,
  method: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    if (s.closed || s.clientGone) return reject(new Error('the proxy is closed'));
    const id = `agent-hooks-${++s.seq}`;
    const onAbort = () => {
      if (!s.clientRequests.delete(key(id))) return;
      void toClient(s, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled' } });
      reject(new Error('cancelled'));
    };
    s.clientRequests.set(key(id), {
      kind: 'own',
      resolve: (r) => {
        signal.removeEventListener('abort', onAbort);
        resolve(r);
      },
      reject: (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    });
    signal.addEventListener('abort', onAbort, { once: true });
    void toClient(s, { jsonrpc: '2.0', id, method, params });
  });
}
