/**
 * Worktrees of `isolation: "worktree"` subagents: a WorktreeCreate hook replaces `git worktree
 * add` (its printed path is the worktree; any failure fails creation); the path joins the
 * confinement roots while the subagent runs; WorktreeRemove when it finishes.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { runTool } from '../backends/spawn-tool.js';
import type { Decision } from '../reduce/reduce.js';
import type { Worktree, WorktreeManager } from './agent.js';
import { emit, type RuntimeState } from './session-state.js';
import { isInsideAny } from './tools/index.js';

/** The worktree a WorktreeCreate hook made: the last line it printed, checked. */
function hookWorktree(st: RuntimeState, d: Decision): Worktree {
  if (d.blocked) throw new Error(d.reason ?? 'a WorktreeCreate hook failed');
  // The path is the last non-empty line of stdout, ANSI escapes stripped (shell banners come first).
  const raw = d.eventOutput.worktreePath;
  const printed =
    typeof raw === 'string'
      ? raw
          // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the terminal escape sequences being stripped
          .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean)
          .pop()
      : undefined;
  if (printed === undefined) throw new Error('the WorktreeCreate hook printed no path');
  if (path.isAbsolute(printed) && printed.split(/[\\/]/).some((seg) => seg === '.' || seg === '..'))
    throw new Error(`the WorktreeCreate hook's path ${printed} contains . or .. segments`);
  let real: string;
  try {
    real = realpathSync.native(path.resolve(st.cwd, printed));
  } catch {
    throw new Error(`the WorktreeCreate hook's path ${printed} does not exist`);
  }
  if (!statSync(real).isDirectory()) throw new Error(`the WorktreeCreate hook's path ${printed} is not a directory`);
  return { path: real, byHook: true };
}

async function gitWorktree(st: RuntimeState, name: string): Promise<Worktree> {
  const dir = path.join(st.workspace, '.claude', 'worktrees', name);
  try {
    await runTool('git', ['worktree', 'add', '--detach', dir, 'HEAD'], { cwd: st.workspace });
  } catch (e) {
    throw new Error(`git worktree add failed: ${(e as { detail?: string }).detail ?? (e as Error).message}`);
  }
  return { path: realpathSync.native(dir), byHook: false };
}

export function createWorktrees(st: RuntimeState): WorktreeManager {
  return {
    async create(name) {
      const d = await emit(st, 'WorktreeCreate', { name });
      const wt = d.hooks.length > 0 ? hookWorktree(st, d) : await gitWorktree(st, name);
      if (!isInsideAny(st.workspace, st.roots, wt.path)) st.roots.push(wt.path);
      return wt;
    },
    async remove(wt) {
      await emit(st, 'WorktreeRemove', { worktree_path: wt.path });
      const i = st.roots.indexOf(wt.path);
      if (i >= 0) st.roots.splice(i, 1);
      if (!wt.byHook) {
        await runTool('git', ['worktree', 'remove', '--force', wt.path], { cwd: st.workspace }).catch((e) =>
          st.warn(`git worktree remove ${wt.path}: ${(e as { detail?: string }).detail ?? (e as Error).message}`),
        );
      }
    },
  };
}
