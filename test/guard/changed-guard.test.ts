/**
 * Issue 39, class 4: a changed guard never silently disappears. When a trusted hook's pinned
 * content changes, the events it guards fail closed with a reason naming the changed file and how
 * to re-trust (not skipped with a stderr warning); a tool call that would write a pinned file or
 * the hook config itself is denied or asked before it runs. Untrusted (never reviewed) hooks stay
 * skipped.
 *
 * Each `it.fails` states the guarantee as it should hold and fails on today's code (vitest counts
 * it as passing while the bug is there). When the fix lands it turns red: flip it to `it(...)`.
 */
import { appendFileSync, existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/engine/engine.js';
import { loadTrustedConfig } from '../../src/trust/index.js';
import { DIALECTS, dispatchShell, guardedProject, runBin, sandbox, trust, verdict, type Sandbox } from './helpers.js';

const sandboxes: Sandbox[] = [];
afterAll(() => {
  for (const sb of sandboxes) sb.dir.cleanup();
});
async function trustedProject() {
  const sb = sandbox();
  sandboxes.push(sb);
  const project = guardedProject(sb, 'p');
  await trust(sb, project);
  return { sb, project };
}

/** Whether the library (loadTrustedConfig + createHookEngine) blocks the Bash `command` in `project`. */
async function libraryBlocks(sb: Sandbox, project: string, command: string): Promise<boolean> {
  const home = sb.dir.path('home');
  const { config } = await loadTrustedConfig(
    { cwd: project, projectDir: project, homeDir: home, managedSettingsPath: sb.dir.path('no-managed.json') },
    { storePath: sb.env.AGENT_HOOKS_TRUST_STORE, homeDir: home },
  );
  const engine = createHookEngine({ hooks: config.hooks, projectDir: project, cwd: project });
  try {
    return (await engine.run('PreToolUse', { session_id: 's', cwd: project, tool_name: 'Bash', tool_input: { command } })).blocked;
  } finally {
    await engine.close();
  }
}

describe('after one allowed call appends to the pinned guard, the next forbidden call is still denied', () => {
  let sb: Sandbox;
  let project = '';
  beforeAll(async () => {
    ({ sb, project } = await trustedProject());
    // What `echo '# formatting' >> hooks/guard.sh` does: the guard still denies `rm -rf`, it only changed.
    appendFileSync(join(project, 'hooks/guard.sh'), '# formatting\n');
  });

  it('control: the workspace is now `modified`', async () => {
    const r = await runBin(['status', '--cwd', project, '--json'], { env: sb.env });
    expect((JSON.parse(r.stdout) as { state: string }).state).toBe('modified');
  });

  it.concurrent.each(DIALECTS)('dispatch --agent %s fails closed', async (agent) => {
    const r = await dispatchShell(agent, project, 'rm -rf build', { env: sb.env });
    expect(verdict(r), r.stderr).toBe('deny');
  });

  it.concurrent('the deny names the changed file and how to re-trust (claude)', async () => {
    const r = await dispatchShell('claude', project, 'rm -rf build', { env: sb.env });
    const reason = String(
      (JSON.parse(r.stdout || '{}') as { hookSpecificOutput?: { permissionDecisionReason?: string } }).hookSpecificOutput
        ?.permissionDecisionReason,
    );
    expect(reason).toMatch(/hooks\/guard\.sh/);
    expect(reason).toMatch(/agent-hooks trust/);
  });

  it('the library (loadTrustedConfig + createHookEngine) fails closed', async () => {
    expect(await libraryBlocks(sb, project, 'rm -rf build')).toBe(true);
  });
});

describe('the hook config removed or emptied by a write the engine cannot refuse: the reviewed guards still guard', () => {
  // `python3 -c "import os; os.remove('.claude/settings.json')"` is not read by the write guard;
  // dispatch's fast "nothing to run" must not take the reviewed guards away with the file.
  const edits: Array<[string, (project: string) => void]> = [
    ['settings.json removed', (p) => rmSync(join(p, '.claude/settings.json'))],
    ['.claude removed', (p) => rmSync(join(p, '.claude'), { recursive: true })],
    ['settings.json emptied to {}', (p) => writeFileSync(join(p, '.claude/settings.json'), '{}\n')],
    [
      'the PreToolUse hook moved to another event',
      (p) =>
        writeFileSync(
          join(p, '.claude/settings.json'),
          JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } }),
        ),
    ],
  ];
  it.concurrent.each(edits)('%s: dispatch --agent claude denies, naming the removed hook', async (_name, edit) => {
    const { sb, project } = await trustedProject();
    edit(project);
    const r = await dispatchShell('claude', project, 'rm -rf build', { env: sb.env });
    expect(verdict(r), r.stderr).toBe('deny');
    expect(r.stdout).toMatch(/removed|not what runs now/);
    // A project that was never reviewed still has nothing to run.
    expect(verdict(await dispatchShell('claude', sb.dir.path('home'), 'rm -rf build', { env: sb.env }))).toBe('proceed');
  });
  it('settings.json removed: the library (loadTrustedConfig + createHookEngine) fails closed too', async () => {
    const { sb, project } = await trustedProject();
    rmSync(join(project, '.claude/settings.json'));
    expect(await libraryBlocks(sb, project, 'rm -rf build')).toBe(true);
  });
});

