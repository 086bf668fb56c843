/** mcp_tool hooks through the real engine, against the real fixture MCP server over stdio. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createHookEngine, type HookEngine, type HookEngineOptions } from '../../src/engine/engine.js';
import { lintHooks } from '../../src/lint/hooks.js';
import { createMcpClientManager, type McpClientManager } from '../../src/mcp/index.js';
import { isPidLive, liveGroupMembers, waitUntil } from '../backends/helpers.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { fixtureServer, pidBook } from './helpers.js';

const book = pidBook();
let dir: TempDir;
let engines: HookEngine[] = [];
/** One server for the tests that do not watch its lifecycle (keeps the suite fast). */
let shared: McpClientManager;
const serverOptions = { servers: { fx: fixtureServer() }, shutdownGraceMs: 200, killGraceMs: 200 };

beforeAll(() => {
  shared = createMcpClientManager({ projectDir: process.cwd(), ...serverOptions });
});

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await Promise.all(engines.map((e) => e.close()));
  engines = [];
  dir.cleanup();
});
afterAll(async () => {
  await shared.close();
  expect(await book.leftovers()).toEqual([]);
});

const mcpHook = (tool: string, input?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'mcp_tool',
  server: 'fx',
  tool,
  ...(input ? { input } : {}),
  ...extra,
});

async function loadHooks(hooks: Record<string, unknown>) {
  const file = dir.json('settings.json', { hooks });
  const config = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [file] });
  expect(config.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
  return config.hooks;
}

async function engineFor(hooks: Record<string, unknown>, opts: Partial<HookEngineOptions> = {}) {
  const engine = createHookEngine({
    hooks: await loadHooks(hooks),
    projectDir: dir.root,
    cwd: dir.root,
    mcp: shared,
    ...opts,
  });
  engines.push(engine);
  return engine;
}

const pre = (hooks: unknown[], matcher = 'Write') => ({ PreToolUse: [{ matcher, hooks }] });
const write = (input: Record<string, unknown> = { file_path: '/tmp/a.txt', content: 'x' }) => ({
  tool_name: 'Write',
  tool_input: input,
  tool_use_id: 'toolu_1',
});
const decisionJson = (hookSpecificOutput: Record<string, unknown>) => ({
  value: { hookSpecificOutput: { hookEventName: 'PreToolUse', ...hookSpecificOutput } },
});

/** The fixture's info tool reports its pid in a systemMessage. */
async function serverPid(engine: HookEngine): Promise<number> {
  const d = await engine.run('UserPromptSubmit', { prompt: 'pid?' });
  const pid = JSON.parse(d.systemMessages[0]!).pid as number;
  book.groups.add(pid);
  return pid;
}

describe('mcp_tool decisions', () => {
  it('allow: the tool text is read like command stdout', async () => {
    const engine = await engineFor(
      pre([mcpHook('json', decisionJson({ permissionDecision: 'allow', permissionDecisionReason: 'scanned' }))]),
    );
    const d = await engine.run('PreToolUse', write());
    expect(d).toMatchObject({ blocked: false, decision: 'allow', reason: 'scanned' });
    expect(d.hooks[0]).toMatchObject({ type: 'mcp_tool', outcome: 'success', exitCode: 0, decision: 'allow' });
  });

  it('deny blocks the tool call with the reason', async () => {
    const engine = await engineFor(
      pre([mcpHook('json', decisionJson({ permissionDecision: 'deny', permissionDecisionReason: 'secret in file' }))]),
    );
    const d = await engine.run('PreToolUse', write());
    expect(d).toMatchObject({ blocked: true, decision: 'deny', reason: 'secret in file' });
  });

  it('context: plain text on UserPromptSubmit and JSON additionalContext on PostToolUse', async () => {
    const engine = await engineFor({
      UserPromptSubmit: [{ hooks: [mcpHook('text', { text: 'remember the style guide' })] }],
      PostToolUse: [
        {
          matcher: 'Write',
          hooks: [mcpHook('json', { value: { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'scan clean' } } })],
        },
      ],
    });
    const u = await engine.run('UserPromptSubmit', { prompt: 'hi' });
    expect(u.additionalContext).toEqual(['remember the style guide']);
    const p = await engine.run('PostToolUse', { ...write(), tool_response: { success: true } });
    expect(p.additionalContext).toEqual(['scan clean']);
  });

  it('Elicitation: an MCP tool answers the form; a failing one under failureBehavior deny declines', async () => {
    const answer = { value: { hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { username: 'alice' } } } };
    const engine = await engineFor({
      Elicitation: [
        { matcher: 'login-server', hooks: [mcpHook('json', answer)] },
        { matcher: 'strict-server', hooks: [mcpHook('fail', {}, { failureBehavior: 'deny' })] },
      ],
    });
    const form = {
      message: 'Please log in',
      mode: 'form',
      requested_schema: { type: 'object', properties: { username: { type: 'string' } } },
    };
    const ok = await engine.run('Elicitation', { ...form, mcp_server_name: 'login-server' });
    expect(ok.eventOutput).toMatchObject({ action: 'accept', content: { username: 'alice' } });
    const strict = await engine.run('Elicitation', { ...form, mcp_server_name: 'strict-server' });
    expect(strict.blocked).toBe(true);
    expect(strict.eventOutput.action).toBe('decline');
  });

  it('text blocks are joined with newlines; structuredContent stands in when there is no text', async () => {
    const engine = await engineFor({
      UserPromptSubmit: [{ hooks: [mcpHook('texts', { parts: ['line one', 'line two'] })] }],
      PostToolUse: [{ matcher: 'Write', hooks: [mcpHook('structured', { value: { systemMessage: 'from structured content' } })] }],
    });
    expect((await engine.run('UserPromptSubmit', { prompt: 'x' })).additionalContext).toEqual(['line one\nline two']);
    expect((await engine.run('PostToolUse', { ...write(), tool_response: {} })).systemMessages).toEqual(['from structured content']);
  });

  it('output beyond outputLimitBytes is cut and flagged', async () => {
    const engine = await engineFor({ UserPromptSubmit: [{ hooks: [mcpHook('big', { bytes: 5000 })] }] }, { outputLimitBytes: 1000 });
    const d = await engine.run('UserPromptSubmit', { prompt: 'x' });
    expect(d.additionalContext[0]).toBe('x'.repeat(1000));
    expect(d.hooks[0]!.stdoutTruncated).toBe(true);
  });
});

