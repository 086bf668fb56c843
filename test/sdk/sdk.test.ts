import { describe, expect, it } from 'vitest';
import { catalog, EVENT_NAMES, type EventName } from '../../src/events/catalog.js';
import type { EventSpec } from '../../src/events/spec.js';
import { outputFields } from '../../src/events/honoured.js';
import { strictOutputSchema } from '../../src/events/strict-output.js';
import { parseExecution } from '../../src/parse/output.js';
import {
  addContext,
  allow,
  ask,
  block,
  defer,
  deny,
  message,
  rewrite,
  runHook,
  stop,
  checkOutput,
  type HookHandler,
} from '../../src/sdk/index.js';
import { sampleInput } from '../../src/toolkit/sample.js';

/** What an agent sends: common fields + the event's own (no engine-only fields). */
function payload(event: EventName, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: 's1',
    transcript_path: '/t.jsonl',
    cwd: '/w',
    hook_event_name: event,
    ...sampleInput(event),
    ...extra,
  });
}

const run = <E extends EventName>(event: E, handler: HookHandler<E>, extra?: Record<string, unknown>) =>
  runHook(event, handler as never, payload(event, extra));

/** What the engine makes of the SDK's output (exit code + stdout + stderr). */
function engineView(event: EventName, r: { exitCode: number; stdout: string; stderr: string }) {
  return parseExecution(event, {
    status: 'completed',
    exitCode: r.exitCode,
    stdout: r.stdout,
    stderr: r.stderr,
    stdoutTruncated: false,
    stderrTruncated: false,
    stdinTruncated: false,
    durationMs: 1,
  });
}

