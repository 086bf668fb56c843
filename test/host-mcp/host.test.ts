/**
 * createMcpHost and mcpProvider against the real stdio fixture server: tools as
 * `mcp__server__tool`, elicitation through hooks and the prompter, session env and cwd, the
 * clients shared with mcp_tool hooks, the runtime's McpProvider slot end to end, and no process
 * left behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookEngine, type HookEngine } from '../../src/engine/engine.js';
import { createMcpClientManager } from '../../src/mcp/index.js';
import { createMcpHost, mcpProvider, McpToolError, mcpToolName, type ElicitationOutcome, type McpHost } from '../../src/host/mcp/index.js';
import { scriptedModel, type ElicitationRequest as UiRequest } from '../../src/host/index.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { hostSandbox } from '../host/helpers.js';
import { ACCOUNT, SERVER, leakBook } from './helpers.js';

const fixture = (extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [SERVER], ...extra });
const text = (r: { content: Array<{ type: string; text?: string }> }) => r.content.map((c) => c.text).join('');
const out = (event: string, o: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: event, ...o } });

describe('createMcpHost', () => {
  const book = leakBook();
  let dir: TempDir;
  let engine: HookEngine;
  let host: McpHost;
  const outcomes: ElicitationOutcome[] = [];
  const asked: string[] = [];
  const warnings: string[] = [];

  beforeAll(async () => {
    dir = tempDir('agent-hooks-mcp-host-');
    engine = createHookEngine({ projectDir: dir.root });
    engine.register({
      event: 'Elicitation',
      matcher: 'fx',
      fn: (i) => (i.message === 'hook-answers' ? out('Elicitation', { action: 'accept', content: { username: 'hooked' } }) : undefined),
    });
    engine.register({
      event: 'ElicitationResult',
      matcher: 'fx',
      fn: (i) =>
        (i.content as Record<string, unknown> | undefined)?.username === 'replace-me'
          ? out('ElicitationResult', { content: { username: 'replaced', age: 7 } })
          : undefined,
    });
    host = createMcpHost({
      servers: {
        fx: fixture({ env: { FIXTURE_VAR: 'from-config' } }),
        'my.server': fixture(),
        broken: { command: '/nonexistent/mcp-server' },
      },
      engine,
      env: { SESSION_VAR: 'frozen-at-start' },
      projectDir: dir.root,
      hookInput: () => ({ session_id: 'host-s1', cwd: dir.root, permission_mode: 'default' }),
      prompter: async (req) => {
        asked.push(req.message);
        if (req.message === 'user-answers') return { action: 'accept', content: { username: 'replace-me' } };
        if (req.message === 'user-invalid') return { action: 'accept', content: { username: 'x' } };
        return { action: 'decline' };
      },
      onElicitation: (_s, _r, o) => outcomes.push(o),
      onWarning: (m) => warnings.push(m),
    });
    const report = await host.connect();
    expect(
      report
        .filter((r) => r.ok)
        .map((r) => r.server)
        .sort(),
    ).toEqual(['fx', 'my.server']);
    expect(report.find((r) => r.server === 'broken')!.error).toMatch(
      /MCP server "broken" could not be started \(\/nonexistent\/mcp-server\)/,
    );
    for (const s of host.status()) if (s.pid) book.groups.add(s.pid);
  });

  afterAll(async () => {
    await host?.close();
    await engine?.close();
    expect(await book.leftovers()).toEqual([]);
    dir?.cleanup();
  });

  it('offers every tool as mcp__<server>__<tool> with its schema; names are normalized; a failed server offers none', () => {
    const names = host.tools().map((t) => t.name);
    expect(names).toContain('mcp__fx__echo');
    expect(names).toContain('mcp__my_server__echo');
    expect(names.some((n) => n.startsWith('mcp__broken__'))).toBe(false);
    expect(host.tool('mcp__fx__echo')).toMatchObject({
      server: 'fx',
      tool: 'echo',
      description: 'echo the arguments',
      inputSchema: { type: 'object', properties: { text: { type: 'string' }, n: { type: 'integer' } }, required: ['text'] },
    });
    expect(mcpToolName('brave search', 'web.find')).toBe('mcp__brave_search__web_find');
    expect(host.status().find((s) => s.server === 'broken')).toMatchObject({ state: 'failed', tools: 0 });
  });

  it('runs tools; an error result rejects with McpToolError carrying the result', async () => {
    expect(text(await host.tool('mcp__fx__echo')!.run({ text: 'hi' }))).toBe('{"text":"hi"}');
    const err = await host
      .tool('mcp__fx__fail')!
      .run({ message: 'disk full' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpToolError);
    expect(err).toMatchObject({ failure: 'tool-error', message: 'disk full', result: { isError: true } });
    const boom = await host
      .tool('mcp__fx__boom')!
      .run({})
      .catch((e: unknown) => e);
    expect(boom).toMatchObject({ failure: 'failed', message: 'mcp__fx__boom failed: boom went the tool' });
    const ac = new AbortController();
    const pending = host.tool('mcp__fx__sleep')!.run({ ms: 30_000 }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await expect(pending).rejects.toMatchObject({ failure: 'aborted' });
  });

  it('servers get the minimal env, the session env, their own env and the project dir; their grandchildren are tracked', async () => {
    const proc = JSON.parse(text(await host.tool('mcp__fx__proc')!.run({}))) as {
      pid: number;
      child: number;
      env: string;
      session: string;
      cwd: string;
    };
    expect(proc).toMatchObject({ env: 'from-config', session: 'frozen-at-start', cwd: dir.root });
    book.groups.add(proc.pid);
    book.pids.add(proc.child);
  });

  it('elicitation: a hook answers, the user answers (a result hook replaces), an invalid answer is declined', async () => {
    const ask = host.tool('mcp__fx__ask')!;
    expect(JSON.parse(text(await ask.run({ message: 'hook-answers' })))).toEqual({ action: 'accept', content: { username: 'hooked' } });
    expect(asked).toEqual([]);
    expect(JSON.parse(text(await ask.run({ message: 'user-answers' })))).toEqual({
      action: 'accept',
      content: { username: 'replaced', age: 7 },
    });
    expect(asked).toEqual(['user-answers']);
    expect(JSON.parse(text(await ask.run({ message: 'user-invalid' })))).toEqual({ action: 'decline' });
    expect(outcomes.map((o) => o.decidedBy)).toEqual(['hook', 'result-hook', 'validation']);
    expect(warnings.some((w) => /elicitation decline: the answer does not match the requested schema/.test(w))).toBe(true);
    // host.elicit is the same path, callable directly.
    const direct = await host.elicit({ server: 'fx', message: 'hook-answers', requestedSchema: ACCOUNT });
    expect(direct).toMatchObject({ action: 'accept', content: { username: 'hooked' } });
  });

  it('the connected clients serve mcp_tool hooks: same server process', async () => {
    const manager = createMcpClientManager({ clients: host.clients() });
    const r = await manager.callTool('fx', 'proc', {}, { timeoutMs: 10_000 });
    if (!r.ok) throw new Error(r.message);
    const viaManager = JSON.parse(text(r.result)) as { pid: number; child: number };
    book.pids.add(viaManager.child);
    expect(viaManager.pid).toBe(host.status().find((s) => s.server === 'fx')!.pid);
    await manager.close(); // host clients stay open
    expect(text(await host.tool('mcp__fx__echo')!.run({ text: 'still' }))).toBe('{"text":"still"}');
  });

  it('close() stops every server with its group; tools then fail as not connected', async () => {
    await host.close();
    expect(await book.leftovers()).toEqual([]);
    await expect(
      host.tool('mcp__fx__echo')?.run({ text: 'late' }) ?? Promise.reject(new McpToolError('gone', 'not-connected')),
    ).rejects.toMatchObject({
      failure: 'not-connected',
    });
  });
});

describe('mcpProvider in the host runtime', () => {
  const book = leakBook();
  const sb = hostSandbox();
  afterAll(async () => {
    await sb.cleanup();
    expect(await book.leftovers()).toEqual([]);
  });

  it('MCP tools go through the runtime pipeline (PreToolUse rewrite, PostToolUse output); elicitations through hooks and the runtime UI', async () => {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const log = sb.dir.path('mcp-hooks.jsonl');
    const logHook = (response?: unknown) => {
      const parts = [`input=$(cat); printf '%s\\n' "$input" >> ${q(log)}`];
      if (response) parts.push(`cat ${q(sb.dir.json(`r${Math.random().toString(36).slice(2)}.json`, response))}`);
      return { type: 'command', command: parts.join('; ') };
    };
    sb.settings({
      PreToolUse: [
        {
          matcher: 'mcp__fx__echo',
          hooks: [logHook(out('PreToolUse', { permissionDecision: 'allow', updatedInput: { text: 'rewritten' } }))],
        },
      ],
      PostToolUse: [{ matcher: 'mcp__fx__.*', hooks: [logHook()] }],
      Elicitation: [{ matcher: 'fx', hooks: [logHook()] }],
      ElicitationResult: [{ matcher: 'fx', hooks: [logHook(out('ElicitationResult', { content: { username: 'from-result-hook' } }))] }],
      Notification: [{ matcher: 'elicitation_dialog', hooks: [logHook()] }],
    });
    const ui: UiRequest[] = [];
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'mcp__fx__echo', input: { text: 'original' } }] },
      { toolCalls: [{ id: 'c2', name: 'mcp__fx__ask', input: { message: 'sign up' } }] },
      { toolCalls: [{ id: 'c3', name: 'mcp__fx__proc', input: {} }] },
      { text: 'done' },
    ]);
    const s = await sb.session({
      model,
      env: { SESSION_VAR: 'frozen' },
      permissions: { allow: ['mcp__fx__ask', 'mcp__fx__proc'] },
      prompter: {
        elicit: async (req) => {
          ui.push(req);
          return { action: 'accept', content: { username: 'typed' } };
        },
      },
      mcp: mcpProvider({ servers: { fx: fixture() } }),
    });
    expect(s.tools.has('mcp__fx__echo')).toBe(true);
    await s.submit('go');
    const toolMessages = s.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolMessages[0]).toBe('{"text":"rewritten"}');
    expect(JSON.parse(toolMessages[1]!)).toEqual({ action: 'accept', content: { username: 'from-result-hook' } });
    const proc = JSON.parse(toolMessages[2]!) as { pid: number; child: number; session: string; cwd: string };
    book.groups.add(proc.pid);
    book.pids.add(proc.child);
    expect(proc).toMatchObject({ session: 'frozen', cwd: s.workspace });
    expect(ui).toEqual([expect.objectContaining({ serverName: 'fx', message: 'sign up', mode: 'form', requestedSchema: ACCOUNT })]);

    const { readFileSync } = await import('node:fs');
    const entries = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => `${e.hook_event_name}${e.tool_name ? `:${e.tool_name}` : ''}`)).toEqual([
      'PreToolUse:mcp__fx__echo',
      'PostToolUse:mcp__fx__echo',
      'Elicitation',
      'Notification',
      'ElicitationResult',
      'PostToolUse:mcp__fx__ask',
      'PostToolUse:mcp__fx__proc',
    ]);
    expect(entries[2]).toMatchObject({ session_id: s.id, mcp_server_name: 'fx', cwd: s.workspace, permission_mode: 'default' });
    expect(entries[3]).toMatchObject({ notification_type: 'elicitation_dialog' });
    await s.end();
    expect(await book.leftovers()).toEqual([]);
  });
});
