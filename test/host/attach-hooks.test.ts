/** attachHooks needs only the runner's run(): a patch's per-file views are the engine's (src/engine/plan-views.ts). */
import { expect, it } from 'vitest';
import { emptyDecision } from '../../src/engine/engine.js';
import { attachHooks } from '../../src/host/hook-listeners.js';
import { createRuntimeSlots } from '../../src/host/runtime-slots.js';

it('refuses a runner without run(), with a clear error, and takes one with it', () => {
  expect(() => attachHooks(createRuntimeSlots(), {} as never)).toThrow(/attachHooks: the runner must have run\(event, input, ctx\)/);
  const detach = attachHooks(createRuntimeSlots(), { run: async () => emptyDecision('PreToolUse') });
  detach();
});

it('an engine that throws fails closed: PreToolUse is vetoed with the reason (was: the call proceeded)', async () => {
  const slots = createRuntimeSlots();
  const detach = attachHooks(slots, {
    run: async () => {
      throw new Error('engine broke');
    },
  });
  const tool = { name: 'Bash' } as never;
  const r = await slots.beforeTool.fire({
    tool,
    toolUseId: 't1',
    originalInput: { command: 'ls' },
    input: { command: 'ls' },
    cwd: '/w',
    mode: 'default',
    additionalContext: [],
    rewrites: [],
    rewriteInput: () => true,
  });
  expect(r.vetoed?.reason).toMatch(/engine error, the hooks could not judge PreToolUse: engine broke/);
  detach();
});