describe('defineHook / runHook: input', () => {
  it.each(EVENT_NAMES)('accepts a valid %s input and passes it to the handler', async (event) => {
    let seen: unknown;
    const r = await run(event, (input) => {
      seen = input;
      return undefined;
    });
    expect(r).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect((seen as { hook_event_name: string }).hook_event_name).toBe(event);
  });

  it('accepts the engine-only fields when present', async () => {
    const r = await run('Stop', () => undefined, { hook_execution_id: 'x', timestamp: '2026-01-01T00:00:00Z' });
    expect(r.exitCode).toBe(0);
  });

  it('rejects an input for another event, naming the field (exit 1)', async () => {
    const r = await runHook('Stop', () => undefined, payload('PreToolUse'));
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('invalid Stop input');
    expect(r.stderr).toContain('hook_event_name');
    expect(r.stderr).toContain('stop_hook_active');
  });

  it('rejects a missing required field, naming it', async () => {
    const r = await runHook(
      'PreToolUse',
      () => undefined,
      JSON.stringify({ session_id: 's', transcript_path: '', cwd: '/', hook_event_name: 'PreToolUse', tool_name: 'Bash' }),
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/invalid PreToolUse input: tool_input: /);
  });

  it('reports empty, non-JSON and non-object stdin (exit 1, one line)', async () => {
    for (const [text, msg] of [
      ['', 'no payload on stdin'],
      ['{oops', 'stdin is not JSON'],
      ['[1]', 'stdin must be a JSON object'],
    ] as const) {
      const r = await runHook('Stop', () => undefined, text);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(msg);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('rejects an unknown event (JavaScript callers have no types)', async () => {
    const r = await runHook('PreTooluse' as EventName, () => undefined, '{}');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('unknown event "PreTooluse"');
  });
});

describe('defineHook / runHook: output validation', () => {
  it('rejects a misspelled hookSpecificOutput field, naming it and the nearest valid name', async () => {
    const r = await run('PreToolUse', () => ({ hookSpecificOutput: { permisionDecision: 'deny' } }) as never);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'invalid PreToolUse output: hookSpecificOutput.permisionDecision: unknown field (did you mean "permissionDecision"?)',
    );
  });

  it('rejects a misspelled top-level field', async () => {
    const r = await run('Stop', () => ({ decison: 'block', reason: 'x' }) as never);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('decison: unknown field (did you mean "decision"?)');
  });

  it('rejects a field the event does not honour (continue on Notification)', async () => {
    const r = await run('Notification', () => ({ continue: false }) as never);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('continue: not honoured by Notification');
  });

  it("rejects another event's field (permissionDecision on PostToolUse)", async () => {
    const r = await run('PostToolUse', () => ({ hookSpecificOutput: { permissionDecision: 'deny' } }) as never);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('hookSpecificOutput.permissionDecision: not honoured by PostToolUse (a field of PreToolUse');
  });

  it('rejects a nested typo (PermissionRequest decision.behaviour)', async () => {
    const r = await run('PermissionRequest', () => ({ hookSpecificOutput: { decision: { behaviour: 'allow' } } }) as never);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('hookSpecificOutput.decision.behaviour: unknown field (did you mean "behavior"?)');
  });

  it('rejects a wrong value, naming the field', async () => {
    const r = await run('PreToolUse', () => ({ hookSpecificOutput: { permissionDecision: 'dney' } }) as never);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/hookSpecificOutput\.permissionDecision: /);
  });

  it('rejects a wrong hookEventName', async () => {
    const r = await run(
      'PreToolUse',
      () => ({ hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } }) as never,
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('hookSpecificOutput.hookEventName');
  });

  it('fills hookEventName and prints one JSON line', async () => {
    const r = await runHook(
      'PreToolUse',
      () => ({ hookSpecificOutput: { permissionDecision: 'ask' }, systemMessage: 'hi' }),
      payload('PreToolUse'),
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout.endsWith('\n')).toBe(true);
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' },
      systemMessage: 'hi',
    });
  });

  it('a handler that throws exits 1 with its message on the first line of stderr', async () => {
    const r = await run('Stop', () => {
      throw new Error('boom');
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('agent-hooks/sdk: Stop handler threw: boom');
  });

  it('a handler returning a non-object is an error', async () => {
    const r = await run('Stop', () => 'block' as never);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('the handler returned string');
  });

  it.each(EVENT_NAMES)('the strict %s schema accepts exactly the honoured fields', (event) => {
    const fields = outputFields(event);
    const schema = strictOutputSchema(event) as unknown as { shape: Record<string, unknown> };
    expect(new Set(Object.keys(schema.shape))).toEqual(fields.top);
    // Every honoured top-level string/boolean field accepted; a bogus key refused.
    expect(checkOutput(event, {})).toBeUndefined();
    expect(checkOutput(event, { bogusField: 1 })).toContain('bogusField');
  });
});

describe('output helpers map to each event', () => {
  const cases: Array<
    [string, EventName, HookHandler<never>, (p: ReturnType<typeof engineView>, r: { exitCode: number; stdout: string }) => void]
  > = [
    ['deny on PreToolUse', 'PreToolUse', () => deny('nope'), (p) => expect(p).toMatchObject({ verdict: 'deny', reason: 'nope' })],
    ['ask on PreToolUse', 'PreToolUse', () => ask('check'), (p) => expect(p).toMatchObject({ verdict: 'ask', reason: 'check' })],
    ['allow on PreToolUse', 'PreToolUse', () => allow(), (p) => expect(p.verdict).toBe('allow')],
    ['defer on PreToolUse', 'PreToolUse', () => defer(), (p) => expect(p.verdict).toBe('defer')],
    ['block on PreToolUse = deny', 'PreToolUse', () => block('no'), (p) => expect(p).toMatchObject({ verdict: 'deny', reason: 'no' })],
    [
      'rewrite + context on PreToolUse',
      'PreToolUse',
      () => [rewrite({ command: 'ls -la' }), addContext('a'), addContext('b')],
      (p) => expect(p).toMatchObject({ updatedInput: { command: 'ls -la' }, additionalContext: 'a\nb' }),
    ],
    [
      'deny on PermissionRequest',
      'PermissionRequest',
      () => deny('not now'),
      (p) => expect(p).toMatchObject({ verdict: 'deny', reason: 'not now' }),
    ],
    [
      'rewrite on PermissionRequest = allow with updatedInput',
      'PermissionRequest',
      () => rewrite({ command: 'x' }),
      (p) => expect(p).toMatchObject({ verdict: 'allow', updatedInput: { command: 'x' } }),
    ],
    ['block on Stop', 'Stop', () => block('keep going'), (p) => expect(p).toMatchObject({ verdict: 'block', reason: 'keep going' })],
    [
      'deny on UserPromptSubmit = block',
      'UserPromptSubmit',
      () => deny('no'),
      (p) => expect(p).toMatchObject({ verdict: 'block', reason: 'no' }),
    ],
    ['context on SessionStart', 'SessionStart', () => addContext('ctx'), (p) => expect(p.additionalContext).toBe('ctx')],
    ['block on PreCompact', 'PreCompact', () => block('not yet'), (p) => expect(p).toMatchObject({ verdict: 'block', reason: 'not yet' })],
    ['deny on Elicitation = decline', 'Elicitation', () => deny('no'), (p) => expect(p.specific.action).toBe('decline')],
    [
      'block on TeammateIdle = exit 2 with the reason',
      'TeammateIdle',
      () => block('keep working'),
      (p, r) => {
        expect(r.exitCode).toBe(2);
        expect(p).toMatchObject({ outcome: 'blocking', verdict: 'block', reason: 'keep working' });
      },
    ],
    [
      'block on TaskCompleted = exit 2',
      'TaskCompleted',
      () => block('not done'),
      (p, r) => expect([r.exitCode, p.reason]).toEqual([2, 'not done']),
    ],
    [
      'block on WorktreeCreate = exit 2',
      'WorktreeCreate',
      () => block('no worktrees'),
      (p, r) => expect([r.exitCode, p.verdict]).toEqual([2, 'block']),
    ],
    ['stop on PostToolUse', 'PostToolUse', () => stop('halt'), (p) => expect(p).toMatchObject({ continue: false, stopReason: 'halt' })],
    ['message on CwdChanged (keeps systemMessage)', 'CwdChanged', () => message('moved'), (p) => expect(p.systemMessage).toBe('moved')],
  ];
  it.each(cases)('%s', async (_name, event, handler, check) => {
    const r = await run(event, handler as never);
    expect(r.stderr === '' || r.exitCode === 2).toBe(true);
    expect(r.exitCode).not.toBe(1);
    const parsed = engineView(event, r);
    expect(parsed.lint).toBeUndefined();
    check(parsed, r);
  });

  const refused: Array<[string, EventName, HookHandler<never>, string]> = [
    ['ask on Stop', 'Stop', () => ask(), 'ask() has no effect on Stop: use block(reason)'],
    ['ask on PermissionRequest', 'PermissionRequest', () => ask(), 'ask() has no effect on PermissionRequest: return nothing'],
    ['context on Notification', 'Notification', () => addContext('x'), 'addContext() has no effect on Notification'],
    ['stop on Notification', 'Notification', () => stop(), 'stop() has no effect on Notification'],
    ['deny on Notification', 'Notification', () => deny('x'), 'deny() has no effect on Notification (it cannot block)'],
    ['rewrite on Stop', 'Stop', () => rewrite({}), 'rewrite() has no effect on Stop'],
    ['two decisions', 'PreToolUse', () => [allow(), deny('x')], 'conflicting decisions: allow() and deny()'],
    ['rewrite with deny', 'PreToolUse', () => [rewrite({}), deny('x')], 'rewrite() has no effect together with deny()'],
  ];
  it.each(refused)('refuses %s (exit 1, says why)', async (_name, event, handler, msg) => {
    const r = await run(event, handler as never);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(msg);
  });

  it('every event has at least one helper that works, and its output is lint-clean', async () => {
    for (const event of EVENT_NAMES) {
      const spec = catalog[event] as EventSpec;
      const fields = outputFields(event);
      const helper = fields.specific.has('additionalContext')
        ? addContext('c')
        : spec.topLevelBlock || spec.decision === 'permission'
          ? block('b')
          : fields.top.has('systemMessage')
            ? message('m')
            : undefined;
      if (!helper) continue; // events that read no output at all (only terminalSequence)
      const r = await run(event, () => helper as never);
      expect(r.exitCode, `${event}: ${r.stderr}`).not.toBe(1);
      expect(engineView(event, r).lint, event).toBeUndefined();
    }
  });
});
