/**
 * Canonical workspace identity: which trust record a directory uses.
 *
 * - Outside git: `dir:<realpath>`.
 * - Inside a git work tree: `git:<realpath of the common git dir>` plus the directory's path
 *   inside the work tree, so every worktree of one repository (and every clone path of a
 *   symlinked checkout) maps to the same record, while two sub-projects of one monorepo do not.
 *
 * Git metadata is read from disk (`.git` directory, or a `.git` file with `gitdir:` and that
 * gitdir's `commondir`), without spawning git. A `.git` file counts only when the git dir it
 * names points back at this checkout (`pointsBack`); otherwise the identity is `dir:<realpath>`. The identity only selects a record; what may
 * run is decided by the digest, which binds the hook config and script contents.
 */
import type { Stats } from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface Workspace {
  /** Real path of the workspace (project) directory. */
  dir: string;
  /** The key of the trust record. */
  identity: string;
  /**
   * Paths under this directory are written relative to it in digests (`%ROOT%/…`), so that
   * worktrees of one repository produce equal digests: the git work tree's top level, or `dir`.
   */
  root: string;
  git?: {
    /** Real path of the repository's common git dir (shared by all its worktrees). */
    commonDir: string;
    /** Top level of this work tree. */
    worktree: string;
  };
}

async function realpathOrResolve(p: string): Promise<string> {
  try {
    return await fs.realpath(p);
  } catch {
    return path.resolve(p);
  }
}

async function readIfFile(p: string): Promise<string | undefined> {
  try {
    return await fs.readFile(p, 'utf8');
  } catch {
    return undefined;
  }
}

/** Find the git dir that owns `dir` by walking up to the first `.git` entry. */
async function findGit(dir: string): Promise<Workspace['git'] | undefined> {
  for (let cur = dir; ; ) {
    const dotGit = path.join(cur, '.git');
    let stat: Stats | undefined;
    try {
      stat = await fs.stat(dotGit);
    } catch {
      stat = undefined;
    }
    if (stat?.isDirectory()) {
      // A main work tree (or a repo whose .git is a directory): that directory is the common dir,
      // unless it carries a commondir file itself (unusual layouts).
      return { commonDir: await commonDirOf(dotGit), worktree: cur };
    }
    if (stat?.isFile()) {
      const text = await readIfFile(dotGit);
      const m = text && /^gitdir:\s*(.+?)\s*$/m.exec(text);
      if (m) {
        const gitDir = path.resolve(cur, m[1]!);
        if (await pointsBack(gitDir, cur)) return { commonDir: await commonDirOf(gitDir), worktree: cur };
      }
      // A malformed .git file, or one git would not own up to: identify the directory by itself.
      return undefined;
    }
    const parent = path.dirname(cur);
    if (parent === cur) return undefined;
    cur = parent;
  }
}

/**
 * A `.git` file is accepted only when the git dir it names points back at this checkout, as git
 * records it: a linked worktree's `<common>/worktrees/<id>/gitdir` names this `.git` file; a
 * submodule's (or `--separate-git-dir`) git dir has `core.worktree` naming this directory.
 * Otherwise any directory could borrow a trusted repository's identity with one line.
 */
async function pointsBack(gitDir: string, checkout: string): Promise<boolean> {
  const real = await realpathOrResolve(checkout);
  const back = await readIfFile(path.join(gitDir, 'gitdir'));
  if (back?.trim()) {
    const target = path.resolve(gitDir, back.trim());
    return (await realpathOrResolve(target)) === path.join(real, '.git');
  }
  const config = await readIfFile(path.join(gitDir, 'config'));
  const wt = config && /^\s*worktree\s*=\s*(.+?)\s*$/m.exec(config);
  if (wt) return (await realpathOrResolve(path.resolve(gitDir, wt[1]!.replace(/^"|"$/g, '')))) === real;
  return false;
}

async function commonDirOf(gitDir: string): Promise<string> {
  const common = await readIfFile(path.join(gitDir, 'commondir'));
  const target = common?.trim() ? path.resolve(gitDir, common.trim()) : gitDir;
  return realpathOrResolve(target);
}

/** Resolve the canonical identity of a workspace directory. Never throws. */
export async function resolveWorkspace(workspaceDir: string): Promise<Workspace> {
  const dir = await realpathOrResolve(workspaceDir);
  const git = await findGit(dir);
  if (!git) return { dir, identity: `dir:${dir}`, root: dir };
  const worktree = await realpathOrResolve(git.worktree);
  const sub = path.relative(worktree, dir).split(path.sep).join('/');
  return {
    dir,
    identity: `git:${git.commonDir}${sub ? `#${sub}` : ''}`,
    root: worktree,
    git: { commonDir: git.commonDir, worktree },
  };
}