describe('a tool call that would write a pinned guard or the hook config is denied or asked before it runs', () => {
  let sb: Sandbox;
  let project = '';
  beforeAll(async () => {
    ({ sb, project } = await trustedProject());
    symlinkSync('hooks/guard.sh', join(project, 'notes.txt')); // a link the agent makes after the review
  });
  const dispatchRaw = (agent: string, payload: Record<string, unknown>) =>
    runBin(['dispatch', '--agent', agent], { env: sb.env, input: JSON.stringify(payload) });
  const claudeTool = (tool_name: string, tool_input: Record<string, unknown>) => ({
    session_id: 's-1',
    transcript_path: '/tmp/t.jsonl',
    cwd: project,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name,
    tool_input,
    tool_use_id: 'toolu_1',
  });
  const cases: Array<[string, string, () => Record<string, unknown>]> = [
    [
      'claude Write hooks/guard.sh',
      'claude',
      () => claudeTool('Write', { file_path: join(project, 'hooks/guard.sh'), content: '#!/bin/sh\nexit 0\n' }),
    ],
    [
      'claude Write notes.txt, a link to hooks/guard.sh (Write follows it)',
      'claude',
      () => claudeTool('Write', { file_path: join(project, 'notes.txt'), content: '#!/bin/sh\nexit 0\n' }),
    ],
    [
      'claude Edit hooks/guard.sh',
      'claude',
      () => claudeTool('Edit', { file_path: join(project, 'hooks/guard.sh'), old_string: 'exit 2', new_string: 'exit 0' }),
    ],
    [
      'claude Write .claude/settings.json',
      'claude',
      () => claudeTool('Write', { file_path: join(project, '.claude/settings.json'), content: '{}' }),
    ],
    [
      'gemini write_file hooks/guard.sh',
      'gemini',
      () => ({
        session_id: 's-1',
        transcript_path: '/tmp/t.json',
        cwd: project,
        hook_event_name: 'BeforeTool',
        timestamp: '2026-01-01T00:00:00.000Z',
        tool_name: 'write_file',
        tool_input: { file_path: join(project, 'hooks/guard.sh'), content: 'exit 0\n' },
      }),
    ],
  ];
  // Bash: the files a command writes, moves or deletes, however the path is spelt.
  const bash = (command: string) => () => claudeTool('Bash', { command });
  const shellWrites = [
    'echo exit 0 >> hooks/guard.sh',
    'cd hooks && printf "exit 0" > guard.sh',
    'sed -i s/2/0/ "$CLAUDE_PROJECT_DIR/hooks/guard.sh"',
    'rm -f hooks/guard.sh',
    'mv hooks/guard.sh /tmp/x && touch hooks/guard.sh',
    "bash -c 'cat /dev/null > hooks/guard.sh'",
    'echo {} | sudo tee .claude/settings.json',
    'cp /dev/null ./hooks/../hooks/guard.sh',
    'd=hooks; echo "exit 0" > $d/guard.sh',
    // Attacker review: the x bit of a guard run by its path, through a glob, an ACL or find.
    'chmod a-x hooks/*',
    'chmod -x hooks/g*.s[h]',
    'chmod -x hooks/guard.{sh,}',
    'chmod -x $HOME/../*/hooks/*',
    'setfacl -m u::rw- hooks/guard.sh',
    'chattr +i hooks/guard.sh',
    'find hooks -name guard.sh -exec chmod -x {} +',
    'find . -name guard.sh -delete',
    // Targets given at run time: fed to xargs through a pipe, a computed program, an expansion.
    'ls hooks/* | xargs chmod -x',
    'echo hooks/guard.sh | xargs rm -f',
    'find hooks -name guard.sh | xargs chmod -x',
    'c=chmod; find hooks -name guard.sh -exec "$c" -x {} +',
    'c=rm; "$c" -f hooks/guard.sh',
    'rm -f $(ls hooks/guard.sh)',
    'f=hooks/guard.sh; echo "exit 0" > "$f"',
    'for f in hooks/*; do chmod -x "$f"; done',
    // A find narrowed by -name still reaches what the name matches, and all under a directory it names.
    "find . -name 'g*' -delete",
    'find . -iname GUARD.SH -delete',
    'find . -name hooks -exec rm -rf {} +',
    'find . -exec chmod -x {} + -name x.pyc',
    "find . -name '*.pyc' -o -name guard.sh -delete",
  ];
  for (const command of shellWrites) cases.push([`claude Bash: ${command}`, 'claude', bash(command)]);
  it.concurrent('claude Bash: removing the trust store, or re-trusting, is denied', async () => {
    for (const command of [`rm -f ${sb.env.AGENT_HOOKS_TRUST_STORE}`, 'agent-hooks trust --cwd .', 'npx agent-hooks revoke --cwd .']) {
      const r = await dispatchRaw('claude', bash(command)());
      expect(verdict(r), command).toBe('deny');
    }
  });
  it.concurrent.each(cases)('%s', async (_name, agent, payload) => {
    const r = await dispatchRaw(agent, payload());
    expect(['deny', 'ask']).toContain(verdict(r));
  });
  // Reading a guard, or writing elsewhere, goes on as before (the project's guard allows these).
  it.concurrent.each([
    'cat hooks/guard.sh',
    'echo hi > out.txt',
    'cp hooks/guard.sh /tmp/copy-of-guard',
    'chmod a-x build/*',
    'chmod -x hooks/*.py',
    'find build -delete',
    'find hooks -name guard.sh -exec cat {} +',
    'ls build | xargs rm -f',
    "find . -name '*.pyc' -delete",
    "find . -name '*.o' | xargs rm -f",
    'cat hooks/guard.sh | xargs echo',
    'tmp=$(mktemp -d); touch "$tmp/x"; rm -f "$tmp/x"',
  ])('claude Bash: %s proceeds', async (command) => {
    expect(verdict(await dispatchRaw('claude', bash(command)()))).toBe('proceed');
  });
});

describe('untrusted (never reviewed) hooks stay skipped', () => {
  it('a project never trusted runs none of its hooks (holds today)', async () => {
    const sb = sandbox();
    sandboxes.push(sb);
    const mark = sb.dir.path('mark');
    sb.dir.json('p/.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo ran > '${mark}'` }] }] },
    });
    const r = await dispatchShell('claude', sb.dir.path('p'), 'ls', { env: sb.env });
    expect(verdict(r)).toBe('proceed');
    expect(existsSync(mark)).toBe(false);
  });
});
