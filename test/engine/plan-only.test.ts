/** PlanContext.only / RunContext.onlyHooks: plan a subset of the hooks (the runtime's per-file patch views). */
import { describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/engine/engine.js';
import { buildPlanIndex, planHooks } from '../../src/engine/plan.js';
import type { NormalizedHook } from '../../src/types.js';

function hook(i: number, matcher: string, command = `echo ${i}`): NormalizedHook {
  return {
    id: `h${i}`,
    event: 'PreToolUse',
    matcher,
    handler: { type: 'command', command },
    source: { kind: 'cli', path: `hooks.PreToolUse[${i}]` },
    dedupKey: `\0${i}`,
  };
}
const ctx = { cwd: '/p', projectDir: '/p' };
const write = { tool_name: 'Write', tool_input: { file_path: '/p/a', content: '' } };

describe('planning only some hooks', () => {
  it('leaves out the hooks not named, matched or not', () => {
    const index = buildPlanIndex([hook(0, 'Write|ApplyPatch'), hook(1, 'Edit|Write'), hook(2, '*')]);
    expect(planHooks(index, 'PreToolUse', write, ctx).map((p) => p.hook.id)).toEqual(['h0', 'h1', 'h2']);
    expect(planHooks(index, 'PreToolUse', write, { ...ctx, only: new Set(['h1']) }).map((p) => p.hook.id)).toEqual(['h1']);
  });

  it('filters before the one-run-per-command dedupe, so a left-out twin cannot hide a named hook', () => {
    // One command in two groups runs once, as the later group's hook.
    const index = buildPlanIndex([hook(0, 'Edit|Write', 'guard.sh'), hook(1, 'Write|ApplyPatch', 'guard.sh')]);
    expect(planHooks(index, 'PreToolUse', write, ctx).map((p) => p.hook.id)).toEqual(['h1']);
    expect(planHooks(index, 'PreToolUse', write, { ...ctx, only: new Set(['h0']) }).map((p) => p.hook.id)).toEqual(['h0']);
  });

  it('the engine runs only the named hooks', async () => {
    const engine = createHookEngine({ projectDir: '/p' });
    const ran: string[] = [];
    engine.register({ event: 'PreToolUse', matcher: 'Write', name: 'a', fn: () => void ran.push('a') });
    engine.register({ event: 'PreToolUse', matcher: 'Write', name: 'b', fn: () => void ran.push('b') });
    const b = engine.list('PreToolUse').find((h) => h.id.includes('b'))!;
    await engine.run('PreToolUse', write, { onlyHooks: new Set([b.id]) });
    expect(ran).toEqual(['b']);
    await engine.close();
  });
});
