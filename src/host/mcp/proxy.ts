/**
 * MCP proxy with hooks: sits between an MCP client and a real MCP server and relays JSON-RPC
 * messages both ways, running hooks where Claude Code would:
 *
 *   client → tools/call   PreToolUse (deny: an error result, the server never sees the call;
 *                          updatedInput: re-validated against the tool's listed inputSchema, then
 *                          sent instead; ask: PermissionRequest hooks, then the user through the
 *                          client's elicitation support, else denied)
 *   server → its result   PostToolUse (updatedMCPToolOutput replaces the result; additionalContext
 *                          and block reasons are appended as text) or PostToolUseFailure
 *                          (isError results and JSON-RPC errors)
 *   server → elicitation/create   Elicitation / user (forwarded to the client) / ElicitationResult,
 *                          final content validated against the requested schema (./elicit.ts)
 *
 * Everything else (initialize, lists, resources, prompts, sampling, roots, pings, progress,
 * notifications, cancellation) passes through unchanged. Server→client requests are re-numbered
 * so that the proxy's own requests to the client (forwarded elicitations, confirmations) can never
 * collide with the server's ids; cancellations are translated accordingly.
 *
 * Two deliberate changes to what passes through, so no call escapes the hooks:
 * - initialize: task-augmented tool calls and elicitations (experimental `tasks` capability) are
 *   removed from the capabilities each side announces — their results would arrive later, outside
 *   tools/call and elicitation/create;
 * - initialize: with `advertiseElicitation`, a client without elicitation support is announced
 *   as supporting form elicitation, so that Elicitation hooks can answer (undecided requests are
 *   then declined, as headless).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RunContext } from '../../engine/engine.js';
import type { Decision } from '../../reduce/reduce.js';
import type { EventName } from '../../events/catalog.js';
import { importMcpSdk } from '../../mcp/sdk.js';
import { elicit, formatElicitationTrace, type ElicitationAnswer, type ElicitationOutcome, type ElicitationRequest, type HookRunner } from './elicit.js';
import { mcpToolName, toolErrorText } from './tools.js';

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

type Id = string | number;
type Msg = Record<string, unknown> & { jsonrpc: '2.0' };

interface PendingCall {
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
type ClientRequest = { kind: 'forwarded'; serverId: Id } | { kind: 'own'; resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void };

const key = (id: Id) => (typeof id === 'number' ? `n:${id}` : `s:${id}`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type Sdk = {
  types: typeof import('@modelcontextprotocol/sdk/types.js');
  Ajv: typeof import('@modelcontextprotocol/sdk/validation/ajv').AjvJsonSchemaValidator;
};
let sdkPromise: Promise<Sdk> | undefined;
const loadSdk = () =>
  (sdkPromise ??= importMcpSdk('the MCP proxy', () =>
    Promise.all([import('@modelcontextprotocol/sdk/types.js'), import('@modelcontextprotocol/sdk/validation/ajv')]).then(([types, ajv]) => ({
      types,
      Ajv: ajv.AjvJsonSchemaValidator,
    })),
  ));

export function createMcpProxy(options: McpProxyOptions): McpProxy {
  const { client, server, hooks, name } = options;
  const log = options.onLog ?? (() => {});
  const calls = new Map<string, PendingCall>();
  const clientRequests = new Map<string, ClientRequest>();
  /** Server request id → the id we forwarded it under. */
  const forwardedIds = new Map<string, string>();
  /** Server elicitations handled here (hooks, maybe a forwarded prompt): cancel by server id. */
  const elicitations = new Map<string, AbortController>();
  const toolListIds = new Set<string>();
  let initializeId: string | undefined;
  /** Input schemas of the tools the server listed, by tool name (for re-validating rewrites). */
  const inputSchemas = new Map<string, Record<string, unknown>>();
  const validators = new Map<string, (v: unknown) => { valid: boolean; errorMessage?: string }>();
  let ajv: InstanceType<Sdk['Ajv']> | undefined;
  let clientElicitation = { form: false, url: false };
  let seq = 0;
  let closed = false;
  /** The client is gone (or we are closing): nothing more is read from it. */
  let clientGone = false;
  let closing: Promise<void> | undefined;
  const drainMs = options.drainMs ?? 500;
  /** Handlers still running: tools/call being judged, results being hooked, elicitations. */
  const judging = new Set<Promise<unknown>>();
  const inflight = new Set<Promise<unknown>>();
  const track = (set: Set<Promise<unknown>>, p: Promise<unknown>) => {
    set.add(p);
    inflight.add(p);
    void p.finally(() => {
      set.delete(p);
      inflight.delete(p);
    });
  };
  let resolveDone!: (v: { by: 'client' | 'server' | 'close' }) => void;
  const done = new Promise<{ by: 'client' | 'server' | 'close' }>((r) => (resolveDone = r));

  const toClient = (m: Msg) => client.send(m as JSONRPCMessage).catch((e: Error) => log(`could not write to the client: ${e.message}`));
  const toServer = (m: Msg) => server.send(m as JSONRPCMessage).catch((e: Error) => log(`could not write to the server: ${e.message}`));

  function hookInput(): Record<string, unknown> {
    return { ...options.hookInput?.() };
  }

  async function fire(event: EventName, fields: Record<string, unknown>, signal: AbortSignal): Promise<Decision | { error: string }> {
    try {
      const d = await hooks!.run(event, { ...hookInput(), ...fields }, { ...options.runContext?.(), signal });
      for (const m of d.systemMessages) log(`${event}: ${m}`);
      return d;
    } catch (err) {
      return { error: (err as Error)?.message ?? String(err) };
    }
  }

  // ── requests of our own to the client ─────────────────────────────────────────────
  function requestClient(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      if (closed || clientGone) return reject(new Error('the proxy is closed'));
      const id = `agent-hooks-${++seq}`;
      const onAbort = () => {
        if (!clientRequests.delete(key(id))) return;
        void toClient({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled' } });
        reject(new Error('cancelled'));
      };
      clientRequests.set(key(id), {
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
      void toClient({ jsonrpc: '2.0', id, method, params });
    });
  }

  // ── tools/call ──────────────────────────────────────────────────────────────────────
  const errorResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

  async function validateRewrite(tool: string, input: Record<string, unknown>): Promise<string | undefined> {
    const schema = inputSchemas.get(tool);
    if (!schema) return undefined; // never listed: the server validates
    let validate = validators.get(tool);
    if (!validate) {
      const sdk = await loadSdk();
      ajv ??= new sdk.Ajv();
      try {
        validate = ajv.getValidator(schema) as (v: unknown) => { valid: boolean; errorMessage?: string };
      } catch (err) {
        log(`the inputSchema of ${tool} cannot be compiled (${(err as Error).message}); rewrites of it are not re-validated`);
        return undefined;
      }
      validators.set(tool, validate);
    }
    const r = validate(input);
    return r.valid ? undefined : (r.errorMessage ?? 'does not match the inputSchema');
  }

  async function onToolCall(msg: Msg & { id: Id }) {
    if (!hooks) return void toServer(msg);
    const params = isObject(msg.params) ? msg.params : {};
    const tool = params.name;
    if (typeof tool !== 'string' || (params.arguments !== undefined && !isObject(params.arguments))) {
      // A call the hooks cannot read never reaches the server (it could not be judged).
      const message = 'Invalid tools/call params: "name" must be a string and "arguments" an object';
      log(`refused a malformed tools/call: ${message}`);
      return void toClient({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message } });
    }
    const call: PendingCall = {
      id: msg.id,
      toolName: mcpToolName(name, tool),
      input: (params.arguments as Record<string, unknown> | undefined) ?? {},
      toolUseId: `mcp-proxy-${randomUUID()}`,
      abort: new AbortController(),
      forwarded: false,
      startedAt: 0,
      context: [],
    };
    calls.set(key(msg.id), call);
    const deny = (text: string) => {
      calls.delete(key(msg.id));
      log(`${call.toolName}: denied: ${text}`);
      void toClient({ jsonrpc: '2.0', id: msg.id, result: errorResult(text) });
    };
    const signal = call.abort.signal;
    const gone = () => signal.aborted || calls.get(key(msg.id)) !== call;

    const pre = await fire('PreToolUse', { tool_name: call.toolName, tool_input: call.input, tool_use_id: call.toolUseId }, signal);
    if (gone()) return;
    if ('error' in pre) return deny(`PreToolUse hooks could not run: ${pre.error}`);
    call.context.push(...pre.additionalContext);
    if (!pre.continue) return deny(pre.stopReason ?? 'a PreToolUse hook stopped the agent');
    if (pre.decision === 'deny') return deny(pre.reason ?? 'denied by a PreToolUse hook');
    if (pre.decision === 'defer') return deny('a PreToolUse hook deferred this call; the proxy cannot resume calls later');
    let input = pre.updatedInput ?? call.input;
    let rewritten = pre.updatedInput !== undefined;

    if (pre.decision === 'ask') {
      // Seed 000: PermissionRequest only while the decision is still ask; then the user.
      const pr = await fire('PermissionRequest', { tool_name: call.toolName, tool_input: input, permission_suggestions: [] }, signal);
      if (gone()) return;
      if ('error' in pr) return deny(`PermissionRequest hooks could not run: ${pr.error}`);
      if (pr.decision === 'deny') return deny(pr.reason ?? 'denied by a PermissionRequest hook');
      if (pr.decision === 'allow') {
        if (pr.updatedInput) {
          input = pr.updatedInput;
          rewritten = true;
        }
      } else if (!clientElicitation.form) {
        return deny(
          `a hook asked for confirmation${pre.reason ? ` (${pre.reason})` : ''}, and this MCP client cannot ask its user (it does not support elicitation): denied`,
        );
      } else {
        let answer: Record<string, unknown>;
        try {
          answer = await requestClient(
            'elicitation/create',
            {
              mode: 'form',
              message: `Allow ${call.toolName}?${pre.reason ? `\n${pre.reason}` : ''}\nInput: ${JSON.stringify(input)}`,
              requestedSchema: { type: 'object', properties: {} },
            },
            signal,
          );
        } catch (err) {
          if (gone()) return;
          return deny(`asking the user failed: ${(err as Error).message}`);
        }
        if (gone()) return;
        if (answer.action !== 'accept') return deny(`the user did not allow the call (${String(answer.action)})`);
      }
    }

    if (rewritten) {
      const problem = await validateRewrite(tool, input);
      if (gone()) return;
      if (problem) return deny(`a hook rewrote the input of ${call.toolName} invalidly: ${problem}`);
      log(`${call.toolName}: input rewritten by a hook`);
    }
    call.input = input;
    call.forwarded = true;
    call.startedAt = performance.now();
    void toServer(rewritten ? { ...msg, params: { ...params, arguments: input } } : msg);
  }

  async function onToolResult(call: PendingCall, msg: Msg) {
    const duration_ms = Math.round(performance.now() - call.startedAt);
    const base = { tool_name: call.toolName, tool_input: call.input, tool_use_id: call.toolUseId, duration_ms };
    const signal = new AbortController().signal;
    if (isObject(msg.error)) {
      // The SDK's servers prefix "MCP error -32603: "; the code means nothing to a hook author.
      const error = String(msg.error.message ?? 'error').replace(/^(?:MCP error -?\d+: )+/, '');
      const d = await fire('PostToolUseFailure', { ...base, error, is_interrupt: false }, signal);
      const lost = [...call.context, ...('error' in d ? [] : d.additionalContext)];
      if (lost.length) log(`${call.toolName}: the server answered with a protocol error; additionalContext cannot be attached: ${lost.join(' | ')}`);
      void toClient(msg);
      return;
    }
    const result = msg.result as CallToolResult & { task?: unknown };
    if (!isObject(result) || result.task !== undefined || !Array.isArray(result.content)) {
      void toClient(msg); // not a tool result (a task handle): nothing to hook
      return;
    }
    let out: CallToolResult = result;
    const texts = [...call.context];
    if (result.isError) {
      const d = await fire('PostToolUseFailure', { ...base, error: toolErrorText(result) || JSON.stringify(result.content), is_interrupt: false }, signal);
      if ('error' in d) log(`PostToolUseFailure hooks could not run: ${d.error}`);
      else texts.push(...d.additionalContext);
    } else {
      const d = await fire('PostToolUse', { ...base, tool_response: result }, signal);
      if ('error' in d) log(`PostToolUse hooks could not run: ${d.error}`);
      else {
        if (d.updatedOutput !== undefined) {
          const replaced = await replacementResult(d.updatedOutput);
          if (replaced.ok) {
            out = replaced.result;
            log(`${call.toolName}: output replaced by a PostToolUse hook`);
          } else log(`${call.toolName}: updatedMCPToolOutput ignored, it is not a tool result: ${replaced.error}`);
        }
        texts.push(...d.additionalContext);
        if (d.decision === 'block' && d.reason) texts.push(d.reason);
        if (!d.continue) {
          out = { ...out, isError: true };
          texts.push(d.stopReason ?? 'a PostToolUse hook stopped the agent');
        }
      }
    }
    if (texts.length) out = { ...out, content: [...out.content, ...texts.map((text) => ({ type: 'text' as const, text }))] };
    void toClient({ ...msg, result: out });
  }

  // ── elicitation/create from the server ──────────────────────────────────────────────
  async function onElicitation(msg: Msg & { id: Id }) {
    const { types } = await loadSdk();
    const parsed = types.ElicitRequestParamsSchema.safeParse(msg.params);
    if (!parsed.success) {
      void toServer({ jsonrpc: '2.0', id: msg.id, error: { code: types.ErrorCode.InvalidParams, message: `Invalid elicitation request: ${parsed.error.message}` } });
      return;
    }
    const raw = msg.params as Record<string, unknown>;
    if (raw.task !== undefined) {
      void toServer({ jsonrpc: '2.0', id: msg.id, error: { code: types.ErrorCode.InvalidParams, message: 'task-augmented elicitation is not supported through agent-hooks mcp-proxy' } });
      return;
    }
    const p = parsed.data as Record<string, unknown>;
    const mode = p.mode === 'url' ? 'url' : 'form';
    const request: ElicitationRequest = { server: name, message: String(p.message), mode };
    if (mode === 'form') request.requestedSchema = raw.requestedSchema as Record<string, unknown>;
    if (typeof p.url === 'string') request.url = p.url;
    if (typeof p.elicitationId === 'string') request.elicitationId = p.elicitationId;

    const abort = new AbortController();
    elicitations.set(key(msg.id), abort);
    const canAsk = mode === 'url' ? clientElicitation.url : clientElicitation.form;
    const outcome = await elicit(request, {
      hooks,
      input: hookInput(),
      runContext: options.runContext?.(),
      signal: abort.signal,
      prompter: canAsk
        ? async (_req, ctx): Promise<ElicitationAnswer> => {
            // The client sees the server's request as it was sent.
            const r = await requestClient('elicitation/create', raw, ctx.signal);
            return { action: r.action as ElicitationAnswer['action'], content: r.content as ElicitationAnswer['content'] };
          }
        : undefined,
    });
    elicitations.delete(key(msg.id));
    options.onElicitation?.(request, outcome);
    for (const line of formatElicitationTrace(outcome)) log(`elicitation: ${line}`);
    if (abort.signal.aborted || closed) return; // cancelled by the server: no response
    const result: Record<string, unknown> = { action: outcome.action };
    if (outcome.action === 'accept' && outcome.content) result.content = outcome.content;
    void toServer({ jsonrpc: '2.0', id: msg.id, result });
  }

  // ── relay ───────────────────────────────────────────────────────────────────────────
  function fromClient(m: JSONRPCMessage) {
    if (closed || clientGone) return;
    const msg = m as Msg;
    const id = msg.id as Id | undefined;
    if (typeof msg.method === 'string' && id !== undefined) {
      if (msg.method === 'tools/call') return track(judging, onToolCall(msg as Msg & { id: Id }));
      if (msg.method === 'initialize') return void toServer(adjustInitialize(msg, id));
      if (msg.method === 'tools/list') toolListIds.add(key(id));
      return void toServer(msg);
    }
    if (typeof msg.method === 'string') {
      // A tools/call without an id is no valid notification; a lenient server might still run it, unhooked.
      if (msg.method === 'tools/call' && hooks) return log('dropped a tools/call sent as a notification (no id)');
      if (msg.method === 'notifications/cancelled' && isObject(msg.params)) {
        const rid = msg.params.requestId as Id;
        const call = calls.get(key(rid));
        if (call) {
          calls.delete(key(rid));
          call.abort.abort();
          if (!call.forwarded) return; // the server never saw it, and no response is due
        }
      }
      return void toServer(msg);
    }
    // A response: to a forwarded server request, or to one of our own.
    if (id === undefined) return void toServer(msg);
    const pending = clientRequests.get(key(id));
    if (!pending) return void toServer(msg);
    clientRequests.delete(key(id));
    if (pending.kind === 'own') {
      if (isObject(msg.error)) pending.reject(new Error(String(msg.error.message ?? 'error')));
      else pending.resolve(isObject(msg.result) ? msg.result : {});
      return;
    }
    forwardedIds.delete(key(pending.serverId));
    void toServer({ ...msg, id: pending.serverId });
  }

  function fromServer(m: JSONRPCMessage) {
    if (closed) return;
    const msg = m as Msg;
    const id = msg.id as Id | undefined;
    if (typeof msg.method === 'string' && id !== undefined) {
      if (msg.method === 'elicitation/create' && hooks) return track(inflight, onElicitation(msg as Msg & { id: Id }));
      const proxyId = `agent-hooks-${++seq}`;
      clientRequests.set(key(proxyId), { kind: 'forwarded', serverId: id });
      forwardedIds.set(key(id), proxyId);
      return void toClient({ ...msg, id: proxyId });
    }
    if (typeof msg.method === 'string') {
      if (msg.method === 'notifications/cancelled' && isObject(msg.params)) {
        const rid = msg.params.requestId as Id;
        const local = elicitations.get(key(rid));
        if (local) {
          local.abort(); // cancels a prompt forwarded to the client, if any
          return;
        }
        const proxyId = forwardedIds.get(key(rid));
        if (proxyId !== undefined) {
          forwardedIds.delete(key(rid));
          clientRequests.delete(key(proxyId));
          return void toClient({ ...msg, params: { ...msg.params, requestId: proxyId } });
        }
      }
      return void toClient(msg);
    }
    if (id !== undefined) {
      const call = calls.get(key(id));
      if (call?.forwarded) {
        calls.delete(key(id));
        return track(inflight, onToolResult(call, msg));
      }
      if (toolListIds.delete(key(id))) rememberTools(msg);
      if (initializeId === key(id)) {
        initializeId = undefined;
        return void toClient(adjustInitializeResult(msg));
      }
    }
    return void toClient(msg);
  }

  function adjustInitialize(msg: Msg, id: Id): Msg {
    initializeId = key(id);
    const params = isObject(msg.params) ? msg.params : {};
    const caps = isObject(params.capabilities) ? { ...params.capabilities } : {};
    const el = caps.elicitation;
    // MCP: an empty elicitation capability means form mode.
    clientElicitation = isObject(el) ? { form: Object.keys(el).length === 0 || isObject(el.form), url: isObject(el.url) } : { form: false, url: false };
    let changed = false;
    if (!isObject(el) && options.advertiseElicitation && hooks) {
      caps.elicitation = { form: {} };
      changed = true;
    }
    if (dropTaskCapability(caps, 'elicitation')) changed = true;
    return changed ? { ...msg, params: { ...params, capabilities: caps } } : msg;
  }

  function adjustInitializeResult(msg: Msg): Msg {
    if (!hooks || !isObject(msg.result) || !isObject(msg.result.capabilities)) return msg;
    const caps = { ...msg.result.capabilities };
    return dropTaskCapability(caps, 'tools') ? { ...msg, result: { ...msg.result, capabilities: caps } } : msg;
  }

  function rememberTools(msg: Msg) {
    const tools = isObject(msg.result) ? msg.result.tools : undefined;
    if (!Array.isArray(tools)) return;
    for (const t of tools) {
      if (!isObject(t) || typeof t.name !== 'string' || !isObject(t.inputSchema)) continue;
      inputSchemas.set(t.name, t.inputSchema);
      validators.delete(t.name);
    }
  }

  /**
   * Shut down like a direct connection would: calls already being judged may still reach the
   * server, the server gets EOF and answers what it has (its results still pass PostToolUse), then
   * whatever is left is abandoned. Each wait is bounded, so a client that gave up is not kept waiting.
   */
  function close(by: 'client' | 'server' | 'close'): Promise<void> {
    closing ??= (async () => {
      clientGone = true;
      if (by !== 'server') await settle(judging, drainMs);
      await server.close().catch(() => {});
      await settle(inflight, drainMs);
      closed = true;
      for (const c of calls.values()) c.abort.abort();
      for (const e of elicitations.values()) e.abort();
      for (const r of clientRequests.values()) if (r.kind === 'own') r.reject(new Error('the proxy is closed'));
      calls.clear();
      clientRequests.clear();
      await client.close().catch(() => {});
      resolveDone({ by });
    })();
    return closing;
  }

  return {
    async start() {
      client.onmessage = fromClient;
      server.onmessage = fromServer;
      client.onerror = (e) => log(`client: ${e.message}`);
      server.onerror = (e) => log(`server: ${e.message}`);
      client.onclose = () => void close('client');
      server.onclose = () => void close('server');
      await server.start();
      await client.start();
    },
    close: () => close('close'),
    done,
  };
}

