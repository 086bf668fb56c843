/**
 * The proxy's relay at the JSON-RPC level, in process: hand-written messages on both sides
 * (in-memory transports), in-process function hooks. Covers what the end-to-end tests cannot
 * provoke with a well-behaved SDK client or server: id re-numbering, cancellation translation,
 * malformed calls, capability adjustments.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createHookEngine, type HookEngine } from '../../src/engine/engine.js';
import { createMcpProxy } from '../../src/host/mcp/index.js';

type Msg = Record<string, unknown>;

/** One end of a wire: what arrived, and a way to wait for the next message that matches. */
function end(t: InMemoryTransport) {
  const got: Msg[] = [];
  const waiters: Array<{ match: (m: Msg) => boolean; resolve: (m: Msg) => void }> = [];
  t.onmessage = (m) => {
    const msg = m as unknown as Msg;
    const i = waiters.findIndex((w) => w.match(msg));
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(msg);
    else got.push(msg);
  };
  return {
    got,
    send: (m: Msg) => t.send({ jsonrpc: '2.0', ...m } as JSONRPCMessage),
    next(match: (m: Msg) => boolean = () => true): Promise<Msg> {
      const i = got.findIndex(match);
      if (i >= 0) return Promise.resolve(got.splice(i, 1)[0]!);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

async function setup(engine?: HookEngine, opts: { advertiseElicitation?: boolean } = {}) {
  const [clientSide, proxyClientSide] = InMemoryTransport.createLinkedPair();
  const [proxyServerSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = end(clientSide);
  const server = end(serverSide);
  const logs: string[] = [];
  const proxy = createMcpProxy({
    name: 'srv',
    hooks: engine,
    client: proxyClientSide,
    server: proxyServerSide,
    hookInput: () => ({ session_id: 'relay', cwd: '/tmp', transcript_path: '' }),
    onLog: (l) => logs.push(l),
    ...opts,
  });
  await proxy.start();
  return { client, server, proxy, logs, serverSide, clientSide };
}

const byId = (id: unknown) => (m: Msg) => m.id === id;
const byMethod = (method: string) => (m: Msg) => m.method === method;

describe('relay', () => {
  it('server→client requests get the proxy’s ids and their answers go back under the server’s; cancellations are translated', async () => {
    const { client, server, proxy } = await setup(createHookEngine());
    await server.send({ id: 7, method: 'roots/list' });
    const fwd = await client.next(byMethod('roots/list'));
    expect(fwd.id).toMatch(/^agent-hooks-\d+$/);
    await client.send({ id: fwd.id, result: { roots: [] } });
    expect(await server.next(byId(7))).toEqual({ jsonrpc: '2.0', id: 7, result: { roots: [] } });

    await server.send({ id: 8, method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } });
    const fwd2 = await client.next(byMethod('sampling/createMessage'));
    await server.send({ method: 'notifications/cancelled', params: { requestId: 8, reason: 'timeout' } });
    expect(await client.next(byMethod('notifications/cancelled'))).toMatchObject({ params: { requestId: fwd2.id, reason: 'timeout' } });
    await proxy.close();
  });

  it('client requests and notifications pass with their ids untouched', async () => {
    const { client, server, proxy } = await setup(createHookEngine());
    await client.send({ id: 'c-1', method: 'resources/list', params: { _meta: { progressToken: 3 } } });
    expect(await server.next(byId('c-1'))).toEqual({
      jsonrpc: '2.0',
      id: 'c-1',
      method: 'resources/list',
      params: { _meta: { progressToken: 3 } },
    });
    await server.send({ method: 'notifications/progress', params: { progressToken: 3, progress: 1 } });
    expect(await client.next(byMethod('notifications/progress'))).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 3, progress: 1 },
    });
    await server.send({ id: 'c-1', result: { resources: [] } });
    expect(await client.next(byId('c-1'))).toEqual({ jsonrpc: '2.0', id: 'c-1', result: { resources: [] } });
    await proxy.close();
  });

  it('initialize: elicitation is announced when asked to, task-augmented tools/elicitation are removed; a client’s own elicitation support passes', async () => {
    const { client, server, proxy } = await setup(createHookEngine(), { advertiseElicitation: true });
    await client.send({
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        clientInfo: { name: 'c', version: '1' },
        capabilities: { tasks: { requests: { elicitation: { create: {} }, sampling: {} } } },
      },
    });
    const init = await server.next(byId(0));
    expect((init.params as Msg).capabilities).toEqual({ tasks: { requests: { sampling: {} } }, elicitation: { form: {} } });
    await server.send({
      id: 0,
      result: {
        protocolVersion: '2025-11-25',
        serverInfo: { name: 's', version: '1' },
        capabilities: { tools: {}, tasks: { list: {}, requests: { tools: { call: {} } } } },
      },
    });
    expect(((await client.next(byId(0))).result as Msg).capabilities).toEqual({ tools: {}, tasks: { list: {}, requests: {} } });
    await proxy.close();

    const b = await setup(createHookEngine(), { advertiseElicitation: true });
    await b.client.send({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', clientInfo: { name: 'c', version: '1' }, capabilities: { elicitation: { url: {} } } },
    });
    expect(((await b.server.next(byId(0))).params as Msg).capabilities).toEqual({ elicitation: { url: {} } });
    await b.proxy.close();
  });

  it('a tools/call the hooks cannot read never reaches the server; one sent as a notification is dropped', async () => {
    const { client, server, proxy, logs } = await setup(createHookEngine());
    await client.send({ id: 1, method: 'tools/call', params: { name: 'x', arguments: ['not', 'an', 'object'] } });
    expect(await client.next(byId(1))).toMatchObject({ error: { code: -32602 } });
    await client.send({ id: 2, method: 'tools/call', params: { arguments: {} } });
    expect(await client.next(byId(2))).toMatchObject({ error: { code: -32602 } });
    await client.send({ method: 'tools/call', params: { name: 'x', arguments: {} } });
    await client.send({ id: 3, method: 'ping' });
    expect(await server.next()).toEqual({ jsonrpc: '2.0', id: 3, method: 'ping' }); // nothing else came first
    expect(logs.join('\n')).toMatch(/dropped a tools\/call sent as a notification/);
    await proxy.close();
  });

  it('a call cancelled while its PreToolUse hooks run is never sent, and gets no response', async () => {
    const engine = createHookEngine();
    let release!: () => void;
    const started = new Promise<void>((r) =>
      engine.register({
        event: 'PreToolUse',
        fn: (_i, ctx) =>
          new Promise<undefined>((resolve) => {
            r();
            release = () => resolve(undefined);
            ctx.signal.addEventListener('abort', () => resolve(undefined));
          }),
      }),
    );
    const { client, server, proxy } = await setup(engine);
    await client.send({ id: 5, method: 'tools/call', params: { name: 'slow', arguments: {} } });
    await started;
    await client.send({ method: 'notifications/cancelled', params: { requestId: 5 } });
    release();
    await client.send({ id: 6, method: 'ping' });
    expect(await server.next()).toEqual({ jsonrpc: '2.0', id: 6, method: 'ping' });
    await new Promise((r) => setTimeout(r, 20));
    expect(client.got.filter((m) => m.id === 5)).toEqual([]);
    await proxy.close();
  });

  it('an elicitation cancelled by the server cancels the prompt forwarded to the client, and gets no answer', async () => {
    const { client, server, proxy } = await setup(createHookEngine());
    await client.send({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', clientInfo: { name: 'c', version: '1' }, capabilities: { elicitation: {} } },
    });
    await server.next(byId(0));
    await server.send({
      id: 40,
      method: 'elicitation/create',
      params: { message: 'name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } },
    });
    const fwd = await client.next(byMethod('elicitation/create'));
    expect(fwd.params).toEqual({ message: 'name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } });
    await server.send({ method: 'notifications/cancelled', params: { requestId: 40 } });
    expect(await client.next(byMethod('notifications/cancelled'))).toMatchObject({ params: { requestId: fwd.id } });
    await client.send({ id: fwd.id, result: { action: 'accept', content: { n: 'late' } } });
    await new Promise((r) => setTimeout(r, 20));
    expect(server.got.filter((m) => m.id === 40)).toEqual([]);
    await proxy.close();
  });

  it('an invalid elicitation request is refused as the SDK client would', async () => {
    const { server, proxy } = await setup(createHookEngine());
    await server.send({
      id: 41,
      method: 'elicitation/create',
      params: { message: 'x', requestedSchema: { type: 'object', properties: { a: { type: 'object' } } } },
    });
    expect(await server.next(byId(41))).toMatchObject({
      error: { code: -32602, message: expect.stringMatching(/^Invalid elicitation request/) },
    });
    await proxy.close();
  });

  it('either side closing shuts the proxy down and says who', async () => {
    const a = await setup(createHookEngine());
    await a.serverSide.close();
    expect(await a.proxy.done).toEqual({ by: 'server' });
    const b = await setup(createHookEngine());
    await b.clientSide.close();
    expect(await b.proxy.done).toEqual({ by: 'client' });
    const c = await setup(createHookEngine());
    await c.proxy.close();
    await c.proxy.close(); // idempotent
    expect(await c.proxy.done).toEqual({ by: 'close' });
  });
});
