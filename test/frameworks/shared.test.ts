/** The adapters' shared translation: an engine that throws denies with the reason; what each decision means for a tool call. */
import { describe, expect, it } from 'vitest';
import { engineBridge, readPostToolUse, withContext } from '../../src/frameworks/shared.js';
import { createHookEngine } from '../../src/index.js';

describe('frameworks/shared', () => {
  it('an engine that throws (invalid input) gives a blocking deny that says why', async () => {
    const engine = createHookEngine({ invalidInput: 'throw' });
    engine.register({ event: 'PreToolUse', fn: () => undefined });
    const bridge = engineBridge(engine);
    expect(await bridge.beforeTool('bash', 'not an object' as never)).toMatchObject({
      kind: 'deny',
      reason: expect.stringMatching(/could not judge this PreToolUse.*denied so it does not proceed unchecked/),
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
    engine.register({ event: 'PreToolUse', matcher: 'Bash', fn: (input) => answers[String(input.tool_input.command)] as never });
    const bridge = engineBridge(engine);
    const verdict = (command: string) => bridge.beforeTool('bash', { command });
    expect(await verdict('ask')).toEqual({ kind: 'ask', reason: 'why', input: { command: 'ask' }, context: [] });
    expect(await verdict('defer')).toMatchObject({ kind: 'deny', reason: expect.stringContaining('cannot pause') });
    expect(await verdict('halt')).toEqual({ kind: 'deny', reason: 'halted', context: [] });
    expect(await verdict('rewrite')).toEqual({ kind: 'run', input: { command: 'true' }, context: ['ctx'], allowed: false });
    expect(await verdict('other')).toEqual({ kind: 'run', input: { command: 'other' }, context: [], allowed: false });
    await engine.close();
  });

  it('maps tool names (bash → Bash by default, the app’s map over it) and rewrites a result', () => {
    const engine = createHookEngine();
    expect(engineBridge(engine).toolName('bash')).toBe('Bash');
    expect(engineBridge(engine, { toolNames: { bash: 'Shell' } }).toolName('bash')).toBe('Shell');
    expect(engineBridge(engine, { toolNames: { search: 'Grep' } }).toolName('search')).toBe('Grep');
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
    const after = readPostToolUse({ ...base, updatedOutput: { stdout: 'x' } }, 'secret');
    expect(withContext(after.output, after.context)).toBe('{"stdout":"x"}\n\nnote');
  });
});
