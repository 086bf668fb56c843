/** The OpenAI-compatible model against a fake chat-completions server on 127.0.0.1, driving a real session. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelError, openAIChatModel } from '../../src/host/index.js';
import { hook, hostSandbox, type HostSandbox } from './helpers.js';

let server: Server;
let base: string;
let bodies: Array<Record<string, unknown>>;
let headers: IncomingMessage['headers'][];
let answers: Array<{ status?: number; body: unknown }>;
let sb: HostSandbox;

beforeEach(async () => {
  bodies = [];
  headers = [];
  answers = [];
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      bodies.push(JSON.parse(data));
      headers.push(req.headers);
      const a = answers.shift() ?? { status: 500, body: { error: 'no answer scripted' } };
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  sb = hostSandbox();
});
afterEach(async () => {
  await sb.cleanup();
  await new Promise((r) => server.close(r));
});

const reply = (message: Record<string, unknown>, finish = 'stop') => ({ body: { choices: [{ finish_reason: finish, message }] } });

describe('openAIChatModel', () => {
  it('drives a session: function tools from zod schemas, tool calls out, tool results back', async () => {
    sb.settings({ PostToolUse: [{ hooks: [hook(sb.log)] }] });
    answers.push(
      reply(
        {
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'Bash', arguments: '{"command":"echo from-model"}' } }],
        },
        'tool_calls',
      ),
      reply({ content: 'all done' }),
    );
    const s = await sb.session({ model: openAIChatModel({ baseUrl: base, model: 'test-model', apiKey: 'sk-test' }), mode: 'yolo' });
    const r = await s.submit('run it');
    expect(r).toMatchObject({ status: 'completed', finalText: 'all done' });
    expect(headers[0]!.authorization).toBe('Bearer sk-test');
    const first = bodies[0] as {
      model: string;
      tools: Array<{ function: { name: string; parameters: { properties: Record<string, unknown> } } }>;
    };
    expect(first.model).toBe('test-model');
    const bashSpec = first.tools.find((t) => t.function.name === 'Bash')!;
    expect(Object.keys(bashSpec.function.parameters.properties)).toContain('command');
    const second = bodies[1] as { messages: Array<Record<string, unknown>> };
    expect(second.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'Bash', arguments: '{"command":"echo from-model"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'from-model\n' },
    ]);
    expect(sb.entries()[0]).toMatchObject({ hook_event_name: 'PostToolUse', tool_use_id: 'call_1' });
  });

  it('maps HTTP errors to StopFailure error types, and StopFailure fires', async () => {
    sb.settings({ StopFailure: [{ hooks: [hook(sb.log)] }] });
    answers.push({ status: 429, body: { error: { message: 'slow down' } } });
    const s = await sb.session({ model: openAIChatModel({ baseUrl: base, model: 'm' }) });
    const r = await s.submit('hi');
    expect(r).toMatchObject({ status: 'failed', error: 'rate_limit' });
    expect(sb.entries()[0]).toMatchObject({ hook_event_name: 'StopFailure', error: 'rate_limit' });
    expect(String(sb.entries()[0]!.error_details)).toContain('slow down');
  });

  it('a body that is not a chat completion, or a refused connection, is a ModelError', async () => {
    answers.push({ body: { nope: true } });
    const m = openAIChatModel({ baseUrl: base, model: 'm' });
    const req = { messages: [{ role: 'user' as const, content: 'x' }], tools: [], signal: new AbortController().signal };
    await expect(m.complete(req)).rejects.toBeInstanceOf(ModelError);
    await new Promise((r) => server.close(r));
    await expect(m.complete(req)).rejects.toThrow(/unreachable/);
    server.listen(0, '127.0.0.1'); // let afterEach close something
  });
});
