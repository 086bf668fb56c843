/**
 * The OpenCode plugin called the way OpenCode 1.18.33 calls a plugin's hooks (`(input, output)`,
 * answering by mutating `output` or throwing), with real hooks run by the engine in this process.
 * The plugin input (`directory`, `client`) is a fake: OpenCode itself runs in test/agents.
 */
import { describe, expect, test } from 'vitest';
import { opencodePlugin, type OpencodePluginOptions } from '../../src/plugins/opencode.js';
import { useTempDir } from '../helpers/tmp.js';
import { hookCalls, settingsWith } from './helpers.js';

const dir = useTempDir('agent-hooks-opencode-');

async function load(settings: string[], opts: OpencodePluginOptions = {}) {
  const prompts: unknown[] = [];
  const client = { session: { prompt: async (req: unknown) => prompts.push(req) } };
  const hooks = await opencodePlugin({ settings, ...opts })({ directory: dir.root, client });
  return { hooks, prompts };
}

const before = { tool: 'bash', sessionID: 'ses_1', callID: 'call_1' };
const after = { ...before, args: { command: 'x' } };
const textPart = (text: string) => ({ id: 'prt_1', sessionID: 'ses_1', messageID: 'msg_1', type: 'text', text });

describe('tool.execute.before', () => {
  test('a deny throws the hook reason (OpenCode gives it to the model as the tool error)', async () => {
    const { hooks } = await load([settingsWith(dir, [{ event: 'PreToolUse', matcher: 'Bash', mode: 'deny' }])]);
    await expect(hooks['tool.execute.before'](before, { args: { command: 'rm -rf /' } })).rejects.toThrow('DENY-REASON');
    expect(hookCalls(dir)[0]).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', session_id: 'ses_1' });
  });

  test('an ask is a deny with the reason: OpenCode never triggers permission.ask', async () => {
    const { hooks } = await load([settingsWith(dir, [{ event: 'PreToolUse', matcher: 'Bash', mode: 'ask' }])]);
    await expect(hooks['tool.execute.before'](before, { args: { command: 'ls' } })).rejects.toThrow(
      /approval required \(OpenCode hooks cannot ask the user\): ASK-REASON/,
    );
  });

  test('Kilo says so in its own name', async () => {
    const { hooks } = await load([settingsWith(dir, [{ event: 'PreToolUse', matcher: 'Bash', mode: 'ask' }])], { agent: 'kilo' });
    await expect(hooks['tool.execute.before'](before, { args: { command: 'ls' } })).rejects.toThrow(/Kilo CLI hooks cannot ask/);
  });

  test('a rewrite mutates output.args in place (OpenCode runs the object it handed out)', async () => {
    const { hooks } = await load([settingsWith(dir, [{ event: 'PreToolUse', matcher: 'Bash', mode: 'rewrite' }])]);
    const args = { command: 'rm -rf /', description: 'clean' };
    const output = { args };
    await hooks['tool.execute.before'](before, output);
    expect(output.args).toBe(args);
    expect(args).toEqual({ command: 'echo rewritten', description: 'clean' });
  });

  test('an edit guard sees filePath as file_path, and a rewrite comes back in OpenCode names', async () => {
    const { hooks } = await load([settingsWith(dir, [{ event: 'PreToolUse', matcher: 'Edit', mode: 'deny' }])]);
    const edit = { tool: 'edit', sessionID: 'ses_1', callID: 'c' };
    await expect(hooks['tool.execute.before'](edit, { args: { filePath: '.env', oldString: 'a', newString: 'b' } })).rejects.toThrow(
      'DENY-REASON',
    );
    expect(hookCalls(dir)[0]).toMatchObject({ tool_name: 'Edit', tool_input: { file_path: '.env', old_string: 'a', new_string: 'b' } });
  });
});

