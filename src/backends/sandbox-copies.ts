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
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { tempDir, userHome } from '../util/os-dirs.js';

export interface Copies {
  root: string;
  /** Real directory → its copy, the names the view itself puts in it, and where the real one was. */
  dirs: Map<string, { copy: string; made: Set<string>; at: string }>;
  /** Mount points in the copies, with their identity when made. */
  stubs: Map<string, string>;
}

/**
 * Under the user's cache, not /tmp: an agent that confines the model's commands (the case the
 * default view is for) lets them write the workspace and the temp directories, not `~/.cache`.
 */
export function newCopies(): Copies {
  const base = join(userHome(), '.cache', 'agent-hooks', 'views');
  let root: string;
  try {
    mkdirSync(base, { recursive: true, mode: 0o700 });
    root = mkdtempSync(join(base, 'v-'));
  } catch {
    root = mkdtempSync(join(tempDir(), 'agent-hooks-view-'));
  }
  return { root, dirs: new Map(), stubs: new Map() };
}

const identity = (p: string) => {
  const st = lstatSync(p, { bigint: true });
  return `${st.dev}:${st.ino}:${st.ctimeNs}`;
};

/** The copy of the real directory `real` (with its mode, writable by its owner), to bind at `real`. */
export function copyOf(c: Copies, real: string): string {
  const copy = join(c.root, String(c.dirs.size));
  mkdirSync(copy);
  chmodSync(copy, (statSync(real).mode & 0o7777) | 0o700);
  c.dirs.set(real, { copy, made: new Set(), at: whereIs(real) });
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
  for (const [p, id] of c.stubs) {
    let now: string | undefined;
    try {
      now = identity(p);
    } catch {
      // Gone: changed.
    }
    if (now !== id) changed ??= `the sandbox's private copy ${p} was changed from outside while the hook ran`;
  }
  for (const [real, { copy, made: own, at }] of c.dirs)
    for (const name of readdirSync(copy)) {
      if (own.has(name)) continue;
      // Put only where the copy was made: a directory the agent replaced meanwhile (by a link to a
      // place its confinement keeps it out of) does not receive what the hook wrote.
      if (whereIs(real) !== at) {
        warnings.push(`the hook created ${join(real, name)} in the sandbox, but ${real} was replaced while it ran: not kept`);
        continue;
      }
      const from = join(copy, name);
      const to = join(real, name);
      if (exists(to)) {
        warnings.push(`the hook created ${to} in the sandbox, but ${to} appeared meanwhile: the hook's was not kept`);
        continue;
      }
      moveInto(from, to, warnings);
    }
  rmSync(c.root, { recursive: true, force: true });
  return changed !== undefined ? { warnings, changed } : { warnings };
}

/** The directory a path names now: its real path and identity (no link on the way changed). */
function whereIs(dir: string): string {
  try {
    const st = statSync(dir, { bigint: true });
    return `${realpathSync.native(dir)}\0${st.dev}:${st.ino}`;
  } catch {
    return '';
  }
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function moveInto(from: string, to: string, warnings: string[]): void {
  try {
    renameSync(from, to);
  } catch (e) {
    try {
      // Another file system (the cache and the project apart): copied, then removed with the rest.
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      cpSync(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true, errorOnExist: true, force: false });
    } catch (err) {
      warnings.push(`the hook created ${to} in the sandbox, but it could not be put there: ${(err as Error).message}`);
    }
  }
}
