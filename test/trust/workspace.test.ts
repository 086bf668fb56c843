import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveWorkspace } from '../../src/trust/workspace.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { git } from './helpers.js';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir('agent-hooks-ws-');
});
afterEach(() => dir.cleanup());

describe('resolveWorkspace', () => {
  it('a plain directory is identified by its real path', async () => {
    mkdirSync(dir.path('p'));
    symlinkSync(dir.path('p'), dir.path('link'));
    const a = await resolveWorkspace(dir.path('p'));
    const b = await resolveWorkspace(dir.path('link'));
    expect(a.identity).toBe(`dir:${realpathSync(dir.path('p'))}`);
    expect(b.identity).toBe(a.identity);
    expect(a.git).toBeUndefined();
    expect(a.root).toBe(a.dir);
  });

  it('worktrees of one repository share an identity; other repositories and sub-projects do not', async () => {
    const repo = dir.path('repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    writeFileSync(join(repo, 'f'), 'x');
    git(repo, 'add', 'f');
    git(repo, 'commit', '-q', '-m', 'init');
    git(repo, 'worktree', 'add', '-q', dir.path('wt'), '-b', 'feature');
    mkdirSync(join(repo, 'packages', 'a'), { recursive: true });
    mkdirSync(dir.path('wt', 'packages', 'a'), { recursive: true });

    const main = await resolveWorkspace(repo);
    const wt = await resolveWorkspace(dir.path('wt'));
    expect(main.git?.commonDir).toBe(realpathSync(join(repo, '.git')));
    expect(wt.identity).toBe(main.identity);
    expect(wt.root).toBe(realpathSync(dir.path('wt')));

    const subMain = await resolveWorkspace(join(repo, 'packages', 'a'));
    const subWt = await resolveWorkspace(dir.path('wt', 'packages', 'a'));
    expect(subMain.identity).toBe(`${main.identity}#packages/a`);
    expect(subWt.identity).toBe(subMain.identity);
    expect(subMain.root).toBe(main.root);

    const other = dir.path('other');
    mkdirSync(other);
    git(other, 'init', '-q');
    expect((await resolveWorkspace(other)).identity).not.toBe(main.identity);
  });

  it('a malformed .git file is not a repository', async () => {
    dir.write('p/.git', 'not a gitdir line');
    const ws = await resolveWorkspace(dir.path('p'));
    expect(ws.identity).toBe(`dir:${realpathSync(dir.path('p'))}`);
  });

  it('a missing directory resolves without throwing', async () => {
    const ws = await resolveWorkspace(dir.path('nope'));
    expect(ws.identity).toBe(`dir:${dir.path('nope')}`);
  });
});