/** Wait until the set is empty (it may grow meanwhile), at most `ms`. */
async function settle(set: Set<Promise<unknown>>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (set.size > 0) {
    const left = end - Date.now();
    if (left <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...set]), new Promise((r) => (timer = setTimeout(r, left)))]);
    clearTimeout(timer);
  }
}

/** Remove `tasks.requests.<what>` from announced capabilities; true when something was removed. */
function dropTaskCapability(caps: Record<string, unknown>, what: string): boolean {
  const tasks = caps.tasks;
  if (!isObject(tasks) || !isObject(tasks.requests) || !(what in tasks.requests)) return false;
  const requests = { ...tasks.requests };
  delete requests[what];
  caps.tasks = { ...tasks, requests };
  return true;
}

/**
 * updatedMCPToolOutput → a CallToolResult: a result object (content/structuredContent) as is, an
 * array as its content blocks, a string as one text block, any other value as its JSON text.
 */
async function replacementResult(value: unknown): Promise<{ ok: true; result: CallToolResult } | { ok: false; error: string }> {
  const { types } = await loadSdk();
  let candidate: unknown;
  if (typeof value === 'string') candidate = { content: [{ type: 'text', text: value }] };
  else if (Array.isArray(value)) candidate = { content: value };
  else if (isObject(value) && ('content' in value || 'structuredContent' in value)) candidate = value;
  else candidate = { content: [{ type: 'text', text: JSON.stringify(value) }] };
  const r = types.CallToolResultSchema.safeParse(candidate);
  if (!r.success) return { ok: false, error: r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  return { ok: true, result: { ...(candidate as CallToolResult), content: r.data.content } };
}
