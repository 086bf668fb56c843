/** RunContext.onlyHooks through a session: a skill's `once` hook left out of the firing is not spent. */
import { expect, it } from 'vitest';
import { appendHook, bash, lines, useSessionSandbox } from './helpers.js';

const { sb, manager: newManager } = useSessionSandbox();

it('runs only the named hooks, and a once hook it leaves out stays for a later firing', async () => {
  const log = sb.dir.path('log');
  const p = sb.project('proj', {});
  const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [appendHook(log, 'once', { once: true }), appendHook(log, 'always')] }] };
  const file = sb.dir.write(
    'proj/.claude/skills/setup/SKILL.md',
    `---\nname: setup\ndescription: setup skill\nhooks: ${JSON.stringify(hooks)}\n---\nBody.\n`,
  );
  const manager = newManager({ load: sb.load });
  const s = await manager.bindSession({ sessionId: 's1', projectDir: p });
  await s.addSkill(file);
  const always = s.hooks('PreToolUse').find((h) => !h.handler.once)!;
  await s.run('PreToolUse', bash(), { onlyHooks: new Set([always.id]) });
  expect(lines(log)).toEqual(['always']);
  expect(s.hooks('PreToolUse')).toHaveLength(2);
  await s.run('PreToolUse', bash());
  expect(lines(log).sort()).toEqual(['always', 'always', 'once']);
});
