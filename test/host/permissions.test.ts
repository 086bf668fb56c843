import { describe, expect, it } from 'vitest';
import { createPermissionEngine, PermissionConfigError } from '../../src/host/index.js';

const bash = { name: 'Bash' };
const edit = { name: 'Edit', edits: true };
const read = { name: 'Read', readOnly: true };

describe('permission engine', () => {
  it('where names ignore case (foldCase), deny and ask rules see every casing; allow rules only their own', () => {
    const rules = { allow: ['Edit(src/**)'], ask: ['Read(/config/**)'], deny: ['Edit(.env)'] };
    const p = createPermissionEngine({ workspace: '/w', rules, foldCase: true });
    expect(p.evaluate(edit, { file_path: '/w/.ENV' })).toMatchObject({ behavior: 'deny', rule: 'Edit(.env)' });
    expect(p.evaluate(edit, { file_path: '/W/sub/.Env' })).toMatchObject({ behavior: 'deny', rule: 'Edit(.env)' });
    expect(p.evaluate(read, { file_path: '/w/CONFIG/db.yml' })).toMatchObject({ behavior: 'ask', rule: 'Read(/config/**)' });
    expect(p.evaluate(edit, { file_path: '/w/src/a.ts' })).toMatchObject({ behavior: 'allow', rule: 'Edit(src/**)' });
    // On a case-sensitive volume `SRC` would be another folder: no allow rule covers it, the mode asks.
    expect(p.evaluate(edit, { file_path: '/w/SRC/a.ts' })).toMatchObject({ behavior: 'ask', source: 'mode' });
    const exact = createPermissionEngine({ workspace: '/w', rules, foldCase: false });
    expect(exact.evaluate(edit, { file_path: '/w/.ENV' })).toMatchObject({ behavior: 'ask', source: 'mode' });
  });

  it('deny, then ask, then allow rules, then the mode default', () => {
    const p = createPermissionEngine({
      workspace: '/w',
      rules: { allow: ['Bash(git *)', 'Edit(src/**)'], ask: ['Bash(git push *)'], deny: ['Bash(git push --force*)', 'Read(./.env)'] },
    });
    expect(p.evaluate(bash, { command: 'git status' })).toMatchObject({ behavior: 'allow', source: 'rule', rule: 'Bash(git *)' });
    expect(p.evaluate(bash, { command: 'git push origin' })).toMatchObject({ behavior: 'ask', rule: 'Bash(git push *)' });
    expect(p.evaluate(bash, { command: 'git push --force origin' })).toMatchObject({ behavior: 'deny', rule: 'Bash(git push --force*)' });
    expect(p.evaluate(bash, { command: 'ls' })).toMatchObject({ behavior: 'ask', source: 'mode' });
    expect(p.evaluate(edit, { file_path: '/w/src/a.ts' })).toMatchObject({ behavior: 'allow', rule: 'Edit(src/**)' });
    expect(p.evaluate(read, { file_path: '/w/.env' })).toMatchObject({ behavior: 'deny' });
    expect(p.evaluate(read, { file_path: '/w/README' })).toMatchObject({ behavior: 'allow', source: 'mode' });
  });

  it('a deny rule matches every subcommand of a compound command', () => {
    const p = createPermissionEngine({ workspace: '/w', mode: 'bypassPermissions', rules: { deny: ['Bash(rm *)'] } });
    expect(p.evaluate(bash, { command: 'echo hi && rm -rf /' }).behavior).toBe('deny');
    expect(p.evaluate(bash, { command: 'echo hi' }).behavior).toBe('allow');
  });

  it('a deny rule on a file sees a patch header whose path ends in a line separator', () => {
    const p = createPermissionEngine({ workspace: '/w', mode: 'acceptEdits', rules: { deny: ['Edit(.env)'] } });
    const patchTool = { name: 'ApplyPatch', edits: true };
    for (const end of ['', '\u2028', '\u2029', '\u0085']) {
      const patch = `*** Begin Patch\n*** Add File: .env${end}\n+KEY=x\n*** End Patch\n`;
      expect(p.evaluate(patchTool, { patch }, '/w').behavior, JSON.stringify(end)).toBe('deny');
    }
  });

  it('modes: acceptEdits allows edits, bypass/yolo allow, dontAsk denies, an ask rule asks in every mode', () => {
    const rules = { ask: ['Bash(deploy*)'] };
    expect(createPermissionEngine({ workspace: '/w', mode: 'acceptEdits' }).evaluate(edit, { file_path: '/w/a' }).behavior).toBe('allow');
    expect(createPermissionEngine({ workspace: '/w', mode: 'default' }).evaluate(edit, { file_path: '/w/a' }).behavior).toBe('ask');
    expect(createPermissionEngine({ workspace: '/w', mode: 'yolo' }).evaluate(bash, { command: 'ls' }).behavior).toBe('allow');
    expect(createPermissionEngine({ workspace: '/w', mode: 'dontAsk' }).evaluate(bash, { command: 'ls' }).behavior).toBe('deny');
    expect(
      createPermissionEngine({ workspace: '/w', mode: 'bypassPermissions', rules }).evaluate(bash, { command: 'deploy prod' }).behavior,
    ).toBe('ask');
  });

  it('an invalid rule is a path-qualified error; an unknown mode too', () => {
    expect(() => createPermissionEngine({ workspace: '/w', rules: { deny: ['Bash(ls)', 'Bash(oops'] } })).toThrow(
      new PermissionConfigError('permissions.deny[1]: rule "Bash(oops": missing closing ")"'),
    );
    expect(() => createPermissionEngine({ workspace: '/w', mode: 'sudo' as never })).toThrow(/unknown mode "sudo"/);
  });

  it('addRules applies for the rest of the session', () => {
    const p = createPermissionEngine({ workspace: '/w' });
    p.addRules('allow', ['Bash(npm test)']);
    expect(p.evaluate(bash, { command: 'npm test' })).toMatchObject({ behavior: 'allow', rule: 'Bash(npm test)' });
    expect(p.rules.allow).toEqual(['Bash(npm test)']);
  });
});

describe('startHostSession input errors', () => {
  it('a missing workspace or an invalid rule is a clear error before any hook runs', async () => {
    const { startHostSession, scriptedModel } = await import('../../src/host/index.js');
    await expect(startHostSession({ workspace: '/definitely/not/here', model: scriptedModel([]) })).rejects.toThrow(
      /workspace "\/definitely\/not\/here" cannot be used: ENOENT/,
    );
    await expect(
      startHostSession({ workspace: '/', model: scriptedModel([]), permissions: { allow: ['Bash('] }, config: { discover: false } }),
    ).rejects.toThrow(/permissions\.allow\[0\]/);
  });
});