describe('mcp_tool failures', () => {
  it.each([
    ['ignore', { blocked: false }, undefined],
    ['ask', { blocked: false, decision: 'ask' }, 'ask'],
    ['deny', { blocked: true, decision: 'deny' }, 'deny'],
  ] as const)('isError: true is a non-blocking error; failureBehavior %s applies', async (policy, expected, verdict) => {
    const engine = await engineFor(pre([mcpHook('fail', { message: 'scanner unavailable' }, { failureBehavior: policy })]));
    const d = await engine.run('PreToolUse', write());
    expect(d).toMatchObject(expected);
    expect(d.decision).toBe(verdict);
    expect(d.hooks[0]).toMatchObject({ outcome: 'error', error: 'MCP tool "fail" on server "fx" returned an error: scanner unavailable' });
  });

  it('isError text that looks like a decision is not obeyed', async () => {
    // The fixture's fail tool returns its message as text; a JSON "allow" in an error must not count.
    const allow = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
    const engine = await engineFor(pre([mcpHook('fail', { message: allow })]));
    const d = await engine.run('PreToolUse', write());
    expect(d.decision).toBeUndefined();
    expect(d.hooks[0]!.outcome).toBe('error');
  });

  it('unknown server and unknown tool: errors that say which, failure policy applies', async () => {
    const engine = await engineFor(
      pre([{ type: 'mcp_tool', server: 'nope', tool: 'text' }, mcpHook('no_such_tool', undefined, { failureBehavior: 'ask' })]),
    );
    const d = await engine.run('PreToolUse', write());
    expect(d.hooks[0]).toMatchObject({ outcome: 'error', error: 'MCP server "nope" is not configured (configured: fx)' });
    expect(d.hooks[1]).toMatchObject({ outcome: 'error', decision: 'ask' });
    expect(d.hooks[1]!.error).toMatch(/MCP tool "no_such_tool" on server "fx" failed: .*not found/);
    expect(d.decision).toBe('ask');
  });

  it('timeout: status timeout, timeoutBehavior applies, the server stays usable', async () => {
    const engine = await engineFor({
      ...pre([mcpHook('sleep', { ms: 30_000 }, { timeout: 0.5, timeoutBehavior: 'deny' })]),
      UserPromptSubmit: [{ hooks: [mcpHook('info')] }],
    });
    const pid = await serverPid(engine);
    const d = await engine.run('PreToolUse', write());
    expect(d).toMatchObject({ blocked: true, decision: 'deny' });
    expect(d.hooks[0]).toMatchObject({ outcome: 'timeout', error: 'MCP tool "sleep" on server "fx" did not answer within 500 ms' });
    expect(await serverPid(engine)).toBe(pid);
  });

  it('a crash mid-call is a non-blocking error; the next hook gets a fresh server', async () => {
    const engine = await engineFor({
      ...pre([mcpHook('crash', { code: 9 })]),
      UserPromptSubmit: [{ hooks: [mcpHook('info')] }],
    });
    const first = await serverPid(engine);
    const d = await engine.run('PreToolUse', write());
    expect(d.blocked).toBe(false);
    expect(d.hooks[0]).toMatchObject({ outcome: 'error' });
    expect(d.hooks[0]!.error).toMatch(
      /^MCP server "fx" exited with code 9; stderr: fixture: crashing on purpose during the call to tool "crash"$/,
    );
    expect(await waitUntil(() => !isPidLive(first), 2000)).toBe(true);
    const second = await serverPid(engine);
    expect(second).not.toBe(first);
  });

  it('an engine without MCP servers reports mcp_tool hooks as errors', async () => {
    const engine = await engineFor(pre([mcpHook('text', undefined, { failureBehavior: 'deny' })]), { mcp: undefined });
    const d = await engine.run('PreToolUse', write());
    expect(d).toMatchObject({ blocked: true, decision: 'deny' });
    expect(d.hooks[0]!.error).toBe('no backend for hook type "mcp_tool" in this engine');
  });
});

