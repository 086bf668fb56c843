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
    // Where names do not fold (Linux), deny and ask rules still ignore case, as Claude Code 2.1.328's
    // do (`Edit(.env)` refused a Write of `.ENV` on Linux); allow rules stay exact.
    const exact = createPermissionEngine({ workspace: '/w', rules, foldCase: false });
    expect(exact.evaluate(edit, { file_path: '/w/.ENV' })).toMatchObject({ behavior: 'deny', rule: 'Edit(.env)' });
    expect(exact.evaluate(read, { file_path: '/w/CONFIG/db.yml' })).toMatchObject({ behavior: 'ask', rule: 'Read(/config/**)' });
    expect(exact.evaluate(edit, { file_path: '/w/SRC/a.ts' })).toMatchObject({ behavior: 'ask', source: 'mode' });
  });

  // What Claude Code 2.1.328 did with `permissions.allow: ["Bash(touch a*)"]` (run offline, the
  // calls not otherwise allowed): it ran the first list and refused the second.
  it('an allow rule covers a command only when it covers every subcommand and nothing in it is unknown', () => {
    const p = createPermissionEngine({ workspace: '/w', rules: { allow: ['Bash(touch a*)'] } });
    const allowed = [
      'touch a1',
      'touch a2 && touch a3',
      'touch a4\ntouch a5',
      'touch a6 | touch a7',
      'touch a8 2>/dev/null',
      'touch a9 < /dev/null',
      'timeout 5 touch a10',
      'nice touch a11',
      'nohup touch a12',
      'time touch a13',
      'command touch a14',
      'stdbuf -o0 touch a15',
      'if touch a16; then touch a17; fi',
    ];
    const refused = [
      'touch a1 && mkdir b',
      'touch a1; rm -rf /',
      'touch a1 || mkdir b',
      'touch a1 & mkdir b',
      'touch a1 | tee b',
      'touch a1 $(rm -rf /)',
      'touch a1 `rm -rf /`',
      'touch $HOME/a1',
      'touch a1 "unterminated',
      'FOO=1 touch a1',
      'LD_PRELOAD=/tmp/x.so touch a1',
      'touch a1 > f',
      'touch a1 >> f',
      'touch a1 &> f',
      'touch ~/a1',
      'touch a1 *.log',
      'touch a{1,2}',
      'env touch a1',
      'env X=1 touch a1',
      'exec touch a1',
      '/usr/bin/touch a1',
      "bash -c 'touch a1'",
      'xargs touch a1',
      'touch a1 <(rm -rf /)',
      'f() { rm -rf /; }; touch a1',
      '( touch a1 )',
      '{ touch a1; }',
      'while true; do touch a1; done',
      'for f in x; do touch a1; done',
      'X=1',
      'mkdir b',
    ];
    for (const command of allowed) expect(p.evaluate(bash, { command }).behavior, command).toBe('allow');
    for (const command of refused) expect(p.evaluate(bash, { command }).behavior, command).toBe('ask');
  });

  it('an allow rule with a shell operator covers the whole command only as written', () => {
    const p = createPermissionEngine({ workspace: '/w', rules: { allow: ['Bash(make && make test)', 'Bash(npm run build && *)'] } });
    expect(p.evaluate(bash, { command: 'make && make test' }).behavior).toBe('allow');
    expect(p.evaluate(bash, { command: 'npm run build && rm -rf ~' }).behavior).toBe('ask');
  });

  it('an allow rule on paths covers a call only when it covers every path the call touches', () => {
    const p = createPermissionEngine({ workspace: '/w', rules: { allow: ['Edit(src/**)', 'Read(src/a.ts)'] } });
    const patch = (files: string[]) => ({ patch: files.map((f) => `*** Update File: ${f}\n@@\n-a\n+b\n`).join('') });
    expect(p.evaluate({ name: 'ApplyPatch', edits: true }, patch(['src/a.ts', 'src/b.ts'])).behavior).toBe('allow');
    expect(p.evaluate({ name: 'ApplyPatch', edits: true }, patch(['src/a.ts', '/etc/passwd'])).behavior).toBe('ask');
    // A search of the project holds src/a.ts, but covers far more than it.
    expect(p.evaluate({ name: 'Grep' }, { pattern: 'x', path: '/w' }).behavior).toBe('ask');
    expect(p.evaluate({ name: 'Edit', edits: true }, {}).behavior).toBe('ask');
  });

  // Claude Code 2.1.328 with `permissions.deny: ["Bash(rm *)"]` refused each of these (offline run).
  it('a deny rule sees through wrappers, runners, paths and nested shells', () => {
    const p = createPermissionEngine({ workspace: '/w', mode: 'bypassPermissions', rules: { deny: ['Bash(rm *)', 'Bash(git push *)'] } });
    const denied = [
      'xargs rm -f < list',
      'timeout 5 rm -f x',
      'timeout -s KILL 5 rm -f x',
      'nice -n 5 rm -f x',
      'env rm -f x',
      'env -u HOME X=1 rm -f x',
      '/bin/rm -f x',
      './node_modules/.bin/rm x',
      'command rm -f x',
      "bash -c 'rm -f x'",
      'sh -ec "ls; rm -f x"',
      "bash -o pipefail -c 'true | rm x'",
      'nohup rm -f x',
      'time rm -f x',
      'stdbuf -o0 rm -f x',
      'exec rm -f x',
      'eval rm -f x',
      "eval 'ls && rm x'",
      'find . -name "*.tmp" -exec rm {} ;',
      'sudo -u root rm -rf x',
      "sudo sh -c 'rm -rf x'",
      "su -c 'rm -rf x'",
      'git -C . push origin main',
      'git -c core.x=1 --no-pager push',
      'bash -c \'bash -c "rm x"\'',
    ];
    for (const command of denied) expect(p.evaluate(bash, { command }).behavior, command).toBe('deny');
    for (const command of ['timeout 5 ls', 'echo rm -f x', 'rmdir x', 'git status', "bash -c 'ls'"])
      expect(p.evaluate(bash, { command }).behavior, command).toBe('allow');
  });

  // Claude Code 2.1.328 refused these reads under the same deny rules (offline run,
  // test/agents/claude-diff/permissions.agents.test.ts); allow rules stay narrow.
  it('deny rules read `./name` and `name/**` at any depth; allow rules keep them at the working directory', () => {
    const deny = createPermissionEngine({
      workspace: '/w',
      mode: 'bypassPermissions',
      rules: { deny: ['Read(./.env)', 'Read(secrets/**)', 'Read(a/keys/**)'] },
    });
    for (const file of ['/w/.env', '/w/sub/.env', '/w/secrets/k', '/w/x/secrets/k', '/w/y/z/secrets/k', '/w/a/keys/k'])
      expect(deny.evaluate({ name: 'Read' }, { file_path: file }).behavior, file).toBe('deny');
    for (const file of ['/w/x/a/keys/k', '/w/secretsx/k', '/w/notes.txt'])
      expect(deny.evaluate({ name: 'Read' }, { file_path: file }).behavior, file).toBe('allow');
    const allow = createPermissionEngine({ workspace: '/w', rules: { allow: ['Edit(./a.ts)', 'Edit(src/**)'] } });
    const edit = { name: 'Edit', edits: true };
    expect(allow.evaluate(edit, { file_path: '/w/a.ts' }).behavior).toBe('allow');
    expect(allow.evaluate(edit, { file_path: '/w/src/b.ts' }).behavior).toBe('allow');
    expect(allow.evaluate(edit, { file_path: '/w/x/a.ts' }).behavior).toBe('ask');
    expect(allow.evaluate(edit, { file_path: '/w/vendor/src/b.ts' }).behavior).toBe('ask');
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
