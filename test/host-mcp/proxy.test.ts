/**
 * `agent-hooks mcp-proxy`: the built CLI between the SDK's real Client and a real stdio MCP
 * server (test/host-mcp/fixtures/server.mjs), with real command hooks. To keep the suite quick,
 * each describe shares one proxy session whose hooks give every case its own tool name (or
 * elicitation message); each session ends with a check that no process outlived it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { ACCOUNT, CLI, SERVER, hook, leakBook, logged } from './helpers.js';

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli/bin.cjs is missing: run `npm run build` first (npm test does)');
});

interface Session {
  client: Client;
  transport: StdioClientTransport;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  texts(r: CallToolResult): string[];
  serverCalls(): Promise<Array<{ tool: string; args: Record<string, unknown> }>>;
  prompts: ElicitRequest[];
  proc: { pid: number; child: number; env: string | null; cwd: string };
  stderr(): string;
  closed: Promise<void>;
}

async function startProxy(
  dir: TempDir,
  book: ReturnType<typeof leakBook>,
  opts: { hooks: Record<string, unknown>; onElicit?: (req: ElicitRequest) => ElicitResult; args?: string[] },
): Promise<Session> {
  const settings = dir.json('settings.json', { hooks: opts.hooks });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      CLI,
      'mcp-proxy',
      '--settings',
      settings,
      '--cwd',
      dir.root,
      '--name',
      'fx',
      ...(opts.args ?? []),
      '--',
      process.execPath,
      SERVER,
    ],
    env: { PATH: process.env.PATH ?? '', HOME: dir.root, FIXTURE_VAR: 'through-the-proxy' },
    cwd: dir.root,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client(
    { name: 'proxy-test', version: '1.0.0' },
    { capabilities: { roots: {}, ...(opts.onElicit ? { elicitation: { form: {}, url: {} } } : {}) } },
  );
  const prompts: ElicitRequest[] = [];
  if (opts.onElicit) {
    const answer = opts.onElicit;
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      prompts.push(req);
      return answer(req);
    });
  }
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
  const closed = new Promise<void>((resolve) => (client.onclose = resolve));
  await client.connect(transport);
  book.pids.add(transport.pid!);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const texts = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`));
  const serverCalls = async () => JSON.parse(texts(await call('calls'))[0]!) as Array<{ tool: string; args: Record<string, unknown> }>;
  // The server's pid (= its group) and a grandchild in that group: the leak check covers them.
  const proc = JSON.parse(texts(await call('proc'))[0]!) as Session['proc'];
  book.groups.add(proc.pid);
  book.pids.add(proc.child);
  return { client, transport, call, texts, serverCalls, prompts, proc, stderr: () => stderr, closed };
}

const pre = (out: unknown) => ({ stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', ...(out as object) } } });
const elicitation = (out: unknown) => ({ stdout: { hookSpecificOutput: { hookEventName: 'Elicitation', ...(out as object) } } });
const result = (out: unknown) => ({ stdout: { hookSpecificOutput: { hookEventName: 'ElicitationResult', ...(out as object) } } });
const answer = (r: CallToolResult) => JSON.parse((r.content[0] as { text: string }).text) as Record<string, unknown>;
const msg = (m: string) => `"message":"${m}"`;

describe('mcp-proxy with an elicitation-capable client', () => {
  const book = leakBook();
  let dir: TempDir;
  let s: Session;

  beforeAll(async () => {
    dir = tempDir('agent-hooks-mcp-proxy-');
    const tool = (name: string, handler: unknown) => ({ matcher: `mcp__fx__${name}`, hooks: [handler] });
    s = await startProxy(dir, book, {
      hooks: {
        PreToolUse: [
          { matcher: 'mcp__fx__.*', hooks: [hook(dir, 'pre-all')] },
          tool('echo_denied', hook(dir, 'deny', pre({ permissionDecision: 'deny', permissionDecisionReason: 'echo is off limits' }))),
          tool('echo_exit2', hook(dir, 'exit2', { stderr: 'blocked by policy', exit: 2 })),
          tool('echo_rewritten', hook(dir, 'rewrite', pre({ permissionDecision: 'allow', updatedInput: { text: 'rewritten', n: 2 } }))),
          tool('echo_invalid', hook(dir, 'invalid', pre({ updatedInput: { text: 5 } }))),
          tool('echo_replaced', hook(dir, 'ctx', pre({ additionalContext: 'context before' }))),
          tool(
            'echo_asked|mcp__fx__echo_permitted',
            hook(dir, 'ask', pre({ permissionDecision: 'ask', permissionDecisionReason: 'needs a human' })),
          ),
        ],
        PermissionRequest: [
          tool(
            'echo_permitted',
            hook(dir, 'perm', { stdout: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } } }),
          ),
        ],
        PostToolUse: [
          { matcher: 'mcp__fx__.*', hooks: [hook(dir, 'post-all')] },
          tool(
            'echo_replaced',
            hook(dir, 'replace', {
              stdout: {
                hookSpecificOutput: {
                  hookEventName: 'PostToolUse',
                  updatedMCPToolOutput: { content: [{ type: 'text', text: '[redacted]' }] },
                  additionalContext: 'context after',
                },
              },
            }),
          ),
          tool(
            'echo_string',
            hook(dir, 'string', {
              stdout: {
                decision: 'block',
                reason: 'check this',
                hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'short' },
              },
            }),
          ),
          tool(
            'log',
            hook(dir, 'bad-output', {
              stdout: { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: { content: 'not blocks' } } },
            }),
          ),
        ],
        PostToolUseFailure: [
          {
            matcher: 'mcp__fx__.*',
            hooks: [
              hook(dir, 'failure', {
                stdout: { hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'try again later' } },
              }),
            ],
          },
        ],
        Elicitation: [
          {
            matcher: 'fx',
            hooks: [
              hook(dir, 'elicitation', {
                cases: [
                  { when: msg('hook-answers'), ...elicitation({ action: 'accept', content: { username: 'ada', age: 36 } }) },
                  { when: msg('hook-invalid'), ...elicitation({ action: 'accept', content: { username: 'a', plan: 'gold' } }) },
                  { when: msg('hook-exit2'), stderr: 'no forms today', exit: 2 },
                  { when: msg('url-hook'), ...elicitation({ action: 'accept', content: { ignored: true } }) },
                ],
              }),
            ],
          },
        ],
        ElicitationResult: [
          {
            matcher: 'fx',
            hooks: [
              hook(dir, 'result', {
                cases: [
                  { when: '"username":"replace-me"', ...result({ action: 'accept', content: { username: 'replaced', plan: 'pro' } }) },
                  { when: '"username":"block-me"', exit: 2 },
                ],
              }),
            ],
          },
        ],
      },
      onElicit: (req): ElicitResult => {
        const m = req.params.message;
        if (m === 'user-answers') return { action: 'accept', content: { username: 'replace-me' } };
        if (m === 'user-invalid') return { action: 'accept', content: { username: 'ok', extra: 'leak' } };
        if (m === 'result-exit2') return { action: 'accept', content: { username: 'block-me' } };
        if (m === 'url-user') return { action: 'cancel' };
        if (m.startsWith('Allow mcp__fx__echo_asked?')) return { action: 'accept', content: {} };
        return { action: 'decline' };
      },
    });
  });

  afterAll(async () => {
    await s?.client.close();
    expect(await book.leftovers()).toEqual([]);
    dir?.cleanup();
  });

  it('passes initialize, tools, resources, prompts, ping, notifications and server→client requests through unchanged', async () => {
    const { client, call, texts, proc } = s;
    expect(client.getServerVersion()).toMatchObject({ name: 'host-mcp-fixture', version: '1.0.0' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {}, logging: {} });
    const tools = await client.listTools();
    expect(tools.tools.find((t) => t.name === 'echo')).toEqual({
      name: 'echo',
      description: 'echo the arguments',
      inputSchema: { type: 'object', properties: { text: { type: 'string' }, n: { type: 'integer' } }, required: ['text'] },
    });
    expect((await client.listResources()).resources).toEqual([{ uri: 'fixture://hello', name: 'hello', mimeType: 'text/plain' }]);
    expect((await client.readResource({ uri: 'fixture://hello' })).contents).toEqual([
      { uri: 'fixture://hello', mimeType: 'text/plain', text: 'hello resource' },
    ]);
    expect((await client.getPrompt({ name: 'greet', arguments: { name: 'ada' } })).messages[0]!.content).toEqual({
      type: 'text',
      text: 'hello ada',
    });
    await client.ping();
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    expect(texts(await call('log', { text: 'note from the server' }))).toEqual(['logged']);
    expect(logs).toEqual(['note from the server']);
    // A request of the server to the client, re-numbered by the proxy and back.
    expect(JSON.parse(texts(await call('roots'))[0]!)).toEqual({ roots: [{ uri: 'file:///work', name: 'work' }] });
    // The server is the client's: our environment and working directory, not the hooks' minimal env.
    expect(proc).toMatchObject({ env: 'through-the-proxy', cwd: dir.root });
  });

  it('PreToolUse sees mcp__<name>__<tool> with the common fields', () => {
    const first = logged(dir, 'pre-all')[0]!;
    expect(first).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'mcp__fx__proc',
      tool_input: {},
      cwd: dir.root,
      permission_mode: 'default',
      transcript_path: '',
    });
    expect(first.session_id).toMatch(/^mcp-proxy-/);
    expect(first.tool_use_id).toMatch(/^mcp-proxy-/);
  });

  it('a denied call never reaches the server: the client gets an error result with the reason', async () => {
    const r = await s.call('echo_denied', { text: 'secret' });
    expect([r.isError, s.texts(r)]).toEqual([true, ['echo is off limits']]);
    const r2 = await s.call('echo_exit2', { text: 'secret' });
    expect([r2.isError, s.texts(r2)]).toEqual([true, ['blocked by policy']]);
    const seen = (await s.serverCalls()).map((c) => c.tool);
    expect(seen).not.toContain('echo_denied');
    expect(seen).not.toContain('echo_exit2');
    expect(logged(dir, 'post-all').map((p) => p.tool_name)).not.toContain('mcp__fx__echo_denied');
  });

  it('a rewritten call reaches the server rewritten; a rewrite that breaks the tool schema is denied and never sent', async () => {
    await s.client.listTools(); // the proxy learns the input schemas it re-validates rewrites against
    expect(s.texts(await s.call('echo_rewritten', { text: 'original' }))).toEqual(['{"text":"rewritten","n":2}']);
    const bad = await s.call('echo_invalid', { text: 'original' });
    expect(bad.isError).toBe(true);
    expect(s.texts(bad)[0]).toMatch(/^a hook rewrote the input of mcp__fx__echo_invalid invalidly: .*text.*string/);
    const calls = await s.serverCalls();
    expect(calls.filter((c) => c.tool.startsWith('echo_'))).toEqual([{ tool: 'echo_rewritten', args: { text: 'rewritten', n: 2 } }]);
  });

  it('PostToolUse: updatedMCPToolOutput replaces the result; additionalContext of Pre and Post is appended as text', async () => {
    const r = await s.call('echo_replaced', { text: 'the secret' });
    expect(r.isError).toBeFalsy();
    expect(s.texts(r)).toEqual(['[redacted]', 'context before', 'context after']);
    const post = logged(dir, 'replace')[0]!;
    expect(post).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'mcp__fx__echo_replaced',
      tool_input: { text: 'the secret' },
      tool_response: { content: [{ type: 'text', text: '{"text":"the secret"}' }] },
    });
    expect(typeof post.duration_ms).toBe('number');
    expect(post.tool_use_id).toBe(logged(dir, 'ctx')[0]!.tool_use_id);
  });

  it('updatedMCPToolOutput as a string; a block reason is appended; a replacement that is not a tool result is ignored', async () => {
    expect(s.texts(await s.call('echo_string', { text: 'x' }))).toEqual(['short', 'check this']);
    expect(s.texts(await s.call('log', { text: 'y' }))).toEqual(['logged']);
    expect(s.stderr()).toMatch(/updatedMCPToolOutput ignored, it is not a tool result/);
  });

  it('PostToolUseFailure runs for error results (its context appended) and for protocol errors (forwarded unchanged)', async () => {
    const r = await s.call('fail', { message: 'disk full' });
    expect([r.isError, s.texts(r)]).toEqual([true, ['disk full', 'try again later']]);
    await expect(s.client.callTool({ name: 'boom', arguments: {} })).rejects.toThrow(/boom went the tool/);
    expect(logged(dir, 'failure').map((p) => [p.tool_name, p.error, p.is_interrupt])).toEqual([
      ['mcp__fx__fail', 'disk full', false],
      ['mcp__fx__boom', 'boom went the tool', false],
    ]);
    expect(logged(dir, 'post-all').map((p) => p.tool_name)).not.toContain('mcp__fx__fail');
  });

  it('ask: PermissionRequest may allow first; otherwise the user is asked through elicitation', async () => {
    expect(s.texts(await s.call('echo_permitted', { text: 'ok' }))).toEqual(['{"text":"ok"}']);
    expect(logged(dir, 'perm')[0]).toMatchObject({
      hook_event_name: 'PermissionRequest',
      tool_name: 'mcp__fx__echo_permitted',
      tool_input: { text: 'ok' },
    });
    expect(s.prompts.filter((p) => p.params.message.includes('echo_permitted'))).toEqual([]);

    expect(s.texts(await s.call('echo_asked', { text: 'asked' }))).toEqual(['{"text":"asked"}']);
    const asked = s.prompts.find((p) => p.params.message.startsWith('Allow mcp__fx__echo_asked?'))!;
    expect(asked.params.message).toBe('Allow mcp__fx__echo_asked?\nneeds a human\nInput: {"text":"asked"}');
  });

  it('elicitation: a hook answers before any UI; the server receives the validated content', async () => {
    const before = s.prompts.length;
    expect(answer(await s.call('ask', { message: 'hook-answers' }))).toEqual({ action: 'accept', content: { username: 'ada', age: 36 } });
    expect(s.prompts.length).toBe(before);
    const el = logged(dir, 'elicitation').find((p) => p.message === 'hook-answers')!;
    expect(el).toMatchObject({
      hook_event_name: 'Elicitation',
      mcp_server_name: 'fx',
      mode: 'form',
      requested_schema: ACCOUNT,
      cwd: dir.root,
    });
    expect(logged(dir, 'result').at(-1)).toMatchObject({
      hook_event_name: 'ElicitationResult',
      mcp_server_name: 'fx',
      action: 'accept',
      content: { username: 'ada', age: 36 },
    });
    expect(s.stderr()).toMatch(/elicitation: Elicitation → accept: a hook answered the request/);
  });

  it('elicitation round trip: the user answers, a result hook replaces the content, the server receives the replacement', async () => {
    expect(answer(await s.call('ask', { message: 'user-answers' }))).toEqual({
      action: 'accept',
      content: { username: 'replaced', plan: 'pro' },
    });
    const prompt = s.prompts.find((p) => p.params.message === 'user-answers')!;
    expect(prompt.params).toMatchObject({ requestedSchema: ACCOUNT });
    expect(logged(dir, 'result').at(-1)).toMatchObject({ action: 'accept', content: { username: 'replace-me' } });
  });

  it('an invalid hook answer is not sent: the server receives a decline, and the trace says why', async () => {
    expect(answer(await s.call('ask', { message: 'hook-invalid' }))).toEqual({ action: 'decline' });
    expect(s.prompts.some((p) => p.params.message === 'hook-invalid')).toBe(false);
    expect(s.stderr()).toMatch(
      /elicitation: validate → decline: the answer does not match the requested schema \(.*username.*plan.*\); declined, not sent/,
    );
  });

  it('an invalid user answer (a field the server did not ask for) is not sent either', async () => {
    expect(answer(await s.call('ask', { message: 'user-invalid' }))).toEqual({ action: 'decline' });
    expect(s.stderr()).toMatch(/(Unrecognized|unknown) key.*extra|extra.*Unrecognized/);
  });

  it('exit 2 on Elicitation declines without asking; exit 2 on ElicitationResult turns an accept into a decline', async () => {
    expect(answer(await s.call('ask', { message: 'hook-exit2' }))).toEqual({ action: 'decline' });
    expect(s.prompts.some((p) => p.params.message === 'hook-exit2')).toBe(false);
    expect(answer(await s.call('ask', { message: 'result-exit2' }))).toEqual({ action: 'decline' });
    expect(s.prompts.some((p) => p.params.message === 'result-exit2')).toBe(true);
  });

  it('url mode: hooks see url and elicitation id; an accept carries no content; undecided requests go to the user', async () => {
    expect(answer(await s.call('ask_url', { message: 'url-hook' }))).toEqual({ action: 'accept' });
    const el = logged(dir, 'elicitation').find((p) => p.message === 'url-hook')!;
    expect(el).toMatchObject({ mode: 'url', url: 'https://login.example.test/x', elicitation_id: 'el-1' });
    expect(el).not.toHaveProperty('requested_schema');
    expect(answer(await s.call('ask_url', { message: 'url-user' }))).toEqual({ action: 'cancel' });
    expect(s.prompts.find((p) => p.params.message === 'url-user')!.params).toMatchObject({ mode: 'url', elicitationId: 'el-1' });
  });

  it('a cancelled call is cancelled on the server too', async () => {
    const ac = new AbortController();
    const pending = s.client.callTool({ name: 'sleep', arguments: { ms: 30_000 } }, undefined, { signal: ac.signal });
    const until = async (tool: string) => {
      for (let i = 0; i < 300; i++) {
        if ((await s.serverCalls()).some((c) => c.tool === tool)) return true;
        await new Promise((r) => setTimeout(r, 20));
      }
      return false;
    };
    expect(await until('sleep')).toBe(true);
    ac.abort('enough');
    await expect(pending).rejects.toThrow();
    expect(await until('sleep:aborted')).toBe(true);
  });

  it('closing the client stops the proxy, the server and its whole process group', async () => {
    expect(book.pids).toContain(s.transport.pid);
    expect(book.groups).toContain(s.proc.pid);
    expect(book.pids).toContain(s.proc.child); // a grandchild in the server's group
    await s.client.close();
    expect(await book.leftovers()).toEqual([]);
  });
});

describe('mcp-proxy with a client that cannot elicit', () => {
  const book = leakBook();
  let dir: TempDir;
  let s: Session;

  beforeAll(async () => {
    dir = tempDir('agent-hooks-mcp-proxy-');
    s = await startProxy(dir, book, {
      hooks: {
        PreToolUse: [
          {
            matcher: 'mcp__fx__echo_asked',
            hooks: [hook(dir, 'ask', pre({ permissionDecision: 'ask', permissionDecisionReason: 'needs a human' }))],
          },
        ],
        Elicitation: [
          {
            matcher: 'fx',
            hooks: [
              hook(dir, 'elicitation', {
                cases: [{ when: msg('hook-answers'), ...elicitation({ action: 'accept', content: { username: 'hooked' } }) }],
              }),
            ],
          },
        ],
        PreCompact: [{ hooks: [hook(dir, 'unrelated')] }],
      },
    });
  });
  afterAll(async () => {
    await s?.client.close();
    expect(await book.leftovers()).toEqual([]);
    dir?.cleanup();
  });

  it('ask is denied: there is no one to ask', async () => {
    const r = await s.call('echo_asked', { text: 'x' });
    expect(r.isError).toBe(true);
    expect(s.texts(r)[0]).toBe(
      'a hook asked for confirmation (needs a human), and this MCP client cannot ask its user (it does not support elicitation): denied',
    );
    expect((await s.serverCalls()).map((c) => c.tool)).not.toContain('echo_asked');
  });

  it('Elicitation hooks still answer (the proxy announces form support); undecided requests are declined', async () => {
    expect(answer(await s.call('ask', { message: 'hook-answers' }))).toEqual({ action: 'accept', content: { username: 'hooked' } });
    expect(answer(await s.call('ask', { message: 'nobody-answers' }))).toEqual({ action: 'decline' });
    expect(s.stderr()).toMatch(/prompt → decline: no one to ask \(headless\): declined/);
  });

  it('when the server exits, the proxy exits too and takes the server group with it', async () => {
    await expect(s.call('crash', { code: 3 })).rejects.toThrow();
    await s.closed;
    expect(await book.leftovers()).toEqual([]);
    expect(s.stderr()).toMatch(/the server exited with code 3/);
  });
});

describe('mcp-proxy: modes and start-up errors', () => {
  it('plan mode fires PreToolUse and PostToolUse (as Claude Code does)', async () => {
    const book = leakBook();
    const dir = tempDir('agent-hooks-mcp-proxy-');
    try {
      const s = await startProxy(dir, book, {
        args: ['--permission-mode', 'plan'],
        hooks: {
          PreToolUse: [{ matcher: 'mcp__fx__echo_denied', hooks: [hook(dir, 'deny', pre({ permissionDecision: 'deny' }))] }],
          PostToolUse: [{ matcher: 'mcp__fx__.*', hooks: [hook(dir, 'post')] }],
        },
      });
      const r = await s.call('echo_denied', { text: 'x' });
      expect(r.isError).toBe(true);
      expect(logged(dir, 'deny')).toHaveLength(1);
      const before = logged(dir, 'post').length;
      expect((await s.call('echo', { text: 'y' })).isError).toBeFalsy();
      expect(logged(dir, 'post')).toHaveLength(before + 1);
      await s.client.close();
      expect(await book.leftovers()).toEqual([]);
    } finally {
      dir.cleanup();
    }
  });

  it('piped requests followed by EOF are all answered, hooks included, as a direct server would', () => {
    const dir = tempDir('agent-hooks-mcp-proxy-');
    try {
      const settings = dir.json('s.json', {
        hooks: {
          PreToolUse: [
            {
              matcher: 'mcp__fx__echo_denied',
              hooks: [hook(dir, 'deny', pre({ permissionDecision: 'deny', permissionDecisionReason: 'no' }))],
            },
          ],
        },
      });
      const lines = [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo_denied', arguments: { text: 'hi' } } },
      ];
      // EOF arrives while the server may still be starting and the deny hook still running: with the
      // drain bounds far above the spawnSync guard, the proxy waits for those events (hook done,
      // server exited), not for a time slot, so a loaded machine cannot drop an answer.
      const r = spawnSync(
        process.execPath,
        [CLI, 'mcp-proxy', '--settings', settings, '--name', 'fx', '--drain-ms', '600000', '--', process.execPath, SERVER],
        {
          input: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect(r.error).toBeUndefined();
      expect(r.status).toBe(0);
      const out = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: number; result: CallToolResult });
      expect(out.map((m) => m.id).sort()).toEqual([1, 2, 3]);
      expect(out.find((m) => m.id === 2)!.result.content).toEqual([{ type: 'text', text: '{"text":"hi"}' }]);
      expect(out.find((m) => m.id === 3)!.result).toEqual({ content: [{ type: 'text', text: 'no' }], isError: true });
    } finally {
      dir.cleanup();
    }
  }, 90_000);

  it('SIGTERM stops the proxy and the server group', async () => {
    const book = leakBook();
    const dir = tempDir('agent-hooks-mcp-proxy-');
    try {
      const s = await startProxy(dir, book, { hooks: {} });
      process.kill(s.transport.pid!, 'SIGTERM');
      await s.closed;
      expect(await book.leftovers()).toEqual([]);
    } finally {
      dir.cleanup();
    }
  });

  it('a server that cannot start: exit 1 with a message; invalid settings: exit 1 with a path-qualified error', () => {
    const dir = tempDir('agent-hooks-mcp-proxy-');
    try {
      const ok = dir.json('ok.json', { hooks: {} });
      const r = spawnSync(process.execPath, [CLI, 'mcp-proxy', '--settings', ok, '--', '/nonexistent/server-binary'], {
        input: '',
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('could not start the server (/nonexistent/server-binary): command "/nonexistent/server-binary" not found');
      const bad = dir.json('bad.json', { hooks: { PreToolUse: [{ matcher: 'x', hooks: [{ type: 'command' }] }] } });
      const r2 = spawnSync(process.execPath, [CLI, 'mcp-proxy', '--settings', bad, '--', process.execPath, SERVER], {
        input: '',
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(r2.status).toBe(1);
      expect(r2.stderr).toMatch(/hooks\.PreToolUse\[0\]\.hooks\[0\]/);
      const r3 = spawnSync(process.execPath, [CLI, 'mcp-proxy', '--settings', ok], { input: '', encoding: 'utf8', timeout: 20_000 });
      expect(r3.status).toBe(1);
    } finally {
      dir.cleanup();
    }
  });
});
