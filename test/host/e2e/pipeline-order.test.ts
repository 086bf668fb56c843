/**
 * The tool pipeline's orderings, tested as orderings with real hook processes:
 * rules → PreToolUse → rewrite re-validated (schema, isolation, rules) → merge →
 * PermissionRequest (only when still ask, serialized) → user → execute → PostToolUse.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scriptedModel, type ToolApprovalRequest } from '../../../src/host/index.js';
import { hook, useHostSandbox, json, allowAll } from '../helpers.js';

const sb = useHostSandbox();

const pre = (o: Record<string, unknown>) => json({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...o } });
const bash = (command: string, id = 't1') => ({ id, name: 'Bash', input: { command } });

describe('rule permissions come first', () => {
  it('a rule-level deny never runs PreToolUse (nor PermissionRequest, nor the tool)', async () => {
    sb.settings({
      PreToolUse: [{ hooks: [hook(sb.log)] }],
      PermissionRequest: [{ hooks: [hook(sb.log)] }],
      PostToolUse: [{ hooks: [hook(sb.log)] }],
    });
    const s = await sb.session({
      model: scriptedModel([{ toolCalls: [bash(`touch ${sb.ws}/x`)] }, { text: 'done' }]),
      permissions: { deny: ['Bash(touch *)'] },
      prompter: allowAll,
    });
    const r = await s.submit('go');
    expect(r.status).toBe('completed');
    expect(sb.events()).not.toContain('PreToolUse');
    expect(sb.events()).not.toContain('PermissionRequest');
    expect(existsSync(`${sb.ws}/x`)).toBe(false);
    const tool = s.messages.find((m) => m.role === 'tool')!;
    expect(tool.content).toContain('denied by permission rule Bash(touch *)');
  });

  it('a rewrite that makes the call match a deny rule is denied, though the hook said allow', async () => {
    sb.settings({
      PreToolUse: [
        { matcher: 'Bash', hooks: [hook(sb.log, pre({ permissionDecision: 'allow', updatedInput: { command: `touch ${sb.ws}/evil` } }))] },
      ],
      PermissionRequest: [{ hooks: [hook(sb.log)] }],
    });
    const s = await sb.session({
      model: scriptedModel([{ toolCalls: [bash('echo harmless')] }, { text: 'done' }]),
      permissions: { deny: ['Bash(touch *)'] },
      prompter: allowAll,
    });
    await s.submit('go');
    expect(sb.events()).toEqual(['PreToolUse']);
    expect(existsSync(`${sb.ws}/evil`)).toBe(false);
    const tool = s.messages.find((m) => m.role === 'tool')!;
    expect(tool.content).toMatch(/denied by permission rule Bash\(touch \*\) \(after the PreToolUse hook rewrote the input\)/);
  });

  it('an invalid rewrite is a validation error, never a fallback to the original input', async () => {
    sb.settings({ PreToolUse: [{ matcher: 'Write', hooks: [hook(sb.log, pre({ updatedInput: { file_path: 42, content: 'x' } }))] }] });
    const file = `${sb.ws}/a.txt`;
    const s = await sb.session({
      model: scriptedModel([
        { toolCalls: [{ id: 't1', name: 'Write', input: { file_path: file, content: 'original' } }] },
        { text: 'done' },
      ]),
      prompter: allowAll,
    });
    await s.submit('go');
    expect(existsSync(file)).toBe(false);
    const tool = s.messages.find((m) => m.role === 'tool')!;
    expect(tool.content).toMatch(/PreToolUse hook rewrote the input of Write invalidly: file_path/);
  });

  it('a rewrite is re-checked for workspace isolation', async () => {
    const outside = sb.dir.path('outside.txt');
    sb.settings({
      PreToolUse: [
        {
          matcher: 'Write',
          hooks: [hook(sb.log, pre({ permissionDecision: 'allow', updatedInput: { file_path: outside, content: 'x' } }))],
        },
      ],
    });
    const s = await sb.session({
      model: scriptedModel([
        { toolCalls: [{ id: 't1', name: 'Write', input: { file_path: `${sb.ws}/in.txt`, content: 'x' } }] },
        { text: 'done' },
      ]),
      prompter: allowAll,
    });
    await s.submit('go');
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(`${sb.ws}/in.txt`)).toBe(false);
    expect(s.messages.find((m) => m.role === 'tool')!.content).toMatch(/rewrite rejected: .*outside the workspace/);
  });

  it('a valid rewrite runs with the rewritten input; PostToolUse sees it', async () => {
    sb.settings({
      PreToolUse: [
        { matcher: 'Bash', hooks: [hook(sb.log, pre({ permissionDecision: 'allow', updatedInput: { command: 'echo rewritten' } }))] },
      ],
      PostToolUse: [{ hooks: [hook(sb.log)] }],
    });
    const s = await sb.session({ model: scriptedModel([{ toolCalls: [bash('echo original')] }, { text: 'done' }]) });
    await s.submit('go');
    const post = sb.entries().find((e) => e.hook_event_name === 'PostToolUse')!;
    expect(post.tool_input).toEqual({ command: 'echo rewritten' });
    expect(post.tool_response).toMatchObject({ stdout: 'rewritten\n', exitCode: 0 });
  });
});

describe('PermissionRequest', () => {
  it('never sees a denied call: only the call that still asks reaches it, after PreToolUse', async () => {
    sb.settings({
      PreToolUse: [
        { matcher: 'Bash', hooks: [hook(sb.log, '', { if: 'Bash(echo keep*)' })] },
        {
          matcher: 'Bash',
          hooks: [
            hook(sb.log, pre({ permissionDecision: 'deny', permissionDecisionReason: 'hook says no' }), { if: 'Bash(echo hookdeny*)' }),
          ],
        },
      ],
      PermissionRequest: [{ hooks: [hook(sb.log)] }],
    });
    const s = await sb.session({
      model: scriptedModel([
        { toolCalls: [bash('echo ruledeny', 'a'), bash('echo hookdeny', 'b'), bash('echo keep', 'c')] },
        { text: 'done' },
      ]),
      permissions: { deny: ['Bash(echo ruledeny)'] },
      toolConcurrency: 'serial',
      prompter: allowAll,
    });
    await s.submit('go');
    const seen = sb.entries().map((e) => [e.hook_event_name, (e.tool_input as { command?: string } | undefined)?.command]);
    expect(seen).toEqual([
      ['PreToolUse', 'echo hookdeny'],
      ['PreToolUse', 'echo keep'],
      ['PermissionRequest', 'echo keep'],
    ]);
  });

  it('PreToolUse always decides before any prompt; a PermissionRequest allow skips the prompt, a deny denies', async () => {
    const order: string[] = [];
    sb.settings({
      PreToolUse: [{ hooks: [hook(sb.log)] }],
      PermissionRequest: [
        {
          matcher: 'Bash',
          hooks: [
            hook(sb.log, json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }), {
              if: 'Bash(echo pr-allow)',
            }),
          ],
        },
        {
          matcher: 'Bash',
          hooks: [
            hook(
              sb.log,
              json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'pr says no' } } }),
              { if: 'Bash(echo pr-deny)' },
            ),
          ],
        },
      ],
    });
    const prompter = {
      confirmTool: async (req: ToolApprovalRequest) => {
        order.push(`prompt:${req.input.command} after ${sb.events().join(',')}`);
        return { behavior: 'allow' as const };
      },
    };
    const s = await sb.session({
      model: scriptedModel([
        { toolCalls: [bash('echo pr-allow', 'a'), bash('echo pr-deny', 'b'), bash('echo user', 'c')] },
        { text: 'done' },
      ]),
      toolConcurrency: 'serial',
      prompter,
    });
    await s.submit('go');
    expect(order).toEqual(['prompt:echo user after PreToolUse,PermissionRequest,PreToolUse,PermissionRequest,PreToolUse']);
    const tools = s.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools[0]).toBe('pr-allow\n');
    expect(tools[1]).toContain('pr says no');
    expect(tools[2]).toBe('user\n');
  });

  it('a PermissionRequest rewrite is re-evaluated against the rules; interrupt:true stops the agent', async () => {
    const pr = (decision: Record<string, unknown>) => json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
    sb.settings({
      PermissionRequest: [
        {
          matcher: 'Bash',
          hooks: [hook(sb.log, pr({ behavior: 'allow', updatedInput: { command: `touch ${sb.ws}/evil` } }), { if: 'Bash(echo one)' })],
        },
        {
          matcher: 'Bash',
          hooks: [hook(sb.log, pr({ behavior: 'deny', message: 'stop everything', interrupt: true }), { if: 'Bash(echo two)' })],
        },
      ],
    });
    const model = scriptedModel([{ toolCalls: [bash('echo one', 'a'), bash('echo two', 'b')] }, { text: 'never' }]);
    const s = await sb.session({ model, permissions: { deny: ['Bash(touch *)'] }, toolConcurrency: 'serial', prompter: allowAll });
    const r = await s.submit('go');
    expect(existsSync(`${sb.ws}/evil`)).toBe(false);
    const tools = s.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools[0]).toMatch(/denied by permission rule Bash\(touch \*\) \(after the PermissionRequest hook rewrote the input\)/);
    expect(tools[1]).toContain('stop everything');
    expect(r).toMatchObject({ status: 'stopped', reason: 'stop everything' });
    expect(model.remaining).toBe(1);
  });

  it('concurrent approvals are serialized: one PermissionRequest at a time', async () => {
    sb.settings({ PermissionRequest: [{ hooks: [hook(sb.log, 'sleep:300')] }] });
    const windows: Array<[number, number]> = [];
    const prompter = {
      confirmTool: async () => {
        const t = Date.now();
        windows.push([t, t]);
        return { behavior: 'allow' as const };
      },
    };
    const s = await sb.session({
      model: scriptedModel([{ toolCalls: [bash('echo one', 'a'), bash('echo two', 'b'), bash('echo three', 'c')] }, { text: 'done' }]),
      toolConcurrency: 'parallel',
      prompter,
    });
    await s.submit('go');
    const starts = sb
      .entries()
      .filter((e) => e.hook_event_name === 'PermissionRequest')
      .map((e) => Date.parse(String(e.timestamp)));
    expect(starts).toHaveLength(3);
    starts.sort((a, b) => a - b);
    // Each hook sleeps 300 ms; serialized, each starts after the previous one finished.
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(250);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(250);
    expect(windows).toHaveLength(3);
  });

  it('headless (no prompter): an ask is denied after Notification permission_prompt', async () => {
    sb.settings({ Notification: [{ matcher: 'permission_prompt', hooks: [hook(sb.log)] }] });
    const s = await sb.session({ model: scriptedModel([{ toolCalls: [bash(`touch ${sb.ws}/x`)] }, { text: 'done' }]) });
    await s.submit('go');
    expect(existsSync(`${sb.ws}/x`)).toBe(false);
    const n = sb.entries().find((e) => e.hook_event_name === 'Notification')!;
    expect(n).toMatchObject({ notification_type: 'permission_prompt', title: 'Permission needed' });
    expect(s.messages.find((m) => m.role === 'tool')!.content).toContain('headless');
  });

  it('a hook allow does not skip an explicit ask rule; a hook ask prompts even for an allowed tool', async () => {
    sb.settings({
      PreToolUse: [
        { matcher: 'Bash', hooks: [hook(sb.log, pre({ permissionDecision: 'allow' }), { if: 'Bash(echo a)' })] },
        { matcher: 'Read', hooks: [hook(sb.log, pre({ permissionDecision: 'ask', permissionDecisionReason: 'check reads' }))] },
      ],
    });
    sb.dir.write('ws/f.txt', 'hi\n');
    const asked: string[] = [];
    const s = await sb.session({
      model: scriptedModel([
        { toolCalls: [bash('echo a', 'a'), { id: 'b', name: 'Read', input: { file_path: `${sb.ws}/f.txt` } }] },
        { text: 'done' },
      ]),
      permissions: { ask: ['Bash(echo *)'] },
      toolConcurrency: 'serial',
      prompter: {
        confirmTool: async (r) => {
          asked.push(`${r.toolName}: ${r.reason}`);
          return { behavior: 'allow' };
        },
      },
    });
    await s.submit('go');
    expect(asked).toEqual(['Bash: permission rule Bash(echo *) asks for confirmation', 'Read: check reads']);
  });
});

describe('modes', () => {
  it('plan mode fires PreToolUse/PostToolUse as Claude Code does (a deny is honoured)', async () => {
    sb.settings({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            hook(sb.log, pre({ permissionDecision: 'deny', permissionDecisionReason: 'not while planning' }), { if: 'Bash(echo deny)' }),
          ],
        },
        { hooks: [hook(sb.log)] },
      ],
      PostToolUse: [{ hooks: [hook(sb.log)] }],
      PermissionRequest: [
        { hooks: [hook(sb.log, json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }))] },
      ],
    });
    const s = await sb.session({
      mode: 'plan',
      model: scriptedModel([{ toolCalls: [bash('echo deny', 'a'), bash('echo planning', 'b')] }, { text: 'plan ready' }]),
      toolConcurrency: 'serial',
    });
    const r = await s.submit('plan it');
    expect(r.status).toBe('completed');
    expect(sb.events().filter((e) => e === 'PreToolUse' || e === 'PostToolUse')).toEqual(['PreToolUse', 'PreToolUse', 'PostToolUse']);
    const tools = s.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools[0]).toContain('not while planning');
    expect(tools[1]).toBe('planning\n');
  });

  it("plan mode under skipToolHooksInPlanMode (Blade's rule) skips PreToolUse/PostToolUse, refuses edits, and still runs PermissionRequest and Stop hooks", async () => {
    sb.settings({
      PreToolUse: [{ hooks: [hook(sb.log)] }],
      PostToolUse: [{ hooks: [hook(sb.log)] }],
      PermissionRequest: [
        { hooks: [hook(sb.log, json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }))] },
      ],
      Stop: [{ hooks: [hook(sb.log)] }],
    });
    const s = await sb.session({
      mode: 'plan',
      engineOptions: { skipToolHooksInPlanMode: true },
      model: scriptedModel([
        { toolCalls: [bash('echo planning', 'a'), { id: 'b', name: 'Write', input: { file_path: `${sb.ws}/p.txt`, content: 'x' } }] },
        { text: 'plan ready' },
      ]),
      toolConcurrency: 'serial',
    });
    const r = await s.submit('plan it');
    expect(r.status).toBe('completed');
    expect(sb.events()).toEqual(['PermissionRequest', 'Stop']);
    expect(sb.entries().every((e) => e.permission_mode === 'plan')).toBe(true);
    expect(existsSync(`${sb.ws}/p.txt`)).toBe(false);
    const tools = s.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools[0]).toBe('planning\n');
    expect(tools[1]).toContain('plan mode');
  });

  it('yolo: a PreToolUse ask becomes allow (no PermissionRequest), a deny and a rewrite stay', async () => {
    sb.settings({
      PreToolUse: [
        { matcher: 'Bash', hooks: [hook(sb.log, pre({ permissionDecision: 'ask' }), { if: 'Bash(echo ask)' })] },
        {
          matcher: 'Bash',
          hooks: [hook(sb.log, pre({ permissionDecision: 'deny', permissionDecisionReason: 'still no' }), { if: 'Bash(echo deny)' })],
        },
        { matcher: 'Bash', hooks: [hook(sb.log, pre({ updatedInput: { command: 'echo rewritten' } }), { if: 'Bash(echo rewrite)' })] },
      ],
      PermissionRequest: [{ hooks: [hook(sb.log)] }],
    });
    const s = await sb.session({
      mode: 'yolo',
      model: scriptedModel([{ toolCalls: [bash('echo ask', 'a'), bash('echo deny', 'b'), bash('echo rewrite', 'c')] }, { text: 'done' }]),
      toolConcurrency: 'serial',
    });
    await s.submit('go');
    expect(sb.events()).not.toContain('PermissionRequest');
    const tools = s.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools).toEqual(['ask\n', expect.stringContaining('still no'), 'rewritten\n']);
  });

  it('auto mode: a call the classifier denies fires PermissionDenied; retry:true tells the model it may retry', async () => {
    sb.settings({
      PermissionDenied: [{ hooks: [hook(sb.log, json({ hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true } }))] }],
      PermissionResult: [{ hooks: [hook(sb.log)] }],
    });
    const s = await sb.session({
      mode: 'auto',
      model: scriptedModel([{ toolCalls: [bash(`touch ${sb.ws}/x`)] }, { text: 'done' }]),
      autoClassifier: async () => ({ allow: false, reason: 'Blocked by classifier' }),
    });
    await s.submit('go');
    const denied = sb.entries().find((e) => e.hook_event_name === 'PermissionDenied')!;
    expect(denied).toMatchObject({ tool_name: 'Bash', reason: 'Blocked by classifier', permission_mode: 'auto', tool_use_id: 't1' });
    expect(sb.entries().find((e) => e.hook_event_name === 'PermissionResult')).toMatchObject({ decision: 'deny', tool_use_id: 't1' });
    expect(s.messages.find((m) => m.role === 'tool')!.content).toContain('may retry');
    expect(existsSync(`${sb.ws}/x`)).toBe(false);
  });

  it('acceptEdits allows file edits without asking; default mode asks for them', async () => {
    const file = `${sb.ws}/e.txt`;
    const s = await sb.session({
      mode: 'acceptEdits',
      model: scriptedModel([{ toolCalls: [{ id: 'w', name: 'Write', input: { file_path: file, content: 'ok' } }] }, { text: 'done' }]),
    });
    await s.submit('go');
    expect(readFileSync(file, 'utf8')).toBe('ok');
    await s.end();
    const s2 = await sb.session({
      model: scriptedModel([
        { toolCalls: [{ id: 'w', name: 'Write', input: { file_path: `${sb.ws}/f.txt`, content: 'no' } }] },
        { text: 'done' },
      ]),
    });
    await s2.submit('go');
    expect(existsSync(`${sb.ws}/f.txt`)).toBe(false);
  });
});
