/**
 * The MCP SDK is an optional peer dependency (src/mcp/sdk.ts). With it hidden from module
 * resolution (test/fixtures/mcp/hide-sdk.mjs), the package still imports and runs command hooks;
 * each MCP feature fails by its own rules with an error that says what to install, never a crash.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { SERVER } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = `${ROOT}dist/cli/bin.cjs`;
const INDEX = pathToFileURL(`${ROOT}dist/index.js`).href;
const HIDE = fileURLToPath(new URL('../fixtures/mcp/hide-sdk.mjs', import.meta.url));
const MISSING = 'install @modelcontextprotocol/sdk to use';

function node(args: string[], input = '') {
  const r = spawnSync(process.execPath, ['--import', HIDE, ...args], { input, encoding: 'utf8', timeout: 30_000, cwd: dir.root });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir: TempDir;
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error('dist/cli/bin.cjs is missing: run `npm run build` first (npm test does)');
});
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

const mcpHook = { type: 'mcp_tool', server: 'fx', tool: 'text', input: { text: 'hi' } };

describe('without the MCP SDK installed', () => {
  it('the hiding works: importing the SDK fails', () => {
    const r = node(['--input-type=module', '-e', "await import('@modelcontextprotocol/sdk/types.js')"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('ERR_MODULE_NOT_FOUND');
  });

  it("import 'agent-hooks' works; command hooks run; an mcp_tool hook fails by its failure policy with the install hint", () => {
    const settings = dir.json('settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }, mcpHook] }] },
    });
    const script = `
      const { createHookEngine, loadConfig } = await import(${JSON.stringify(INDEX)});
      const { hooks } = await loadConfig({ cwd: process.cwd(), discover: false, settingsFiles: [${JSON.stringify(settings)}] });
      const mcp = { servers: { fx: { command: process.execPath, args: [${JSON.stringify(SERVER)}] } } };
      const input = { tool_name: 'Bash', tool_input: { command: 'ls' } };
      for (const failureBehavior of ['allow', 'deny']) {
        const engine = createHookEngine({ hooks, mcp, failureBehavior });
        const d = await engine.run('PreToolUse', input);
        console.log(JSON.stringify({ decision: d.decision ?? null, hooks: d.hooks.map((h) => ({ type: h.type, outcome: h.outcome, error: h.error })) }));
        await engine.close();
      }`;
    const r = node(['--input-type=module', '-e', script]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [lenient, strict] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const d of [lenient, strict]) {
      expect(d.hooks[0]).toMatchObject({ type: 'command', outcome: 'success' });
      expect(d.hooks[1]).toMatchObject({ type: 'mcp_tool', outcome: 'error' });
      expect(d.hooks[1].error).toBe(
        `${MISSING} mcp_tool hooks (npm install @modelcontextprotocol/sdk: it is an optional peer dependency of agent-hooks)`,
      );
    }
    expect(lenient.decision).not.toBe('deny');
    expect(strict.decision).toBe('deny');
  });

  it('agent-hooks run --mcp-config (the bundled CLI): the mcp_tool hook errors, non-blocking, and the run completes', () => {
    const settings = dir.json('settings.json', { hooks: { UserPromptSubmit: [{ hooks: [mcpHook] }] } });
    const mcpConfig = dir.json('mcp.json', { mcpServers: { fx: { command: process.execPath, args: [SERVER] } } });
    const r = node([
      BIN,
      'run',
      'UserPromptSubmit',
      '--settings',
      settings,
      '--cwd',
      dir.root,
      '--mcp-config',
      mcpConfig,
      '--payload',
      dir.json('p.json', { prompt: 'hi' }),
      '--json',
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.hooks[0]).toMatchObject({ type: 'mcp_tool', outcome: 'error' });
    expect(out.hooks[0].error).toContain(`${MISSING} mcp_tool hooks`);
  });

  it('dispatch runs command hooks as usual', () => {
    const settings = dir.json('settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo dispatch-ran >&2; exit 2' }] }] },
    });
    const payload = JSON.stringify({
      session_id: 's',
      transcript_path: '',
      cwd: dir.root,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    const r = node([BIN, 'dispatch', '--agent', 'claude', '--settings', settings], payload);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'dispatch-ran' },
    });
  });

  it('agent-hooks mcp-proxy: exit 1 with the install hint, no server started', () => {
    const settings = dir.json('settings.json', { hooks: {} });
    const r = node([BIN, 'mcp-proxy', '--settings', settings, '--', process.execPath, SERVER]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`agent-hooks mcp-proxy: ${MISSING} agent-hooks mcp-proxy`);
  });
});
