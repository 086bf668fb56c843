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
