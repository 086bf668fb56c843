/**
 * The relay: every message from either side, routed to the hooked handlers (tools/call, results,
 * elicitation/create) or passed through, with server→client request ids re-numbered and
 * cancellations translated; initialize capabilities adjusted (see ./proxy.ts).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { onElicitation } from './proxy-elicitation.js';
import { isObject, key, toClient, toServer, track, type Id, type Msg, type ProxyState } from './proxy-state.js';
import { onToolCall, onToolResult } from './proxy-tools.js';

export function fromClient(s: ProxyState, m: JSONRPCMessage) {
  if (s.closed || s.clientGone) return;
  const msg = m as Msg;
  const id = msg.id as Id | undefined;
  if (typeof msg.method === 'string' && id !== undefined) {
    if (msg.method === 'tools/call') return track(s, s.judging, onToolCall(s, msg as Msg & { id: Id }));
    if (msg.method === 'initialize') return void toServer(s, adjustInitialize(s, msg, id));
    if (msg.method === 'tools/list') s.toolListIds.add(key(id));
    return void toServer(s, msg);
  }
  if (typeof msg.method === 'string') {
    // A tools/call without an id is no valid notification; a lenient server might still run it, unhooked.
    if (msg.method === 'tools/call' && s.hooks) return s.log('dropped a tools/call sent as a notification (no id)');
    if (msg.method === 'notifications/cancelled' && isObject(msg.params)) {
      const rid = msg.params.requestId as Id;
      const call = s.calls.get(key(rid));
      if (call) {
        s.calls.delete(key(rid));
        call.abort.abort();
        if (!call.forwarded) return; // the server never saw it, and no response is due
      }
    }
    return void toServer(s, msg);
  }
  // A response: to a forwarded server request, or to one of our own.
  if (id === undefined) return void toServer(s, msg);
  const pending = s.clientRequests.get(key(id));
  if (!pending) return void toServer(s, msg);
  s.clientRequests.delete(key(id));
  if (pending.kind === 'own') {
    if (isObject(msg.error)) pending.reject(new Error(String(msg.error.message ?? 'error')));
    else pending.resolve(isObject(msg.result) ? msg.result : {});
    return;
  }
  s.forwardedIds.delete(key(pending.serverId));
  void toServer(s, { ...msg, id: pending.serverId });
}

export function fromServer(s: ProxyState, m: JSONRPCMessage) {
  if (s.closed) return;
  const msg = m as Msg;
  const id = msg.id as Id | undefined;
  if (typeof msg.method === 'string' && id !== undefined) {
    if (msg.method === 'elicitation/create' && s.hooks) return track(s, s.inflight, onElicitation(s, msg as Msg & { id: Id }));
    const proxyId = `agent-hooks-${++s.seq}`;
    s.clientRequests.set(key(proxyId), { kind: 'forwarded', serverId: id });
    s.forwardedIds.set(key(id), proxyId);
    return void toClient(s, { ...msg, id: proxyId });
  }
  if (typeof msg.method === 'string') {
    if (msg.method === 'notifications/cancelled' && isObject(msg.params)) {
      const rid = msg.params.requestId as Id;
      const local = s.elicitations.get(key(rid));
      if (local) {
        local.abort(); // cancels a prompt forwarded to the client, if any
        return;
      }
      const proxyId = s.forwardedIds.get(key(rid));
      if (proxyId !== undefined) {
        s.forwardedIds.delete(key(rid));
        s.clientRequests.delete(key(proxyId));
        return void toClient(s, { ...msg, params: { ...msg.params, requestId: proxyId } });
      }
    }
    return void toClient(s, msg);
  }
  if (id !== undefined) {
    const call = s.calls.get(key(id));
    if (call?.forwarded) {
      s.calls.delete(key(id));
      return track(s, s.inflight, onToolResult(s, call, msg));
    }
    if (s.toolListIds.delete(key(id))) rememberTools(s, msg);
    if (s.initializeId === key(id)) {
      s.initializeId = undefined;
      return void toClient(s, adjustInitializeResult(s, msg));
    }
  }
  return void toClient(s, msg);
}

function adjustInitialize(s: ProxyState, msg: Msg, id: Id): Msg {
  s.initializeId = key(id);
  const params = isObject(msg.params) ? msg.params : {};
  const caps = isObject(params.capabilities) ? { ...params.capabilities } : {};
  const el = caps.elicitation;
  // MCP: an empty elicitation capability means form mode.
  s.clientElicitation = isObject(el)
    ? { form: Object.keys(el).length === 0 || isObject(el.form), url: isObject(el.url) }
    : { form: false, url: false };
  let changed = false;
  if (!isObject(el) && s.options.advertiseElicitation && s.hooks) {
    caps.elicitation = { form: {} };
    changed = true;
  }
  if (dropTaskCapability(caps, 'elicitation')) changed = true;
  return changed ? { ...msg, params: { ...params, capabilities: caps } } : msg;
}

function adjustInitializeResult(s: ProxyState, msg: Msg): Msg {
  if (!s.hooks || !isObject(msg.result) || !isObject(msg.result.capabilities)) return msg;
  const caps = { ...msg.result.capabilities };
  return dropTaskCapability(caps, 'tools') ? { ...msg, result: { ...msg.result, capabilities: caps } } : msg;
}

function rememberTools(s: ProxyState, msg: Msg) {
  const tools = isObject(msg.result) ? msg.result.tools : undefined;
  if (!Array.isArray(tools)) return;
  for (const t of tools) {
    if (!isObject(t) || typeof t.name !== 'string' || !isObject(t.inputSchema)) continue;
    s.inputSchemas.set(t.name, t.inputSchema);
    s.validators.delete(t.name);
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
