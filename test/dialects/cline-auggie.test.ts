/**
 * Cline (src/agents/cline/) and Auggie (src/agents/auggie/): payloads decoded into canonical
 * calls, and the answers each agent reads (Cline: stdout JSON only, its one stop a cancel).
 */
import { describe, expect, test } from 'vitest';
import { parseAuggie, serializeAuggie } from '../../src/agents/auggie/reader.js';
import { auggieWire } from '../../src/agents/auggie/wire.js';
import { serializeCline } from '../../src/agents/cline/reader.js';
import { clineWire } from '../../src/agents/cline/wire.js';
import type { DispatchInput, WireAdapter } from '../../src/agents/types.js';
import type { Decision } from '../../src/reduce/reduce.js';

const decision = (d: Partial<Decision> & Pick<Decision, 'event'>): Decision => ({
  blocked: false,
  additionalContext: [],
  systemMessages: [],
  continue: true,
  eventOutput: {},
  hooks: [],
  warnings: [],
  ...d,
});

function decoded(wire: WireAdapter, raw: Record<string, unknown>): DispatchInput {
  const r = wire.decodePayload(raw);
  if ('skip' in r) throw new Error(r.skip);
  return r;
}

const clineCall = (name: string, input: Record<string, unknown>, hookName = 'tool_call') => ({
  hookName,
  taskId: 'conv_1',
  workspaceRoots: ['/w'],
  tool_call: { id: 'call_1', name, input },
});

