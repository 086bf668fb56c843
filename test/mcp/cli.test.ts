/** `agent-hooks run --mcp-config FILE`: the built CLI against the fixture MCP server. */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { isPidLive, liveGroupMembers, waitUntil } from '../backends/helpers.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';
import { pidBook, SERVER } from './helpers.js';

const book = pidBook();
const cli = (args: string[]) => runCli(args, { timeout: 30_000 });

requireBuiltCli();
const dir = useTempDir();
let mcpConfig: string;
beforeEach(() => {
  mcpConfig = dir.json('mcp.json', {
    mcpServers: { fx: { command: process.execPath, args: [SERVER], env: { FIXTURE_VAR: 'from-config' } } },
  });
});
afterAll(async () => {
  expect(await book.leftovers()).toEqual([]);
});

/** UserPromptSubmit with the prompt "hi", the settings `s` and the fixture server's config. */
const prompt = (s: string) =>
  cli([
    'run',
    'UserPromptSubmit',
    '--settings',
    s,
    '--cwd',
    dir.root,
    '--mcp-config',
    mcpConfig,
    '--payload',
    dir.json('p.json', { prompt: 'hi' }),
    '--json',
  ]);
const settings = (hooks: Record<string, unknown>) => dir.json('settings.json', { hooks });
const mcp = (tool: string, input?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'mcp_tool',
  server: 'fx',
  tool,
  ...(input ? { input } : {}),
  ...extra,
});
const runPre = (s: string, extra: string[] = [], input = '{"file_path":"/tmp/x.ts","content":"c"}') =>
  cli([
    'run',
    'PreToolUse',
    '--settings',
    s,
    '--cwd',
    dir.root,
    '--mcp-config',
    mcpConfig,
    '--tool',
    'Write',
    '--input',
    input,
    '--json',
    ...extra,
  ]);

describe('agent-hooks run --mcp-config', () => {
  it('deny from an MCP tool blocks (exit 2); ${path} substitution reaches the tool', () => {
    const deny = {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'blocked by scanner' },
    };
    const s = settings({
      PreToolUse: [{ matcher: 'Write', hooks: [mcp('echo', { path: '${tool_input.file_path}' }), mcp('json', { value: deny })] }],
    });
    const r = runPre(s);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ blocked: true, decision: 'deny', reason: 'blocked by scanner', systemMessages: ['{"path":"/tmp/x.ts"}'] });
    expect(out.hooks.map((h: { type: string; outcome: string }) => `${h.type}:${h.outcome}`)).toEqual([
      'mcp_tool:success',
      'mcp_tool:success',
    ]);
  });

  it('allow and context; the server gets the env of the config file and CLAUDE_PROJECT_DIR', () => {
    const s = settings({ UserPromptSubmit: [{ hooks: [mcp('text', { text: 'ctx from mcp' }), mcp('info')] }] });
    const r = prompt(s);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.additionalContext).toEqual(['ctx from mcp']);
    const info = JSON.parse(out.systemMessages[0]);
    expect(info).toMatchObject({ FIXTURE_VAR: 'from-config', CLAUDE_PROJECT_DIR: dir.root, cwd: dir.root });
    book.groups.add(info.pid);
  });

  it('isError and unknown server: non-blocking errors; --failure-behavior deny turns them into a deny', () => {
    const s = settings({
      PreToolUse: [
        { matcher: 'Write', hooks: [mcp('fail', { message: 'scanner down' }), { type: 'mcp_tool', server: 'ghost', tool: 'x' }] },
      ],
    });
    const lenient = runPre(s);
    expect(lenient.code).toBe(0);
    const out = JSON.parse(lenient.stdout);
    expect(out.hooks.map((h: { error: string }) => h.error)).toEqual([
      'MCP tool "fail" on server "fx" returned an error: scanner down',
      'MCP server "ghost" is not configured (configured: fx)',
    ]);
    const strict = runPre(s, ['--failure-behavior', 'deny']);
    expect(strict.code).toBe(2);
    expect(JSON.parse(strict.stdout)).toMatchObject({ blocked: true, decision: 'deny' });
  });

  it('timeout and crash are reported per hook; the CLI still returns', () => {
    // The first hook starts the server, so the 0.5 s timeout measures the call alone even on a loaded machine.
    const s = settings({
      PreToolUse: [{ matcher: 'Write', hooks: [mcp('text'), mcp('sleep', { ms: 60_000 }, { timeout: 0.5 }), mcp('crash', { code: 4 })] }],
    });
    const r = runPre(s);
    expect(r.code).toBe(0);
    const [, slow, crash] = JSON.parse(r.stdout).hooks;
    expect(slow).toMatchObject({ outcome: 'timeout', error: 'MCP tool "sleep" on server "fx" did not answer within 500 ms' });
    expect(crash.outcome).toBe('error');
    expect(crash.error).toMatch(/MCP server "fx" exited with code 4; stderr: fixture: crashing on purpose during the call to tool "crash"/);
  });

  it('leaves no server process behind when it exits (grandchildren included)', async () => {
    const s = settings({ UserPromptSubmit: [{ hooks: [mcp('info'), mcp('spawn')] }] });
    const r = prompt(s);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const pid = JSON.parse(out.systemMessages[0]).pid as number;
    const grandchild = Number(out.additionalContext[0]);
    book.groups.add(pid);
    book.pids.add(grandchild);
    expect(grandchild).toBeGreaterThan(0);
    expect(await waitUntil(() => liveGroupMembers(pid).length === 0 && !isPidLive(grandchild), 2000)).toBe(true);
  });

  it('an invalid MCP config is a path-qualified usage error (exit 1) and runs nothing', () => {
    const bad = dir.json('bad.json', { mcpServers: { fx: { command: '', argz: [] } } });
    const s = settings({ UserPromptSubmit: [{ hooks: [mcp('text')] }] });
    const r = cli([
      'run',
      'UserPromptSubmit',
      '--settings',
      s,
      '--cwd',
      dir.root,
      '--mcp-config',
      bad,
      '--payload',
      dir.json('p.json', { prompt: 'hi' }),
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${bad}: mcpServers.fx: unknown key(s): argz`);
    expect(r.stderr).toContain(`${bad}: mcpServers.fx.command: must be a non-empty string`);
    const missing = cli(['run', 'UserPromptSubmit', '--settings', s, '--cwd', dir.root, '--mcp-config', dir.path('nope.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.json: \(file\): cannot read/);
  });

  it('without --mcp-config, mcp_tool hooks report a missing backend, and the call is denied (the engine cannot run the guard)', () => {
    const s = settings({ PreToolUse: [{ matcher: 'Write', hooks: [mcp('text')] }] });
    const r = cli(['run', 'PreToolUse', '--settings', s, '--cwd', dir.root, '--tool', 'Write', '--input', '{}', '--json']);
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout);
    expect(out.hooks[0]).toMatchObject({ outcome: 'error', error: 'no backend for hook type "mcp_tool" in this engine' });
    expect(out.decision).toBe('deny');
  });
});
