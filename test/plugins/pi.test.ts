/**
 * The Pi extension called the way Pi calls it (`pi.on(event, handler)`, handlers given the event
 * and a context; Pi 0.73.1's dist/core/extensions/types.d.ts), with real hooks run by the engine in
 * this process. The context and the API object are fakes: Pi itself runs in test/agents.
 */
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { piExtension, type PiExtensionApi } from '../../src/plugins/pi.js';
import { useTempDir } from '../helpers/tmp.js';
import { CLI_BIN } from '../helpers/cli.js';
import { hookCalls, settingsWith } from './helpers.js';

const dir = useTempDir('agent-hooks-pi-');

type Handler = (event: unknown, ctx: unknown) => Promise<unknown>;

function loadPi(settings: string[], opts: { hasUI?: boolean; confirm?: boolean; via?: 'dispatch'; node?: string } = {}) {
  const handlers = new Map<string, Handler>();
  const sent: string[] = [];
  const confirms: string[] = [];
  const api: PiExtensionApi = {
    on: (event, handler) => handlers.set(event, handler as Handler),
    sendUserMessage: (content) => sent.push(content),
  };
  piExtension({ settings, ...(opts.via ? { via: opts.via } : {}), ...(opts.node ? { node: opts.node } : {}) })(api);
  const ctx = {
    hasUI: opts.hasUI ?? false,
    cwd: dir.root,
    ui: {
      confirm: async (_title: string, message: string) => {
        confirms.push(message);
        return opts.confirm ?? false;
      },
    },
    sessionManager: { getSessionId: () => 'pi-session-1', getSessionFile: () => undefined },
  };
  const fire = (name: string, event: unknown) => handlers.get(name)!(event, ctx);
  return { fire, sent, confirms };
}

const bash = (command: string) => ({ type: 'tool_call', toolName: 'bash', toolCallId: 'call_1', input: { command } });
const result = (text: string) => ({
  type: 'tool_result',
  toolName: 'bash',
  toolCallId: 'call_1',
  input: { command: 'x' },
  content: [{ type: 'text', text }],
  isError: false,
});

describe('tool_call', () => {
  test('a deny blocks the call with the hook reason; the hook saw Claude names', async () => {
    const pi = loadPi([settingsWith(dir, [{ event: 'PreToolUse', matcher: 'Bash', mode: 'deny' }])]);
    expect(await pi.fire('tool_call', bash('rm -rf /'))).toEqual({ block: true, reason: 'DENY-REASON' });
    const [call] = hookCalls(dir);
    expect(call).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
      session_id: 'pi-session-1',
    });
  });

  test('a rewrite mutates event.input in place (Pi runs the object it handed out)', async () => {
    const pi = loadPi([settingsWith(dir, [{ event: 'PreToolUse', matcher: 'Bash', mode: 'rewrite' }])]);
    const event = bash('rm -rf /');
    const input = event.input;
    expect(await pi.fire('tool_call', event)).toBeUndefined();
    expect(event.input).toBe(input);
    expect(input).toEqual({ command: 'echo rewritten' });
  });

  test('a file guard sees Pi write as Write with file_path', async () => {
    const pi = loadPi([settingsWith(dir, [{ event: 'PreToolUse', matcher: 'Write', mode: 'deny' }])]);
    const event = { type: 'tool_call', toolName: 'write', toolCallId: 'c', input: { path: '.env', content: 'x' } };
    expect(await pi.fire('tool_call', event)).toEqual({ block: true, reason: 'DENY-REASON' });
    expect(hookCalls(dir)[0]).toMatchObject({ tool_name: 'Write', tool_input: { file_path: '.env', content: 'x' } });
  });

  test('an ask without a UI (pi -p) blocks with the reason; with one, the user decides', async () => {
    const settings = [settingsWith(dir, [{ event: 'PreToolUse', matcher: 'Bash', mode: 'ask' }])];
    const headless = await loadPi(settings).fire('tool_call', bash('ls'));
    expect(headless).toMatchObject({ block: true, reason: expect.stringContaining('ASK-REASON') });
    expect((headless as { reason: string }).reason).toContain('approval required');
    const no = loadPi(settings, { hasUI: true, confirm: false });
    expect(await no.fire('tool_call', bash('ls'))).toMatchObject({ block: true, reason: expect.stringContaining('ASK-REASON') });
    expect(no.confirms).toEqual(['ASK-REASON']);
    expect(await loadPi(settings, { hasUI: true, confirm: true }).fire('tool_call', bash('ls'))).toBeUndefined();
  });

  test('a context before the tool is added to its result', async () => {
    const pi = loadPi([settingsWith(dir, [{ event: 'PreToolUse', matcher: 'Bash', mode: 'context' }])]);
    expect(await pi.fire('tool_call', bash('ls'))).toBeUndefined();
    const r = (await pi.fire('tool_result', result('out'))) as { content: Array<{ text: string }> };
    expect(r.content.map((c) => c.text)).toEqual(['out', 'CTX-PreToolUse']);
  });
});

