/**
 * Workspace confinement: every path a tool touches must resolve — symlinks followed as far as
 * the path exists, and dangling ones to where a write would create their target — to a place
 * inside the workspace root. Used by the tools themselves and by the pipeline's isolation
 * check (again after a hook rewrote the input).
 *
 * A check ahead of time can be outrun (a link created after it), so writes go through
 * writeInside: the parent's real path is checked at the moment of writing, and the final
 * component is opened with O_NOFOLLOW, so a symlink put there meanwhile fails the write
 * instead of being followed. A link that already points inside the workspace is written
 * through, to its (checked) target.
 */
import { constants, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { extractToolPaths } from '../../matching/index.js';
import { ToolError } from '../types.js';
import { isPathInside } from '../../util/path-inside.js';

/** Symlinks followed by hand in a chain of dangling links before giving up (as the kernel's ELOOP). */
const MAX_LINKS = 40;

/**
 * Real path of the longest existing prefix of `p`, joined with the rest. A dangling symlink on
 * the way is followed to its target: writing through it would create that target.
 */
function realish(p: string, links = 0): string {
  let head = path.resolve(p);
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync.native(head), ...rest);
    } catch {
      const target = links < MAX_LINKS ? danglingTarget(head) : undefined;
      if (target !== undefined) return realish(path.join(target, ...rest), links + 1);
      const parent = path.dirname(head);
      if (parent === head) return path.join(head, ...rest);
      rest.unshift(path.basename(head));
      head = parent;
    }
  }
}

/** Where the symlink `p` points (absolute), or undefined when `p` is not a symlink. */
function danglingTarget(p: string): string | undefined {
  try {
    if (!lstatSync(p).isSymbolicLink()) return undefined;
    return path.resolve(path.dirname(p), readlinkSync(p));
  } catch {
    return undefined;
  }
}

function isInside(root: string, p: string): boolean {
  return isPathInside(realish(p), realish(root));
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
export function isolationProblem(
  toolName: string,
  input: Record<string, unknown>,
  workspace: string,
  cwd: string,
  roots: readonly string[] = [],
): string | undefined {
  if (!isInsideAny(workspace, roots, cwd)) return `working directory ${cwd} is outside the workspace ${workspace}`;
  for (const p of extractToolPaths(toolName, input)) {
    if (!isInsideAny(workspace, roots, path.resolve(cwd, p))) return `${toolName} path ${p} is outside the workspace ${workspace}`;
  }
  return undefined;
}

/**
 * Write `content` to `file` (already confined), re-checked at the moment of writing: the
 * parent directory by its real path, the final component opened without following a symlink.
 */
export async function writeInside(
  file: string,
  content: string,
  workspace: string,
  roots: readonly string[] = [],
  links = 0,
): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  const final = path.join(await fs.realpath(dir), path.basename(file));
  if (!isInsideAny(workspace, roots, final)) throw new ToolError(`${file} is outside the workspace ${workspace}`);
  const info = await fs.lstat(final).catch(() => undefined);
  if (info?.isSymbolicLink()) {
    // isInsideAny followed the link: its target is inside too. Write there, checked the same way.
    if (links >= MAX_LINKS) throw new ToolError(`${file}: too many levels of symbolic links`);
    return writeInside(path.resolve(path.dirname(final), await fs.readlink(final)), content, workspace, roots, links + 1);
  }
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(final, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0), 0o666);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP')
      throw new ToolError(`${file} became a symbolic link while being written; nothing was written`);
    throw err;
  }
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}
