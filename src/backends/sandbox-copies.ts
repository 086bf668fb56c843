/**
 * The private copies of the directories on the way to a served file (src/backends/sandbox-view.ts),
 * kept in a directory of the engine's own, outside the workspace: the hook may create entries in
 * them (a log in the project root, a temp file in a /tmp the project lies under), and those entries
 * are moved into the real directories when the hook has ended, so nothing it writes is refused or
 * lost. The copies hold the mount points the view relies on; each is recorded when made, so a
 * copy changed from outside while the hook ran (a mount point renamed away, which detaches the
 * served bytes in the sandbox) voids the hook's answer.
 */
import {
  chmodSync,
  chownSync,
  closeSync,
  cpSync,
  fstatSync,
  constants as fsConstants,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { userHome } from '../util/os-dirs.js';
import { isPathInside } from '../util/path-inside.js';

export interface Copies {
  root: string;
  /** Real directory → its copy, the names the view itself puts in it, and a descriptor of the real one. */
  dirs: Map<string, { copy: string; made: Set<string>; fd: number }>;
  /** Mount points in the copies, with their identity when made. */
  stubs: Map<string, string>;
}

/**
 * In the user's runtime directory (`$XDG_RUNTIME_DIR`: private to the user, in memory, where bwrap
 * makes its mount points several times faster than on a disk) or else the user's cache; never a
 * shared temp directory: an agent that confines the model's commands (the case the default view is
 * for) lets them write the workspace and the temp directories, not these, and what the model could
 * write in a copy would be put in place. Where the copies cannot be made, or lie in a directory the
 * hook may write, there is no view: the engine's failure.
 */
export function newCopies(writable: readonly string[]): Copies | { error: string } {
  const base = join(runtimeDir() ?? join(userHome(), '.cache'), 'agent-hooks', 'views');
  const inside = writable.find((w) => isPathInside(base, w));
  if (inside !== undefined)
    return { error: `the sandbox's private copies would be in ${base}, inside ${inside}, which the agent can write` };
  try {
    mkdirSync(base, { recursive: true, mode: 0o700 });
    return { root: mkdtempSync(join(base, 'v-')), dirs: new Map(), stubs: new Map() };
  } catch (e) {
    return { error: `cannot make the sandbox's private copies in ${base}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
}

/** `$XDG_RUNTIME_DIR` when it is what the spec says: an absolute directory of this user's, closed to others. */
function runtimeDir(): string | undefined {
  const dir = process.env.XDG_RUNTIME_DIR;
  if (dir === undefined || !isAbsolute(dir)) return undefined;
  try {
    const st = statSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

const identity = (p: string) => {
  try {
    const st = lstatSync(p, { bigint: true });
    return `${st.dev}:${st.ino}:${st.ctimeNs}`;
  } catch {
    return '';
  }
};

/**
 * The copy of the real directory `real` (its mode and group, writable by its owner), to bind at
 * `real`. The real one is held open, so what the hook creates goes into that very directory even
 * if the agent replaces the path meanwhile. Throws when `real` is not a directory (a link included).
 */
export function copyOf(c: Copies, real: string): string {
  const fd = openSync(real, fsConstants.O_RDONLY | fsConstants.O_DIRECTORY | fsConstants.O_NOFOLLOW);
  const copy = join(c.root, String(c.dirs.size));
  c.dirs.set(real, { copy, made: new Set(), fd });
  const st = fstatSync(fd);
  mkdirSync(copy);
  try {
    // The group, so a setgid project's new files get its group, as they would in place.
    chownSync(copy, st.uid, st.gid);
  } catch {
    // Another owner's directory: the copy stays the engine's.
  }
  chmodSync(copy, (st.mode & 0o7777) | 0o700);
  return copy;
}

/** `name` in the copy of `dir` is the view's own; a mount point (`kind`) is made and recorded now. */
export function made(c: Copies, dir: string, name: string, kind?: 'file' | 'dir'): void {
  const d = c.dirs.get(dir);
  if (d === undefined) return;
  d.made.add(name);
  if (kind === undefined) return;
  const p = join(d.copy, name);
  if (kind === 'dir') mkdirSync(p);
  else writeFileSync(p, '');
  c.stubs.set(p, identity(p));
}

/**
 * After the hook (and all it started) ended: what it created in the copies goes into the real
 * directories (an entry of the same name made there meanwhile is kept, and the hook's is reported),
 * then the copies are removed. Returns the warnings, and what was changed from outside, if anything.
 */
export function settleCopies(c: Copies): { warnings: string[]; changed?: string } {
  const warnings: string[] = [];
  let changed: string | undefined;
  for (const [p, id] of c.stubs)
    if (identity(p) !== id) changed ??= `the sandbox's private copy ${p} was changed from outside while the hook ran`;
  for (const [real, { copy, made: own, fd }] of c.dirs) {
    let names: string[] = [];
    try {
      names = readdirSync(copy);
    } catch (e) {
      changed ??= `the sandbox's private copy ${copy} of ${real} could not be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
    }
    for (const name of names) if (!own.has(name)) moveInto(join(copy, name), { real, fd, name }, warnings);
  }
  releaseCopies(c);
  return changed !== undefined ? { warnings, changed } : { warnings };
}

/** The copies removed and the real directories let go, nothing moved (a view not used). */
export function releaseCopies(c: Copies): void {
  for (const { fd } of c.dirs.values()) closeSync(fd);
  c.dirs.clear();
  rmSync(c.root, { recursive: true, force: true });
}

/** Into the held directory itself (its /proc/self/fd path), never through a path the agent may have re-pointed. */
function moveInto(from: string, into: { real: string; fd: number; name: string }, warnings: string[]): void {
  const shown = join(into.real, into.name);
  const to = `/proc/self/fd/${into.fd}/${into.name}`;
  if (identity(to) !== '') {
    warnings.push(`the hook created ${shown} in the sandbox, but ${shown} appeared meanwhile: the hook's was not kept`);
    return;
  }
  try {
    renameSync(from, to);
  } catch (e) {
    try {
      // Another file system (the cache and the project apart): copied, then removed with the rest.
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      cpSync(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true, errorOnExist: true, force: false });
    } catch (err) {
      warnings.push(`the hook created ${shown} in the sandbox, but it could not be put there: ${(err as Error).message}`);
    }
  }
}
