/**
 * One end-to-end test (or more) per catalog event the host runtime fires, each with real hook
 * processes configured in the workspace's .claude/settings.json. PermissionRequest,
 * PermissionResult, PermissionDenied and Notification are also covered by pipeline-order.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CompactionBlockedError, scriptedModel, type TraceEntry } from '../../../src/host/index.js';
import { hook, useHostSandbox, json, until, allowAll } from '../helpers.js';

const sb = useHostSandbox();

describe('sessions', () => {
  it('SessionStart adds context and environment, frozen before the tools run; later hooks do not get it (as in Claude Code)', async () => {
    sb.settings({
      SessionStart: [
        {
          matcher: 'startup',
          hooks: [{ type: 'command', command: `echo 'export FROM_START=yes' >> "$CLAUDE_ENV_FILE"; echo 'the branch is main'` }],
        },
      ],
      PreToolUse: [{ hooks: [hook(sb.log)] }],
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 't1', name: 'Bash', input: { command: 'echo "env=$FROM_START"' } }] },
      { text: 'done' },
    ]);
    const s = await sb.session({ model, prompter: allowAll });
    expect(s.env).toEqual({ FROM_START: 'yes' });
    expect(Object.isFrozen(s.env)).toBe(true);
    await s.submit('go');
    expect(model.requests[0]!.messages[0]!.content).toContain('the branch is main');
    expect(s.messages.find((m) => m.role === 'tool')!.content).toBe('env=yes\n');
    // Claude Code 2.1.328: CLAUDE_ENV_FILE exports reach later Bash commands, not later hooks.
    expect(sb.entries()[0]!.__env).toEqual({ FROM_START: null });
  });

  it('SessionStart continue:false refuses the session: nothing else runs', async () => {
    sb.settings({
      SessionStart: [{ hooks: [hook(sb.log, json({ continue: false, stopReason: 'not today' }))] }],
      SessionEnd: [{ hooks: [hook(sb.log)] }],
    });
    let mcpStarted = false;
    const r = await sb.start({
      model: scriptedModel([]),
      mcp: async () => {
        mcpStarted = true;
        return { tools: [], close: async () => {} };
      },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toBe('not today');
    expect(mcpStarted).toBe(false);
    expect(sb.events()).toEqual(['SessionStart']);
  });

  it('the MCP provider starts after SessionStart, with the frozen environment', async () => {
    sb.settings({ SessionStart: [{ hooks: [{ type: 'command', command: `echo 'export TOKEN=t1' >> "$CLAUDE_ENV_FILE"` }] }] });
    let seen: Readonly<Record<string, string>> | undefined;
    const s = await sb.session({
      model: scriptedModel([]),
      mcp: async (ctx) => {
        seen = ctx.env;
        return { tools: [], close: async () => {} };
      },
    });
    expect(seen).toEqual({ TOKEN: 't1' });
    expect(Object.isFrozen(seen)).toBe(true);
    expect(s.env).toBe(seen);
  });

  it('SessionEnd runs on end() with the reason; end() is idempotent', async () => {
    sb.settings({ SessionEnd: [{ hooks: [hook(sb.log)] }] });
    const s = await sb.session({ model: scriptedModel([]) });
    await s.end('prompt_input_exit');
    await s.end('other');
    expect(sb.entries().map((e) => [e.hook_event_name, e.reason])).toEqual([['SessionEnd', 'prompt_input_exit']]);
    expect(s.ended).toBe(true);
    await expect(s.submit('late')).rejects.toThrow(/ended/);
  });

  it('SessionEnd has its own budget: a slow hook is aborted when it is spent', async () => {
    sb.settings({ SessionEnd: [{ hooks: [hook(sb.log, 'sleep-mark:2000', { timeout: 30 })] }] });
    const s = await sb.session({ model: scriptedModel([]), sessionEndBudgetMs: 800 });
    await s.end();
    expect(sb.events()).toEqual(['SessionEnd']);
    await new Promise((r) => setTimeout(r, 1500));
    expect(sb.events()).toEqual(['SessionEnd']); // killed: it never logged __done
  });

  it('SessionHeartbeat fires at the configured interval', async () => {
    sb.settings({ SessionHeartbeat: [{ hooks: [hook(sb.log)] }] });
    const s = await sb.session({ model: scriptedModel([]), heartbeatMs: 150 });
    await until(() => sb.events().filter((e) => e === 'SessionHeartbeat').length >= 2);
    await s.end();
    const beats = sb.entries().filter((e) => e.hook_event_name === 'SessionHeartbeat');
    expect(beats[0]).toMatchObject({ interval_ms: 150 });
    expect(Number(beats[1]!.uptime_ms)).toBeGreaterThan(Number(beats[0]!.uptime_ms));
  });

  it('InstructionsLoaded fires for the workspace CLAUDE.md, which joins the context', async () => {
    sb.dir.write('ws/CLAUDE.md', 'Use tabs.\n');
    sb.settings({ InstructionsLoaded: [{ hooks: [hook(sb.log)] }] });
    const model = scriptedModel([{ text: 'ok' }]);
    const s = await sb.session({ model });
    await s.submit('hi');
    expect(sb.entries()[0]).toMatchObject({
      hook_event_name: 'InstructionsLoaded',
      memory_type: 'Project',
      load_reason: 'session_start',
      file_path: `${s.workspace}/CLAUDE.md`,
    });
    expect(model.requests[0]!.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('Use tabs.') });
  });
});

describe('prompts and turns', () => {
  it('UserPromptSubmit block erases the prompt: the model never sees it', async () => {
    sb.settings({ UserPromptSubmit: [{ hooks: [hook(sb.log, 'exit2:no secrets in prompts')] }] });
    const model = scriptedModel([{ text: 'never' }]);
    const s = await sb.session({ model });
    const r = await s.submit('my password is hunter2');
    expect(r).toMatchObject({ status: 'blocked', reason: 'no secrets in prompts' });
    expect(model.requests).toHaveLength(0);
    expect(JSON.stringify(s.messages)).not.toContain('hunter2');
  });

  it('UserPromptSubmit plain stdout and additionalContext are injected next to the prompt; TurnStarted follows', async () => {
    sb.settings({
      UserPromptSubmit: [
        {
          hooks: [
            hook(sb.log, 'text:plain context'),
            hook(sb.log, json({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'json context' } })),
          ],
        },
      ],
      TurnStarted: [{ hooks: [hook(sb.log)] }],
    });
    const model = scriptedModel([{ text: 'ok' }]);
    const s = await sb.session({ model });
    await s.submit('hello');
    const sent = model.requests[0]!.messages.map((m) => m.content).join('\n');
    expect(sent).toContain('hello');
    expect(sent).toContain('plain context');
    expect(sent).toContain('json context');
    expect(sb.events()).toEqual(['UserPromptSubmit', 'UserPromptSubmit', 'TurnStarted']);
    expect(typeof sb.entries()[2]!.turn_id).toBe('string');
  });

  it('UserPromptQueued fires for a prompt submitted while a turn runs; it runs after', async () => {
    sb.settings({ UserPromptQueued: [{ hooks: [hook(sb.log)] }], UserPromptSubmit: [{ hooks: [hook(sb.log)] }] });
    const s = await sb.session({
      model: scriptedModel([
        { toolCalls: [{ name: 'Bash', input: { command: 'sleep 0.3' } }] },
        { text: 'first done' },
        { text: 'second done' },
      ]),
      prompter: allowAll,
    });
    const first = s.submit('first');
    await until(() => sb.events().includes('UserPromptSubmit'));
    const second = s.submit('second');
    expect((await first).finalText).toBe('first done');
    expect((await second).finalText).toBe('second done');
    expect(sb.entries().map((e) => [e.hook_event_name, e.prompt])).toEqual([
      ['UserPromptSubmit', 'first'],
      ['UserPromptQueued', 'second'],
      ['UserPromptSubmit', 'second'],
    ]);
  });

  it('MessageDisplay replaces what is shown; the transcript keeps the original', async () => {
    sb.settings({
      MessageDisplay: [
        { hooks: [hook(sb.log, json({ hookSpecificOutput: { hookEventName: 'MessageDisplay', displayContent: 'shown text' } }))] },
      ],
    });
    const shown: string[] = [];
    const s = await sb.session({
      model: scriptedModel([{ text: 'original text' }]),
      onTrace: (t: TraceEntry) => t.kind === 'display' && shown.push(t.text),
    });
    await s.submit('hi');
    expect(shown).toEqual(['shown text']);
    expect(s.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'original text' });
    expect(sb.entries()[0]).toMatchObject({ index: 0, final: true, delta: 'original text' });
  });
});

describe('tool results', () => {
  it('PostToolUse gets tool_use_id and duration_ms; updatedToolOutput replaces what the model reads', async () => {
    sb.settings({
      PostToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            hook(
              sb.log,
              json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'redacted', additionalContext: 'ran fine' } }),
            ),
          ],
        },
      ],
    });
    const s = await sb.session({
      model: scriptedModel([{ toolCalls: [{ id: 'toolu_9', name: 'Bash', input: { command: 'echo secret' } }] }, { text: 'done' }]),
      prompter: allowAll,
    });
    await s.submit('go');
    const post = sb.entries()[0]!;
    expect(post).toMatchObject({ hook_event_name: 'PostToolUse', tool_use_id: 'toolu_9', tool_response: { stdout: 'secret\n' } });
    expect(typeof post.duration_ms).toBe('number');
    const tool = s.messages.find((m) => m.role === 'tool')!;
    expect(tool.content).toContain('redacted');
    expect(tool.content).toContain('ran fine');
    expect(tool.content).not.toContain('secret');
  });

  it('PostToolUseFailure fires for a failing tool with the error, tool_use_id and duration_ms', async () => {
    sb.settings({
      PostToolUse: [{ hooks: [hook(sb.log)] }],
      PostToolUseFailure: [
        {
          hooks: [hook(sb.log, json({ hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'try make clean' } }))],
        },
      ],
    });
    const s = await sb.session({
      model: scriptedModel([
        { toolCalls: [{ id: 'toolu_f', name: 'Bash', input: { command: 'echo broken >&2; exit 3' } }] },
        { text: 'done' },
      ]),
      prompter: allowAll,
    });
    await s.submit('go');
    expect(sb.events()).toEqual(['PostToolUseFailure']);
    const f = sb.entries()[0]!;
    expect(f).toMatchObject({ tool_use_id: 'toolu_f', tool_name: 'Bash' });
    expect(String(f.error)).toMatch(/^Exit code 3\nbroken/);
    expect(typeof f.duration_ms).toBe('number');
    expect(s.messages.find((m) => m.role === 'tool')!.content).toContain('try make clean');
  });

  it('PostToolBatch sees every call of the batch once and injects context before the next model call', async () => {
    sb.dir.write('ws/a.txt', 'A\n');
    sb.dir.write('ws/b.txt', 'B\n');
    sb.settings({
      PostToolBatch: [
        { hooks: [hook(sb.log, json({ hookSpecificOutput: { hookEventName: 'PostToolBatch', additionalContext: 'both read' } }))] },
      ],
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'r1', name: 'Read', input: { file_path: `${sb.ws}/a.txt` } },
          { id: 'r2', name: 'Read', input: { file_path: `${sb.ws}/b.txt` } },
        ],
      },
      { text: 'done' },
    ]);
    const s = await sb.session({ model });
    await s.submit('read both');
    const batch = sb.entries()[0]! as { tool_calls: Array<Record<string, unknown>> };
    expect(batch.tool_calls.map((c) => [c.tool_use_id, c.tool_response])).toEqual([
      ['r1', '     1\tA'],
      ['r2', '     1\tB'],
    ]);
    expect(model.requests[1]!.messages.at(-1)!.content).toContain('both read');
  });

  it('PostToolBatch decision:block stops the loop before the next model call', async () => {
    sb.settings({ PostToolBatch: [{ hooks: [hook(sb.log, json({ decision: 'block', reason: 'enough for today' }))] }] });
    const model = scriptedModel([{ toolCalls: [{ name: 'Glob', input: { pattern: '*' } }] }, { text: 'never' }]);
    const s = await sb.session({ model });
    const r = await s.submit('go');
    expect(r).toMatchObject({ status: 'stopped', reason: 'enough for today' });
    expect(model.requests).toHaveLength(1);
  });
});

describe('Stop', () => {
  it('a block continues the loop with the reason as a user message; stop_hook_active is set on the next Stop', async () => {
    sb.settings({ Stop: [{ hooks: [hook(sb.log, 'stop-once:run the tests first')] }] });
    const model = scriptedModel([{ text: 'finished' }, { text: 'tests pass, finished' }]);
    const s = await sb.session({ model });
    const r = await s.submit('work');
    expect(r).toMatchObject({ status: 'completed', finalText: 'tests pass, finished' });
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'run the tests first' });
    expect(sb.entries().map((e) => [e.stop_hook_active, e.last_assistant_message])).toEqual([
      [false, 'finished'],
      [true, 'tests pass, finished'],
    ]);
  });

  it('consecutive blocks are capped by the engine: the agent stops anyway', async () => {
    sb.settings({ Stop: [{ hooks: [hook(sb.log, json({ decision: 'block', reason: 'again' }))] }] });
    const model = scriptedModel([{ text: '1' }, { text: '2' }, { text: '3' }, { text: '4' }]);
    const s = await sb.session({ model, engineOptions: { stopHookMaxConsecutiveBlocks: 2 } });
    const r = await s.submit('work');
    expect(r.status).toBe('completed');
    expect(sb.events()).toEqual(['Stop', 'Stop', 'Stop']);
    expect(model.remaining).toBe(1);
  });

  it('a failing or timed-out Stop hook means "allow stop", even with failureBehavior deny', async () => {
    sb.settings({
      Stop: [
        { hooks: [hook(sb.log, 'fail', { failureBehavior: 'deny' }), hook(sb.log, 'sleep:3000', { timeout: 1, timeoutBehavior: 'deny' })] },
      ],
    });
    const model = scriptedModel([{ text: 'done' }, { text: 'never' }]);
    const s = await sb.session({ model });
    const r = await s.submit('work');
    expect(r.status).toBe('completed');
    expect(model.remaining).toBe(1);
  });

  it('the outer guard ends a Stop hook that outlives it: the agent stops', async () => {
    sb.settings({ Stop: [{ hooks: [hook(sb.log, 'sleep-mark:3000', { timeout: 60 })] }] });
    const warnings: string[] = [];
    const model = scriptedModel([{ text: 'done' }, { text: 'never' }]);
    const s = await sb.session({ model, stopGuardMs: 300, onTrace: (t) => t.kind === 'warning' && warnings.push(t.text) });
    const r = await s.submit('work');
    expect(r.status).toBe('completed');
    expect(warnings.some((w) => /300 ms/.test(w))).toBe(true);
  });

  it('continue:false from a Stop hook stops the agent', async () => {
    sb.settings({ Stop: [{ hooks: [hook(sb.log, json({ continue: false, stopReason: 'halt', decision: 'block', reason: 'x' }))] }] });
    const s = await sb.session({ model: scriptedModel([{ text: 'done' }, { text: 'never' }]) });
    expect(await s.submit('work')).toMatchObject({ status: 'stopped', reason: 'halt' });
  });

  it('StopFailure fires instead of Stop when the model call fails', async () => {
    sb.settings({ Stop: [{ hooks: [hook(sb.log)] }], StopFailure: [{ matcher: 'rate_limit', hooks: [hook(sb.log)] }] });
    const s = await sb.session({ model: scriptedModel([{ error: { kind: 'rate_limit', message: '429 Too Many Requests' } }]) });
    const r = await s.submit('work');
    expect(r).toMatchObject({ status: 'failed', error: 'rate_limit' });
    expect(sb.entries()).toEqual([
      expect.objectContaining({ hook_event_name: 'StopFailure', error: 'rate_limit', error_details: '429 Too Many Requests' }),
    ]);
  });

  it('Interrupt fires when the turn is aborted; the running tool is killed; Stop does not run', async () => {
    sb.settings({
      Interrupt: [{ hooks: [hook(sb.log)] }],
      Stop: [{ hooks: [hook(sb.log)] }],
      PostToolUseFailure: [{ hooks: [hook(sb.log)] }],
    });
    const s = await sb.session({
      model: scriptedModel([{ toolCalls: [{ name: 'Bash', input: { command: `sleep 10; touch ${sb.ws}/late` } }] }, { text: 'never' }]),
      prompter: allowAll,
    });
    const turn = s.submit('work');
    await new Promise((r) => setTimeout(r, 400));
    s.interrupt('user pressed Esc');
    const r = await turn;
    expect(r).toMatchObject({ status: 'interrupted', reason: 'user pressed Esc' });
    expect(sb.events()).toEqual(['PostToolUseFailure', 'Interrupt']);
    expect(sb.entries()[0]).toMatchObject({ is_interrupt: true });
    expect(sb.entries()[1]).toMatchObject({ reason: 'user pressed Esc' });
    expect(existsSync(`${sb.ws}/late`)).toBe(false);
  });
});

describe('subagents', () => {
  it('SubagentStart adds context; a SubagentStop block re-runs the subagent with the reason and its messages', async () => {
    sb.settings({
      SubagentStart: [
        {
          matcher: 'general-purpose',
          hooks: [hook(sb.log, json({ hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'be brief' } }))],
        },
      ],
      SubagentStop: [{ hooks: [hook(sb.log, 'stop-once:also list the files')] }],
      PreToolUse: [{ matcher: 'Glob', hooks: [hook(sb.log)] }],
      Stop: [{ hooks: [hook(sb.log)] }],
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'task1', name: 'Task', input: { description: 'look', prompt: 'summarize the repo', subagent_type: 'general-purpose' } },
        ],
      },
      { text: 'repo is small' }, // subagent, first run
      { toolCalls: [{ name: 'Glob', input: { pattern: '*' } }] }, // subagent, re-run
      { text: 'repo is small; no files' },
      { text: 'parent done' },
    ]);
    const s = await sb.session({ model });
    const r = await s.submit('delegate');
    expect(r.finalText).toBe('parent done');
    const events = sb.entries().map((e) => e.hook_event_name);
    expect(events).toEqual(['SubagentStart', 'SubagentStop', 'PreToolUse', 'SubagentStop', 'Stop']);
    const [start, stop1, pre, stop2] = sb.entries();
    expect(start).toMatchObject({ agent_type: 'general-purpose' });
    expect(stop1).toMatchObject({ agent_id: start!.agent_id, stop_hook_active: false, last_assistant_message: 'repo is small' });
    expect(pre).toMatchObject({ agent_id: start!.agent_id, agent_type: 'general-purpose' });
    expect(stop2).toMatchObject({ stop_hook_active: true });
    // The re-run sees its existing messages plus the reason.
    const rerun = model.requests[2]!;
    expect(rerun.agent).toMatchObject({ type: 'general-purpose' });
    expect(rerun.messages.map((m) => m.content)).toEqual([
      expect.stringContaining('be brief'),
      'summarize the repo',
      'repo is small',
      'also list the files',
    ]);
    expect(s.messages.find((m) => m.role === 'tool')!.content).toBe('repo is small; no files');
  });
});

describe('compaction', () => {
  it('PreCompact decision:block raises CompactionBlockedError; PostCompact does not run', async () => {
    sb.settings({
      PreCompact: [{ matcher: 'manual', hooks: [hook(sb.log, json({ decision: 'block', reason: 'keep history' }))] }],
      PostCompact: [{ hooks: [hook(sb.log)] }],
    });
    const s = await sb.session({ model: scriptedModel([{ text: 'hi' }]) });
    await s.submit('hello');
    const before = s.messages.length;
    await expect(s.compact()).rejects.toBeInstanceOf(CompactionBlockedError);
    await expect(s.compact()).rejects.toThrow('keep history');
    expect(s.messages.length).toBe(before);
    expect(sb.events()).toEqual(['PreCompact', 'PreCompact']);
  });

  it('blockCompaction:true and exit 2 block too', async () => {
    sb.settings({
      PreCompact: [{ hooks: [hook(sb.log, json({ hookSpecificOutput: { hookEventName: 'PreCompact', blockCompaction: true } }))] }],
    });
    const s = await sb.session({ model: scriptedModel([]) });
    await expect(s.compact()).rejects.toBeInstanceOf(CompactionBlockedError);
    await s.end();
    sb.settings({ PreCompact: [{ hooks: [hook(sb.log, 'exit2:not now')] }] });
    const s2 = await sb.session({ model: scriptedModel([]) });
    await expect(s2.compact()).rejects.toThrow('not now');
  });

  it('a failing PreCompact hook fails open; PostCompact gets the summary', async () => {
    sb.settings({ PreCompact: [{ hooks: [hook(sb.log, 'fail', { failureBehavior: 'deny' })] }], PostCompact: [{ hooks: [hook(sb.log)] }] });
    const s = await sb.session({ model: scriptedModel([{ text: 'answer one' }]) });
    await s.submit('question one');
    const r = await s.compact('focus on tests');
    expect(r.trigger).toBe('manual');
    expect(s.messages).toHaveLength(1);
    const post = sb.entries().find((e) => e.hook_event_name === 'PostCompact')!;
    expect(post).toMatchObject({ trigger: 'manual' });
    expect(String(post.compact_summary)).toContain('question one');
    expect(String(post.compact_summary)).toContain('focus on tests');
  });

  it('auto-compaction that a hook blocks is skipped; the conversation goes on uncompacted', async () => {
    sb.settings({ PreCompact: [{ matcher: 'auto', hooks: [hook(sb.log, 'exit2:no')] }] });
    const s = await sb.session({ model: scriptedModel([{ text: 'first' }, { text: 'second' }]), autoCompactChars: 10 });
    await s.submit('a long enough prompt');
    const r = await s.submit('and another one');
    expect(r.finalText).toBe('second');
    expect(sb.entries().map((e) => e.trigger)).toEqual(['auto', 'auto']);
    expect(s.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['a long enough prompt', 'and another one']);
  });
});

describe('transcripts', () => {
  it('hooks get transcript_path; the transcript holds the conversation', async () => {
    sb.settings({ Stop: [{ hooks: [hook(sb.log)] }] });
    const dir = sb.dir.path('transcripts');
    const s = await sb.session({ model: scriptedModel([{ text: 'hi there' }]), transcriptDir: dir });
    await s.submit('hello');
    const path = String(sb.entries()[0]!.transcript_path);
    expect(path).toBe(`${dir}/${s.id}.jsonl`);
    expect(readFileSync(path, 'utf8')).toContain('hi there');
  });
});
