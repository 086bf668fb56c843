import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hashScript, referencedScripts, type ScriptContext } from '../../src/trust/scripts.js';
import type { CommandHandler } from '../../src/types.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

let dir: TempDir;
let ctx: ScriptContext;
beforeEach(() => {
  dir = tempDir('agent-hooks-scripts-');
  ctx = { cwd: dir.path('proj'), projectDir: dir.path('proj'), homeDir: dir.path('home'), pluginRoot: dir.path('plug') };
  mkdirSync(dir.path('proj'), { recursive: true });
});
afterEach(() => dir.cleanup());

const cmd = (command: string, extra: Partial<CommandHandler> = {}): CommandHandler => ({ type: 'command', command, ...extra });

describe('referencedScripts', () => {
  it('shell form: placeholders (braced, bare, quoted), ~/, relative and absolute paths', async () => {
    const refs = await referencedScripts(
      cmd(
        'sh "${CLAUDE_PROJECT_DIR}/a.sh" && "$CLAUDE_PROJECT_DIR"/b.sh; node ${CLAUDE_PLUGIN_ROOT}/c.mjs | ~/bin/d --x ./e.py ../f /abs/g scripts/h.sh',
      ),
      ctx,
    );
    expect(refs).toEqual([
      dir.path('proj', 'a.sh'),
      dir.path('proj', 'b.sh'),
      dir.path('plug', 'c.mjs'),
      dir.path('home', 'bin', 'd'),
      dir.path('proj', 'e.py'),
      dir.path('f'),
      '/abs/g',
      dir.path('proj', 'scripts', 'h.sh'),
    ]);
  });

  it('shell form: words inside $(…) and redirections count; URLs, globs, options and inline code do not', async () => {
    const refs = await referencedScripts(
      cmd(`curl https://example.invalid/x -o out.txt; cat $(cat ./list) < ./in; ls src/*.ts; python3 -c 'import os; print("a/b")'`),
      ctx,
    );
    expect(refs).toEqual([dir.path('proj', 'list'), dir.path('proj', 'in')]);
  });

  it('a bare word counts only when it names an existing file in the working directory', async () => {
    dir.write('proj/hook.sh', 'echo');
    const refs = await referencedScripts(cmd('bash hook.sh other.sh'), ctx);
    expect(refs).toEqual([dir.path('proj', 'hook.sh')]);
  });

  it('exec form: command and every args element, placeholders substituted, no shell parsing', async () => {
    dir.write('proj/local.js', '');
    const refs = await referencedScripts(cmd('node', { args: ['${CLAUDE_PROJECT_DIR}/x y.mjs', '--flag', 'local.js', '$HOME/z'] }), ctx);
    // Exec form has no shell: `$HOME` stays literal, as the engine passes it.
    expect(refs).toEqual([dir.path('proj', 'x y.mjs'), dir.path('proj', 'local.js'), dir.path('proj', '$HOME', 'z')]);
    expect(await referencedScripts(cmd('/usr/bin/env', { args: [] }), ctx)).toEqual(['/usr/bin/env']);
  });

  it('an unparsable command line falls back to splitting on whitespace', async () => {
    const refs = await referencedScripts(cmd('sh ./a.sh "unterminated'), ctx);
    expect(refs).toContain(dir.path('proj', 'a.sh'));
  });
});

describe('hashScript', () => {
  it('hashes regular files and records what else a path is', async () => {
    const f = dir.write('proj/a.sh', 'echo hi\n');
    expect(await hashScript(f)).toEqual({ kind: 'file', sha256: createHash('sha256').update('echo hi\n').digest('hex'), size: 8 });
    expect(await hashScript(dir.path('proj', 'missing.sh'))).toEqual({ kind: 'missing' });
    expect(await hashScript(dir.path('proj'))).toEqual({ kind: 'directory' });
    execFileSync('mkfifo', [dir.path('proj', 'fifo')]);
    expect(await hashScript(dir.path('proj', 'fifo'))).toEqual({ kind: 'special' });
  });

  it('a path that cannot be read is an error, never a throw', async () => {
    symlinkSync('loop', dir.path('proj', 'loop'));
    const st = await hashScript(dir.path('proj', 'loop'));
    expect(st.kind).toBe('error');
    expect(st.kind === 'error' && st.message).toMatch(/ELOOP/);
  });
});
