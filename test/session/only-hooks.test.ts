/** RunContext.onlyHooks through a session: a skill's `once` hook left out of the firing is not spent. */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createHookManager, type HookManager } from '../../src/session/manager.js';
import { appendHook, bash, lines, sessionSandbox, type SessionSandbox } from './helpers.js';

let sb: SessionSandbox;
let manager: HookManager | undefined;
beforeEach(() => {
  sb = sessionSandbox();
});
afterEach(async () => {
  await manager?.close();
  manager = undefined;
  sb.cleanup();
});

it('runs only the named hooks, and a once hook it leaves out stays for a later firing', async () => {
  const log = sb.dir.path('log');
  const p = sb.project('proj', {});
  const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [appendHook(log, 'once', { once: true }), appendHook(log, 'always')] }] };
  const file = sb.dir.write(
    'proj/.claude/skills/setup/SKILL.md',
    `---\nname: setup\ndescription: setup skill\nhooks: ${JSON.stringify(hooks)}\n---\nBody.\n`,
  );
  manager = createHookManager({ load: sb.load });
  const s = await manager.bindSession({ sessionId: 's1', projectDir: p });
  await s.addSkill(file);
  const always = s.hooks('PreToolUse').find((h) => !h.handler.once)!;
  await s.run('PreToolUse', bash(), { onlyHooks: new Set([always.id]) });
  expect(lines(log)).toEqual(['always']);
  expect(s.hooks('PreToolUse')).toHaveLength(2);
  await s.run('PreToolUse', bash());
  expect(lines(log).sort()).toEqual(['always', 'always', 'once']);
});
