import { describe, expect, it } from 'vitest';
import { buildPlanIndex, planHooks } from '../../src/engine/plan.js';
import '../../src/matching/if-rule.js';
import type { NormalizedHook } from '../../src/types.js';

const guard: NormalizedHook = {
  id: 'env',
  event: 'PreToolUse',
  matcher: 'Edit',
  handler: { type: 'command', command: 'true', if: 'Edit(.env)' },
  source: { kind: 'cli', path: 'hooks.env' },
  dedupKey: '\0env',
};

describe('`if` path rules in the plan stage', () => {
  it('compare names ignoring case on every platform, as Claude Code 2.1.328 does on Linux too', () => {
    const index = buildPlanIndex([guard]);
    expect(index.unloadedRules).toBeFalsy();
    const ctx = { cwd: '/p', projectDir: '/p' };
    const input = { tool_name: 'Edit', tool_input: { file_path: '/p/.ENV' } };
    expect(planHooks(index, 'PreToolUse', input, { ...ctx, foldCase: true }).map((p) => p.hook.id)).toEqual(['env']);
    expect(planHooks(index, 'PreToolUse', input, ctx).map((p) => p.hook.id)).toEqual(['env']);
    expect(planHooks(index, 'PreToolUse', { ...input, tool_input: { file_path: '/p/.env' } }, ctx).map((p) => p.hook.id)).toEqual(['env']);
    expect(planHooks(index, 'PreToolUse', { ...input, tool_input: { file_path: '/p/.envx' } }, ctx)).toEqual([]);
  });
});
