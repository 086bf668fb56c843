/** withPatchViews (src/host/patch-views.ts) without processes: what it runs, and that it fails closed. */
import { describe, expect, it } from 'vitest';
import { emptyDecision, type RunContext } from '../../src/engine/engine.js';
import { withPatchViews } from '../../src/host/patch-views.js';
import type { NormalizedHook } from '../../src/types.js';

const guard: NormalizedHook = {
  id: 'g',
  event: 'PreToolUse',
  matcher: 'Edit|Write',
  handler: { type: 'command', command: 'guard' },
  source: { kind: 'cli', path: 'hooks.PreToolUse[0]' },
  dedupKey: '\0g',
};
const patch = { tool_name: 'ApplyPatch', tool_input: { patch: '*** Begin Patch\n*** Add File: .env\n+A=1\n*** End Patch' }, cwd: '/ws' };

describe('withPatchViews', () => {
  it('runs the view with only the per-file hooks and combines their deny', async () => {
    const calls: Array<{ payload: Record<string, unknown>; ctx?: RunContext }> = [];
    const runner = {
      hooks: () => [guard],
      run: async (event: 'PreToolUse', payload: Record<string, unknown>, ctx?: RunContext) => {
        calls.push({ payload, ...(ctx ? { ctx } : {}) });
        return { ...emptyDecision(event), decision: 'deny' as const, blocked: true, reason: 'no .env' };
      },
    };
    const d = await withPatchViews(runner, 'PreToolUse', patch, { permissionMode: 'default' }, emptyDecision('PreToolUse'));
    expect(d).toMatchObject({ decision: 'deny', reason: 'no .env' });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.payload).toMatchObject({ tool_name: 'Write', tool_input: { file_path: '/ws/.env', content: 'A=1\n' } });
    expect([...calls[0]!.ctx!.onlyHooks!]).toEqual(['g']);
  });

  it('leaves a non-patch call, and a patch no per-file hook judges, as they were', async () => {
    const main = emptyDecision('PreToolUse');
    const runner = {
      hooks: () => [guard],
      run: async () => {
        throw new Error('must not run');
      },
    };
    expect(await withPatchViews(runner, 'PreToolUse', { tool_name: 'Write', tool_input: {} }, {}, main)).toBe(main);
    expect(await withPatchViews({ ...runner, hooks: () => [] }, 'PreToolUse', patch, {}, main)).toBe(main);
  });

  it('denies the patch with a reason when a per-file run or the hook list fails', async () => {
    const failing = {
      hooks: () => [guard],
      run: async () => {
        throw new Error('session is disposed');
      },
    };
    const d = await withPatchViews(failing, 'PreToolUse', patch, {}, emptyDecision('PreToolUse'));
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.reason).toMatch(/could not run \(session is disposed\); the patch is denied/);
    const noList = {
      hooks: () => {
        throw new Error('boom');
      },
      run: async () => emptyDecision('PreToolUse'),
    };
    expect((await withPatchViews(noList, 'PreToolUse', patch, {}, emptyDecision('PreToolUse'))).decision).toBe('deny');
  });
});