describe('tool.execute.after', () => {
  test('a replacement sets output.output; contexts before and after are appended', async () => {
    const settings = settingsWith(dir, [
      { event: 'PreToolUse', matcher: 'Bash', mode: 'context' },
      { event: 'PostToolUse', matcher: 'Bash', mode: 'replace' },
    ]);
    const { hooks } = await load([settings]);
    await hooks['tool.execute.before'](before, { args: { command: 'ls' } });
    const output = { title: 'ls', output: 'secret', metadata: {} };
    await hooks['tool.execute.after'](after, output);
    expect(output.output).toBe('REPLACED\n\nCTX-PreToolUse');
    expect(hookCalls(dir)[1]).toMatchObject({ hook_event_name: 'PostToolUse', tool_response: 'secret', tool_input: { command: 'x' } });
  });

  test('no answer leaves the output alone', async () => {
    const { hooks } = await load([settingsWith(dir, [{ event: 'PostToolUse', matcher: 'Write', mode: 'replace' }])]);
    const output = { title: 'ls', output: 'out', metadata: {} };
    await hooks['tool.execute.after'](after, output);
    expect(output.output).toBe('out');
  });
});

describe('chat.message and session.idle', () => {
  test("a SessionStart and a UserPromptSubmit context join the session's first prompt; SessionStart fires once", async () => {
    const settings = settingsWith(dir, [
      { event: 'SessionStart', mode: 'context' },
      { event: 'UserPromptSubmit', mode: 'context' },
    ]);
    const { hooks } = await load([settings]);
    const first = { message: {}, parts: [textPart('hello')] };
    await hooks['chat.message']({ sessionID: 'ses_1' }, first);
    expect(first.parts[0]!.text).toBe('hello\n\nCTX-SessionStart\n\nCTX-UserPromptSubmit');
    const second = { message: {}, parts: [textPart('again')] };
    await hooks['chat.message']({ sessionID: 'ses_1' }, second);
    expect(second.parts[0]!.text).toBe('again\n\nCTX-UserPromptSubmit');
    expect(hookCalls(dir).map((c) => c.hook_event_name)).toEqual(['SessionStart', 'UserPromptSubmit', 'UserPromptSubmit']);
    expect(hookCalls(dir)[1]).toMatchObject({ prompt: 'hello' });
  });

  test('a prompt block throws the reason', async () => {
    const { hooks } = await load([settingsWith(dir, [{ event: 'UserPromptSubmit', mode: 'block' }])]);
    await expect(hooks['chat.message']({ sessionID: 'ses_1' }, { parts: [textPart('secret plan')] })).rejects.toThrow('BLOCK-REASON');
  });

  test('a Stop block prompts the idle session once with the reason', async () => {
    const { hooks, prompts } = await load([settingsWith(dir, [{ event: 'Stop', mode: 'stop' }])]);
    const idle = { event: { type: 'session.idle', properties: { sessionID: 'ses_1' } } };
    await hooks.event(idle);
    expect(prompts).toEqual([{ path: { id: 'ses_1' }, body: { parts: [{ type: 'text', text: 'KEEP-GOING' }] } }]);
    await hooks.event(idle);
    expect(prompts).toHaveLength(1);
    await hooks.event({ event: { type: 'message.updated', properties: {} } });
    expect(hookCalls(dir).map((c) => c.stop_hook_active)).toEqual([false, true]);
  });
});

describe('when the engine cannot answer, nothing proceeds', () => {
  test('dispatch crashes: the call throws, the prompt throws, the output is withheld', async () => {
    const crash = dir.write('crash-node', '#!/bin/sh\necho boom >&2\nexit 1\n', 0o755);
    const { hooks } = await load([], { via: 'dispatch', node: crash });
    await expect(hooks['tool.execute.before'](before, { args: { command: 'ls' } })).rejects.toThrow(/exited with 1: boom.*fails closed/);
    await expect(hooks['chat.message']({ sessionID: 'ses_1' }, { parts: [textPart('hi')] })).rejects.toThrow(/fails closed/);
    const output = { title: 'ls', output: 'secret', metadata: {} };
    await hooks['tool.execute.after'](after, output);
    expect(output.output).not.toContain('secret');
    expect(output.output).toMatch(/withheld/);
  });
});