describe('tool_result', () => {
  test('a replacement replaces the content; a context is appended', async () => {
    const replace = loadPi([settingsWith(dir, [{ event: 'PostToolUse', matcher: 'Bash', mode: 'replace' }])]);
    expect(await replace.fire('tool_result', result('secret'))).toEqual({ content: [{ type: 'text', text: 'REPLACED' }] });
    expect(hookCalls(dir)[0]).toMatchObject({ hook_event_name: 'PostToolUse', tool_response: 'secret' });
    const context = loadPi([settingsWith(dir, [{ event: 'PostToolUse', matcher: 'Bash', mode: 'context' }])]);
    expect(await context.fire('tool_result', result('out'))).toEqual({
      content: [
        { type: 'text', text: 'out' },
        { type: 'text', text: 'CTX-PostToolUse' },
      ],
    });
  });
});

describe('prompts and the session', () => {
  test('input: a block handles the prompt (never sent), a context transforms it', async () => {
    const block = loadPi([settingsWith(dir, [{ event: 'UserPromptSubmit', mode: 'block' }])]);
    expect(await block.fire('input', { type: 'input', text: 'hello', source: 'interactive' })).toEqual({ action: 'handled' });
    const context = loadPi([settingsWith(dir, [{ event: 'UserPromptSubmit', mode: 'context' }])]);
    expect(await context.fire('input', { type: 'input', text: 'hello', source: 'interactive' })).toEqual({
      action: 'transform',
      text: 'hello\n\nCTX-UserPromptSubmit',
    });
  });

  test('a SessionStart context is the message of the first before_agent_start only', async () => {
    const pi = loadPi([settingsWith(dir, [{ event: 'SessionStart', mode: 'context' }])]);
    await pi.fire('session_start', { type: 'session_start', reason: 'startup' });
    expect(hookCalls(dir)[0]).toMatchObject({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(await pi.fire('before_agent_start', {})).toEqual({
      message: { customType: 'agent-hooks', content: 'CTX-SessionStart', display: false },
    });
    expect(await pi.fire('before_agent_start', {})).toBeUndefined();
  });

  test('a Stop block keeps Pi going once with the reason; the next Stop has stop_hook_active', async () => {
    const pi = loadPi([settingsWith(dir, [{ event: 'Stop', mode: 'stop' }])]);
    await pi.fire('agent_end', { type: 'agent_end', messages: [] });
    expect(pi.sent).toEqual(['KEEP-GOING']);
    await pi.fire('agent_end', { type: 'agent_end', messages: [] });
    expect(pi.sent).toEqual(['KEEP-GOING']);
    expect(hookCalls(dir).map((c) => c.stop_hook_active)).toEqual([false, true]);
  });
});

describe('when the engine cannot answer, nothing proceeds', () => {
  test('dispatch prints garbage or crashes: the call is blocked, the prompt not sent, the output withheld', async () => {
    const garbage = dir.write('garbage-node', '#!/bin/sh\necho not-an-answer\n', 0o755);
    const crash = dir.write('crash-node', '#!/bin/sh\necho boom >&2\nexit 1\n', 0o755);
    for (const node of [garbage, crash]) {
      const pi = loadPi([], { via: 'dispatch', node });
      const call = (await pi.fire('tool_call', bash('ls'))) as { block: boolean; reason: string };
      expect(call.block).toBe(true);
      expect(call.reason).toMatch(/fails closed/);
      expect(await pi.fire('input', { type: 'input', text: 'hi', source: 'interactive' })).toEqual({ action: 'handled' });
      const out = (await pi.fire('tool_result', result('secret'))) as { content: Array<{ text: string }>; isError: boolean };
      expect(out.isError).toBe(true);
      expect(JSON.stringify(out.content)).not.toContain('secret');
    }
  });

  test('through the CLI: a Node binary that does not exist blocks the call with the reason', async () => {
    expect(existsSync(CLI_BIN), 'npm run build first').toBe(true);
    const { piExtension: built } = (await import('../../dist/plugins/pi.js')) as typeof import('../../src/plugins/pi.js');
    const handlers = new Map<string, Handler>();
    built({ via: 'dispatch', node: dir.path('no-such-node') })({ on: (e, h) => handlers.set(e, h as Handler), sendUserMessage() {} });
    const ctx = {
      hasUI: false,
      cwd: dir.root,
      ui: { confirm: async () => true },
      sessionManager: { getSessionId: () => 's', getSessionFile: () => undefined },
    };
    const r = (await handlers.get('tool_call')!(bash('ls'), ctx)) as { block: boolean; reason: string };
    expect(r).toMatchObject({ block: true, reason: expect.stringContaining('ENOENT') });
  });

  test('through the CLI the answer is the same as in process', async () => {
    const settings = [settingsWith(dir, [{ event: 'PreToolUse', matcher: 'Bash', mode: 'deny' }])];
    const { piExtension: built } = (await import('../../dist/plugins/pi.js')) as typeof import('../../src/plugins/pi.js');
    const handlers = new Map<string, Handler>();
    built({ via: 'dispatch', settings })({ on: (e, h) => handlers.set(e, h as Handler), sendUserMessage() {} });
    const ctx = {
      hasUI: false,
      cwd: dir.root,
      ui: { confirm: async () => true },
      sessionManager: { getSessionId: () => 's', getSessionFile: () => undefined },
    };
    expect(await handlers.get('tool_call')!(bash('ls'), ctx)).toEqual({ block: true, reason: 'DENY-REASON' });
  });
});
