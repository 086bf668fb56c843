/** attachHooks needs the runner's hook list: without it an ApplyPatch call could not run the Edit/Write guards per file. */
import { expect, it } from 'vitest';
import { emptyDecision } from '../../src/engine/engine.js';
import { attachHooks } from '../../src/host/hook-listeners.js';
import { createRuntimeSlots } from '../../src/host/runtime-slots.js';

it('refuses a runner without hooks(event), with a clear error', () => {
  const run = async () => emptyDecision('PreToolUse');
  expect(() => attachHooks(createRuntimeSlots(), { run } as never)).toThrow(
    /attachHooks: the runner must have run\(event, input, ctx\) and hooks\(event\)/,
  );
  const detach = attachHooks(createRuntimeSlots(), { run, hooks: () => [] });
  detach();
});
