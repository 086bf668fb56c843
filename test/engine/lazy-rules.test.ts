/**
 * `if` rules reach the plan stage through src/matching/rule-slot.ts: the rule module (with unbash
 * and picomatch) loads on the first firing that needs it. This file imports nothing that loads it
 * statically, so it sees the slot empty first.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildPlanIndex, planHooks } from '../../src/engine/plan.js';
import { ifRules } from '../../src/matching/rule-slot.js';
import { ensureIfRules } from '../../src/matching/lazy-rules.js';
import type { NormalizedHook } from '../../src/types.js';

const ctx = { cwd: '/p', projectDir: '/p' };
const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command } });

function guard(id: string, cond: string): NormalizedHook {
  return {
    id,
    event: 'PreToolUse',
    matcher: 'Bash',
    handler: { type: 'command', command: 'true', if: cond },
    source: { kind: 'cli', path: `hooks.${id}` },
    dedupKey: `\0${id}`,
  };
}

afterEach(() => {
  vi.doUnmock('../../src/matching/if-rule.js');
  vi.resetModules();
});

describe('the `if`-rule module loads on demand', () => {
  it('an index built before it loads marks the rule undecided, and the hook stays planned (never skipped)', async () => {
    expect(ifRules()).toBeUndefined();
    const index = buildPlanIndex([guard('g', 'Bash(git push *)')]);
    expect(index.unloadedRules).toBe(true);
    // Undecided is not "no match": the hook stays in the plan, where the engine fails it closed.
    expect(planHooks(index, 'PreToolUse', bash('ls'), ctx).map((p) => p.hook.id)).toEqual(['g']);
    expect(await ensureIfRules(() => Promise.reject(new Error('no such module')))).toBe('no such module');
    expect(ifRules()).toBeUndefined();
  });

  it('an engine whose rule module cannot load does not run the hook, denies (fail closed) and says why', async () => {
    vi.doMock('../../src/matching/if-rule.js', () => {
      throw new Error('simulated load failure');
    });
    const { createHookEngine } = await import('../../src/engine/engine.js');
    const warnings: string[] = [];
    const engine = createHookEngine({
      hooks: [
        { ...guard('g', 'Bash(git push *)'), handler: { type: 'command', command: 'echo denied >&2; exit 2', if: 'Bash(git push *)' } },
      ],
      onWarning: (m) => warnings.push(m),
      spawner: false,
    });
    const d = await engine.run('PreToolUse', { session_id: 's', transcript_path: '', cwd: '/tmp', ...bash('ls') });
    expect(d.decision).toBe('deny');
    expect(d.hooks[0]?.error).toBe('`if` "Bash(git push *)" could not be decided: the rule module did not load');
    expect(d.warnings.join('\n')).toMatch(/^hook g: `if` "Bash\(git push \*\)" not decided, the hook did not run: \S/);
    expect(warnings.join('\n')).toContain('not decided');
    await engine.close();
  });

  it('an allow or a rewrite behind an undecided `if` never takes effect: the call is denied', async () => {
    vi.doMock('../../src/matching/if-rule.js', () => {
      throw new Error('simulated load failure');
    });
    const { createHookEngine } = await import('../../src/engine/engine.js');
    const allow = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'git status' } },
    });
    const engine = createHookEngine({
      hooks: [{ ...guard('a', 'Bash(git status)'), handler: { type: 'command', command: `echo '${allow}'`, if: 'Bash(git status)' } }],
      onWarning: () => {},
      spawner: false,
    });
    const d = await engine.run('PreToolUse', { session_id: 's', transcript_path: '', cwd: '/tmp', ...bash('rm -rf build') });
    expect(d.decision).toBe('deny');
    expect(d.blocked).toBe(true);
    expect(d.eventOutput).not.toHaveProperty('updatedInput');
    expect(d.hooks).toHaveLength(1);
    expect(d.hooks[0]?.outcome).toBe('error');
    await engine.close();
  });

  it('once loaded, the engine plans with the rules as before', async () => {
    const { createHookEngine } = await import('../../src/engine/engine.js');
    const engine = createHookEngine({
      hooks: [
        { ...guard('g', 'Bash(git push *)'), handler: { type: 'command', command: 'echo denied >&2; exit 2', if: 'Bash(git push *)' } },
      ],
      spawner: false,
    });
    const input = (command: string) => ({ session_id: 's', transcript_path: '', cwd: '/tmp', ...bash(command) });
    const pass = await engine.run('PreToolUse', input('ls'));
    expect(pass.decision).not.toBe('deny');
    expect(pass.warnings).toEqual([]);
    const push = await engine.run('PreToolUse', input('git push origin main'));
    expect(push.decision).toBe('deny');
    await engine.close();
  });
});