describe('mcp_tool input substitution', () => {
  it('substitutes ${path} from the hook input: raw values, interpolation, missing paths', async () => {
    const engine = await engineFor(
      pre([
        mcpHook('echo', {
          file_path: '${tool_input.file_path}',
          whole: '${tool_input}',
          count: '${tool_input.n}',
          line: 'file=${tool_input.file_path} n=${tool_input.n} tags=${tool_input.tags}',
          first_tag: '${tool_input.tags[0]}',
          missing: '${tool_input.nope}',
          missing_in_text: 'x${tool_input.nope.deeper}y',
          not_a_path: '${not a path}',
          nested: { list: ['${tool_name}', '${hook_event_name}'] },
          literal: 42,
        }),
      ]),
    );
    const input = { file_path: '/tmp/a.txt', content: 'x', n: 3, tags: ['a', 'b'] };
    const d = await engine.run('PreToolUse', write(input));
    expect(JSON.parse(d.systemMessages[0]!)).toEqual({
      file_path: '/tmp/a.txt',
      whole: input,
      count: 3,
      line: 'file=/tmp/a.txt n=3 tags=["a","b"]',
      first_tag: 'a',
      missing: '',
      missing_in_text: 'xy',
      not_a_path: '${not a path}',
      nested: { list: ['Write', 'PreToolUse'] },
      literal: 42,
    });
  });

  it('a tool input that mentions a placeholder is not substituted again', async () => {
    const engine = await engineFor(pre([mcpHook('echo', { path: '${tool_input.file_path}' })]));
    const d = await engine.run('PreToolUse', write({ file_path: '${session_id}', content: '' }));
    expect(JSON.parse(d.systemMessages[0]!)).toEqual({ path: '${session_id}' });
  });

  it('a substituted input over the stdin cap is passed whole: what a hook judges is never shortened', async () => {
    const engine = await engineFor(pre([mcpHook('echo', { content: '${tool_input.content}' })]), { stdinLimitBytes: 2000 });
    const d = await engine.run('PreToolUse', write({ file_path: '/a', content: 'y'.repeat(5000) }));
    const echoed = JSON.parse(d.systemMessages[0]!);
    expect(echoed.content).toBe('y'.repeat(5000));
    expect(d.hooks[0]!.stdinTruncated).toBe(false);
  });
});

describe('mcp_tool server lifecycle in the engine', () => {
  it('engine.close() stops the servers the engine started', async () => {
    const engine = await engineFor({ UserPromptSubmit: [{ hooks: [mcpHook('info')] }] }, { mcp: serverOptions });
    const pid = await serverPid(engine);
    expect(isPidLive(pid)).toBe(true);
    await engine.close();
    expect(await waitUntil(() => liveGroupMembers(pid).length === 0, 2000)).toBe(true);
  });

  it('a manager handed in by the host is shared and left running by engine.close()', async () => {
    const manager = createMcpClientManager({ projectDir: dir.root, ...serverOptions });
    try {
      const hooks = { UserPromptSubmit: [{ hooks: [mcpHook('info')] }] };
      const a = await engineFor(hooks, { mcp: manager });
      const b = await engineFor(hooks, { mcp: manager });
      const pid = await serverPid(a);
      expect(await serverPid(b)).toBe(pid);
      await a.close();
      expect(isPidLive(pid)).toBe(true);
      expect(await serverPid(b)).toBe(pid);
      await manager.close();
      expect(await waitUntil(() => liveGroupMembers(pid).length === 0, 2000)).toBe(true);
    } finally {
      await manager.close();
    }
  });

  it('parallel hooks share one server started once', async () => {
    const engine = await engineFor(
      { UserPromptSubmit: [{ hooks: [mcpHook('info'), mcpHook('info', { x: 1 }), mcpHook('info', { x: 2 })] }] },
      { mcp: serverOptions },
    );
    const d = await engine.run('UserPromptSubmit', { prompt: 'x' });
    const pids = new Set(d.systemMessages.map((m) => JSON.parse(m).pid));
    expect(d.systemMessages).toHaveLength(3);
    expect(pids.size).toBe(1);
    for (const p of pids) book.groups.add(p as number);
  });
});

describe('lint', () => {
  it('mcp_tool counts as executable when servers are configured, and unknown servers are named', async () => {
    const hooks = await loadHooks(pre([mcpHook('text'), { type: 'mcp_tool', server: 'other', tool: 't' }]));
    const without = lintHooks(hooks, ['command', 'function']);
    expect(without).toHaveLength(2);
    expect(without[0]!.message).toMatch(/mcp_tool hooks need MCP servers .*--mcp-config/);
    const withServers = lintHooks(hooks, ['command', 'function'], { mcpServers: ['fx'] });
    expect(withServers).toEqual([
      expect.objectContaining({
        path: 'hooks.PreToolUse[0].hooks[1]',
        message: expect.stringMatching(/MCP server "other" is not configured \(configured: fx\)/),
      }),
    ]);
  });
});
