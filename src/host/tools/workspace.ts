/**
 * Workspace confinement: every path a tool touches must resolve — symlinks followed as far as
 * the path exists — to a place inside the workspace root. Used by the tools themselves and by
 * the pipeline's isolation check (again after a hook rewrote the input).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { extractToolPaths } from '../../matching/index.js';
import { ToolError } from '../types.js';

/** Real path of the longest existing prefix of `p`, joined with the rest. */
function realish(p: string): string {
  let head = path.resolve(p);
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync.native(head), ...rest);
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return path.join(head, ...rest);
      rest.unshift(path.basename(head));
      head = parent;
    }
  }
}

export function isInside(root: string, p: string): boolean {
  const rel = path.relative(realish(root), realish(p));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Inside the workspace or one of the directories added to the session (DirectoryAdded). */
export function isInsideAny(workspace: string, roots: readonly string[], p: string): boolean {
  return isInside(workspace, p) || roots.some((r) => isInside(r, p));
}

/** The absolute path, or a ToolError when it lies outside the workspace (and the added directories). */
export function confine(p: string, workspace: string, cwd: string = workspace, roots: readonly string[] = []): string {
  const abs = path.resolve(cwd, p);
  if (!isInsideAny(workspace, roots, abs)) throw new ToolError(`${p} is outside the workspace ${workspace}`);
  return abs;
}

/**
 * Isolation check of a tool call: the paths named by its input (file tools, searches, every
 * path of a patch) and its working directory must lie inside the workspace or a directory added
 * to the session. Returns the first problem, or undefined.
 */
export function isolationProblem(toolName: string, input: Record<string, unknown>, workspace: string, cwd: string, roots: readonly string[] = []): string | undefined {
  if (!isInsideAny(workspace, roots, cwd)) return `working directory ${cwd} is outside the workspace ${workspace}`;
  for (const p of extractToolPaths(toolName, input)) {
    if (!isInsideAny(workspace, roots, path.resolve(cwd, p))) return `${toolName} path ${p} is outside the workspace ${workspace}`;
  }
  return undefined;
}
