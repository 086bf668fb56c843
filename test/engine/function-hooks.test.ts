/**
 * Function hooks and input completion after the dispatch fast path (docs/performance.md):
 * synchronous handlers run without a timer, the AbortSignal is made on first use, and the
 * input is copied key by key instead of spread.
 */
import { describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/engine/engine.js';

const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' });

describe('function hooks', () => {
  it('a synchronous handler gets the completed payload and its result is honoured', async () => {
    const engine = createHookEngine({ cwd: '/tmp', sessionId: 's-1' });
    let seen: Record<string, unknown> | undefined;
    engine.register({
      event: 'PreToolUse',
      fn: (input) => {
        seen = input;
        return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } };
      },
    });
    const d = await engine.run('PreToolUse', bash('ls'));
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(seen).toMatchObject({ hook_event_name: 'PreToolUse', session_id: 's-1', cwd: '/tmp', transcript_path: '', tool_name: 'Bash' });
    expect(typeof seen?.hook_execution_id).toBe('string');
    expect(seen?.hook_execution_id).not.toBe('');
  });

  it('a synchronous throw and an async rejection are errors, and the failure policy applies', async () => {
    for (const fn of [
      () => {
        throw new Error('sync boom');
      },
      async () => {
        throw new Error('async boom');
      },
    ]) {
      const engine = createHookEngine({ cwd: '/tmp' });
      engine.register({ event: 'PreToolUse', failureBehavior: 'deny', fn });
      const d = await engine.run('PreToolUse', bash('ls'));
      expect(d.decision).toBe('deny');
      expect(d.hooks[0]?.error).toMatch(/function hook threw: (sync|async) boom/);
    }
  });

  it('a thenable that is not a Promise is awaited', async () => {
    const engine = createHookEngine({ cwd: '/tmp' });
    engine.register({
      event: 'PreToolUse',
      fn: () => ({
        // biome-ignore lint/suspicious/noThenProperty: a thenable is what this hook must return
        then: (resolve: (v: unknown) => void) =>
          resolve({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' } }),
      }),
    });
    expect((await engine.run('PreToolUse', bash('ls'))).decision).toBe('ask');
  });

  it('a handler may return the string "timeout" without being taken for a timeout', async () => {
    const engine = createHookEngine({ cwd: '/tmp' });
    engine.register({ event: 'UserPromptSubmit', fn: async () => 'timeout' });
    const d = await engine.run('UserPromptSubmit', { prompt: 'hi' });
    expect(d.hooks[0]?.outcome).not.toBe('timeout');
  });

  it('the signal is aborted when read after the caller aborted, and when the hook overruns', async () => {
    const engine = createHookEngine({ cwd: '/tmp' });
    const states: boolean[] = [];
    engine.register({ event: 'PreToolUse', matcher: 'Bash', fn: (_i, ctx) => void states.push(ctx.signal.aborted) });
    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    // The serial loop stops before a hook when the signal is already aborted; fire a parallel event instead.
    engine.register({ event: 'PostToolUse', fn: (_i, ctx) => void states.push(ctx.signal.aborted) });
    await engine.run('PostToolUse', { ...bash('ls'), tool_response: {} }, { signal: controller.signal });
    expect(states).toEqual([true]);

    let late: AbortSignal | undefined;
    const slow = createHookEngine({ cwd: '/tmp' });
    slow.register({
      event: 'PreToolUse',
      timeout: 0.05,
      fn: (_i, ctx) =>
        new Promise((resolve) => {
          // Keep the context, read the signal only after the timeout fired.
          setTimeout(() => {
            late = ctx.signal;
            resolve(undefined);
          }, 150);
        }),
    });
    const d = await slow.run('PreToolUse', bash('ls'));
    expect(d.hooks[0]?.outcome).toBe('timeout');
    await new Promise((r) => setTimeout(r, 200));
    expect(late?.aborted).toBe(true);
  });
});

describe('input completion', () => {
  it('copies the input without mutating it; the event name always wins; undefined fields get defaults', async () => {
    const engine = createHookEngine({ cwd: '/work', sessionId: 'default-session' });
    let seen: Record<string, unknown> | undefined;
    engine.register({
      event: 'PreToolUse',
      fn: (input) => {
        seen = input;
      },
    });
    const raw = { ...bash('ls'), hook_event_name: 'PostToolUse', session_id: undefined, extra_field: [1, 2] };
    const before = JSON.stringify(raw);
    await engine.run('PreToolUse', raw);
    expect(JSON.stringify(raw)).toBe(before);
    expect(seen).toMatchObject({ hook_event_name: 'PreToolUse', session_id: 'default-session', cwd: '/work', extra_field: [1, 2] });
    expect(seen).not.toBe(raw);
  });

  it('an own "__proto__" key of a JSON payload stays a plain own key', async () => {
    const engine = createHookEngine({ cwd: '/tmp' });
    let seen: Record<string, unknown> | undefined;
    engine.register({
      event: 'PreToolUse',
      fn: (input) => {
        seen = input;
      },
    });
    const raw = JSON.parse('{"tool_name":"Bash","tool_input":{"command":"ls"},"__proto__":{"polluted":1}}') as Record<string, unknown>;
    await engine.run('PreToolUse', raw);
    expect(Object.getPrototypeOf(seen)).toBe(Object.prototype);
    expect(Object.hasOwn(seen!, '__proto__')).toBe(true);
    expect((seen as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
