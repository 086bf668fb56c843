/** The adapters' shared translation: an engine that throws denies with the reason; what each decision means for a tool call. */
import { describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/index.js';
import { hookToolName, runEngine, toolResultText, toolVerdict } from '../../src/frameworks/verdict.js';

describe('frameworks/shared', () => {
  it('an engine that throws (invalid input) gives a blocking deny that says why', async () => {
    const engine = createHookEngine({ invalidInput: 'throw' });
    engine.register({ event: 'PreToolUse', fn: () => undefined });
    const d = await runEngine(engine, 'PreToolUse', { tool_name: 'Bash', tool_input: 'not an object' });
    expect(d.blocked).toBe(true);
    expect(toolVerdict(d, 'Bash')).toMatchObject({
      kind: 'deny',
      reason: expect.stringMatching(/could not judge this PreToolUse.*failing closed/),
    });
    await engine.close();
  });

  it('reads the engine decision: ask, defer (denied: no pause), continue false (denied), rewrite with context', async () => {
    const engine = createHookEngine();
    const answers: Record<string, unknown> = {
      ask: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'why' } },
      defer: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer' } },
      halt: { continue: false, stopReason: 'halted' },
      rewrite: { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'true' }, additionalContext: 'ctx' } },
    };
    engine.register({ event: 'PreToolUse', fn: (input) => answers[String(input.tool_input.command)] as never });
    const verdict = async (command: string) =>
      toolVerdict(await runEngine(engine, 'PreToolUse', { tool_name: 'Bash', tool_input: { command } }), 'Bash');
    expect(await verdict('ask')).toEqual({ kind: 'ask', reason: 'why' });
    expect(await verdict('defer')).toMatchObject({ kind: 'deny', reason: expect.stringContaining('cannot pause') });
    expect(await verdict('halt')).toEqual({ kind: 'deny', reason: 'halted' });
    expect(await verdict('rewrite')).toEqual({ kind: 'run', input: { command: 'true' }, context: 'ctx' });
    expect(await verdict('other')).toEqual({ kind: 'run' });
    await engine.close();
  });

  it('maps tool names (bash → Bash by default, the app’s map over it) and rewrites a result', () => {
    expect(hookToolName('bash')).toBe('Bash');
    expect(hookToolName('bash', { toolNames: { bash: 'Shell' } })).toBe('Shell');
    expect(hookToolName('search', { toolNames: { search: 'Grep' } })).toBe('Grep');
    const base = {
      event: 'PostToolUse' as const,
      blocked: false,
      additionalContext: ['note'],
      systemMessages: [],
      continue: true,
      eventOutput: {},
      hooks: [],
      warnings: [],
    };
    expect(toolResultText({ ...base, updatedOutput: { stdout: 'x' } }, 'secret')).toBe('{"stdout":"x"}\n\nnote');
  });
});