describe('cline', () => {
  test('run_commands is Bash with its commands one per line; the workspace root is the cwd', () => {
    const d = decoded(clineWire, clineCall('run_commands', { commands: ['ls', 'rm -rf /'] }));
    expect(d.payload).toMatchObject({
      hook_event_name: 'PreToolUse',
      session_id: 'conv_1',
      cwd: '/w',
      tool_name: 'Bash',
      tool_input: { command: 'ls\nrm -rf /' },
    });
  });

  test('editor creating a file is a Write of file_path; editing one an Edit', () => {
    expect(decoded(clineWire, clineCall('editor', { path: '/w/.env', new_text: 'A=1' })).payload).toMatchObject({
      tool_name: 'Write',
      tool_input: { file_path: '/w/.env', content: 'A=1' },
    });
    expect(decoded(clineWire, clineCall('editor', { path: '/w/a', old_text: 'x', new_text: 'y' })).payload).toMatchObject({
      tool_name: 'Edit',
      tool_input: { file_path: '/w/a', old_string: 'x', new_string: 'y' },
    });
  });

  test('a deny is a cancel that says it ends the task, on exit 0 (the exit code is never read)', () => {
    const input = decoded(clineWire, clineCall('run_commands', { commands: ['rm -rf /'] }));
    const o = clineWire.encodeDecision(decision({ event: 'PreToolUse', blocked: true, decision: 'deny', reason: 'no rm' }), input);
    expect(o.exitCode).toBe(0);
    expect(JSON.parse(o.stdout)).toEqual({
      cancel: true,
      errorMessage: expect.stringMatching(/^no rm \(Cline can only cancel: the whole task was ended/),
    });
  });

  test('a rewrite goes back as run_commands input; a replaced output is a cancel', () => {
    const input = decoded(clineWire, clineCall('run_commands', { commands: ['rm -rf /'] }));
    const rw = clineWire.encodeDecision(decision({ event: 'PreToolUse', decision: 'allow', updatedInput: { command: 'ls' } }), input);
    expect(JSON.parse(rw.stdout)).toEqual({ overrideInput: { commands: ['ls'] } });
    const post = decoded(clineWire, {
      hookName: 'tool_result',
      workspaceRoots: ['/w'],
      tool_result: { id: 'c', name: 'run_commands', input: { commands: ['cat s'] }, output: 'secret' },
    });
    expect(post.payload.tool_response).toBe('secret');
    const o = clineWire.encodeDecision(decision({ event: 'PostToolUse', updatedOutput: 'redacted' }), post);
    expect(JSON.parse(o.stdout).cancel).toBe(true);
  });

  test('events with no equivalent are skipped; convert reports every hook as lost', async () => {
    expect(clineWire.decodePayload({ hookName: 'agent_abort' })).toMatchObject({ skip: expect.stringContaining('no equivalent') });
    const hook = {
      id: 'h',
      event: 'PreToolUse',
      handler: { type: 'command', command: 'x' },
      source: { kind: 'cli', path: 'hooks.PreToolUse[0].hooks[0]' },
      dedupKey: 'h',
    };
    const r = await serializeCline([hook as never]);
    expect(r.losses.map((l) => l.scope)).toEqual(['hook']);
  });
});

describe('auggie', () => {
  const pre = {
    hook_event_name: 'PreToolUse',
    conversation_id: 'c1',
    workspace_roots: ['/w'],
    tool_name: 'save-file',
    tool_input: { path: '/w/.env', file_content: 'A=1' },
    is_mcp_tool: false,
  };

  test('its payload and tool names become canonical', () => {
    expect(decoded(auggieWire, pre).payload).toMatchObject({
      session_id: 'c1',
      cwd: '/w',
      tool_name: 'Write',
      tool_input: { file_path: '/w/.env', content: 'A=1' },
    });
    expect(decoded(auggieWire, { ...pre, tool_name: 'lookup', is_mcp_tool: true }).payload.tool_name).toBe('mcp__auggie__lookup');
    expect(decoded(auggieWire, { hook_event_name: 'PromptSubmit', workspace_roots: ['/w'], user_prompt: 'hi' }).payload).toMatchObject({
      hook_event_name: 'UserPromptSubmit',
      prompt: 'hi',
    });
  });

  test('an ask is denied (--print runs it); a replaced output is withheld', () => {
    const ask = auggieWire.encodeDecision(decision({ event: 'PreToolUse', decision: 'ask', reason: 'sure?' }), decoded(auggieWire, pre));
    expect(JSON.parse(ask.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining('sure?'),
    });
    const post = decoded(auggieWire, {
      ...pre,
      hook_event_name: 'PostToolUse',
      tool_name: 'launch-process',
      tool_input: { command: 'cat s' },
      tool_output: 'secret',
    });
    const replaced = auggieWire.encodeDecision(decision({ event: 'PostToolUse', updatedOutput: 'redacted' }), post);
    // Auggie only appends to the output: dispatch ends it (src/dispatch/end-agent.ts); the JSON is the fallback.
    expect(replaced.endAgent?.reason).toContain('a hook replaced the output of Bash, which Auggie cannot apply or withhold');
    expect(JSON.parse(replaced.stdout)).toMatchObject({ continue: false, decision: 'block', hookSpecificOutput: { decision: 'block' } });
    expect(auggieWire.encodeDecision(decision({ event: 'PostToolUse', additionalContext: ['c'] }), post).endAgent).toBeUndefined();
  });

  test('a blocked prompt ends the agent (PromptSubmit is not awaited: it was sent already); an allowed one does not', () => {
    const prompt = decoded(auggieWire, {
      hook_event_name: 'PromptSubmit',
      conversation_id: 'c1',
      workspace_roots: ['/w'],
      user_prompt: 'p',
    });
    const blocked = auggieWire.encodeDecision(
      decision({ event: 'UserPromptSubmit', blocked: true, decision: 'block', reason: 'no secrets' }),
      prompt,
    );
    expect(blocked.endAgent?.reason).toMatch(/no secrets.*already reached the model; the agent was ended so it stops acting on it/);
    expect(auggieWire.encodeDecision(decision({ event: 'UserPromptSubmit', additionalContext: ['c'] }), prompt).endAgent).toBeUndefined();
  });

  test('settings: PromptSubmit and ms timeouts both ways', async () => {
    const doc = { hooks: { PromptSubmit: [{ hooks: [{ type: 'command', command: 'x', timeout: 2500 }] }] } };
    const r = await parseAuggie(doc, { file: '/p/.augment/settings.json', kind: 'project' });
    expect(r.hooks.map((h) => [h.event, h.handler.timeout, h.source.path])).toEqual([
      ['UserPromptSubmit', 2.5, 'hooks.PromptSubmit[0].hooks[0]'],
    ]);
    expect(JSON.parse((await serializeAuggie(r.hooks)).text)).toEqual(doc);
  });
});
