/**
 * The sandbox's view of the file system when a reviewed hook's pinned files are served: the hook
 * runs the very bytes the engine verified, whatever the agent does to the files meanwhile.
 *
 * Binding a verified copy over the script's path is not enough: renaming a file over a mount
 * point (or renaming a directory above it) outside the sandbox detaches that mount inside it
 * (Linux ≥ 3.18). So no directory on the way to a served file is the real directory: each is a
 * private copy holding binds of its other entries (read-write inside the workspace, read-only
 * outside under "bwrap") and the served files as read-only data read from a pipe. A rename
 * outside then only detaches a bind of some other entry. A copy the hook may write is a directory
 * of the engine's own (sandbox-copies.ts): what the hook creates there is moved into the real
 * directory when it ends. The others (outside the workspace under "bwrap") are read-only tmpfs.
 * Entries the agent creates in those directories while the hook runs are not visible to it.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ServedPin } from '../types.js';
import { type Copies, copyOf, made } from './sandbox-copies.js';
import { isPathInside } from '../util/path-inside.js';

export interface ViewSpec {
  /** Directories the hook may write (under `isolated`; without it, every entry keeps its own permissions). */
  writable: readonly string[];
  /** The "bwrap" sandbox: a private /tmp, /dev and /proc, and read-only outside `writable`. */
  isolated: boolean;
  /** By absolute path. */
  served: ReadonlyMap<string, ServedPin>;
  /** Where the writable copies of the directories on the way are made. */
  copies: Copies;
}

/** Roots the sandbox always replaces: device nodes, its own /proc, a private /tmp. */
const SPECIAL: Record<string, string[]> = { '/dev': ['--dev', '/dev'], '/proc': ['--proc', '/proc'] };
const PRIVATE_TMP = '/tmp';

/**
 * Binds the view may hold (a link is no mount). bwrap's cost grows with the square of their number
 * (measured: 250 entries 0.2 s, 500 0.6 s, 1,000 2.3 s, 2,000 9.4 s; over ~3,000 it refuses its
 * arguments), and the agent can add entries. Beyond the bound there is no view: the sandbox runs the
 * hook on the files in place (a `node_modules/` on the way to `npx X` is that large), and the
 * post-run comparison voids its answer if they changed, as without the sandbox.
 */
const MAX_MOUNTS = 500;

/**
 * bwrap's mount arguments for the view, and the data its `--ro-bind-data` descriptors read (fd 3,
 * 4, …); `undefined` when the view would hold more than MAX_MOUNTS binds.
 */
export function viewArgs(spec: ViewSpec): { args: string[]; inputs: Buffer[] } | { error: string } | undefined {
  const chain = new Set<string>();
  for (const p of spec.served.keys()) for (let d = dirname(p); !chain.has(d); d = dirname(d)) chain.add(d);
  const args: string[] = [];
  const inputs: Buffer[] = [];
  const writable = (p: string) => !spec.isolated || spec.writable.some((w) => isPathInside(p, w));
  // Without isolation an entry is the real one, devices included (/dev, /proc are binds too).
  const bind = spec.isolated ? '--bind-try' : '--dev-bind-try';
  const seen = new Set<string>();
  // The directories on the way made read-only tmpfs copies (the rest are the engine's own copies).
  const mounted = new Set<string>();
  // The root: bwrap's own tmpfs, or a writable copy.
  if (writable('/')) args.push('--bind', copyOf(spec.copies, '/'), '/');
  else mounted.add('/');
  let mounts = 0;
  // A private directory shows only what leads to a served file or a writable directory.
  const visit = (dir: string, hidden: boolean): string | null | undefined => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (e) {
      return `cannot list ${dir} to build the sandbox's view: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
    }
    for (const name of names.sort()) {
      const p = join(dir, name);
      if (spec.served.has(p)) continue;
      if (chain.has(p)) {
        if (writable(p)) {
          const refused = bindCopy(spec.copies, args, dir, p);
          if (refused !== undefined) return refused;
        } else {
          made(spec.copies, dir, name);
          args.push('--tmpfs', p);
          mounted.add(p);
        }
        const why = visit(p, (hidden || (spec.isolated && p === PRIVATE_TMP)) && !writable(p));
        if (why !== undefined) return why;
        continue;
      }
      if (spec.isolated && dir === '/' && SPECIAL[p]) {
        made(spec.copies, dir, name);
        args.push(...SPECIAL[p]);
        continue;
      }
      if (spec.isolated && dir === '/' && p === PRIVATE_TMP) {
        made(spec.copies, dir, name);
        args.push('--tmpfs', p);
        continue;
      }
      // Below a writable directory only that directory is shown (bound by the loop after the visit).
      if (hidden && !writable(p)) continue;
      seen.add(p);
      made(spec.copies, dir, name);
      let link: string | undefined;
      try {
        link = readlinkSync(p);
      } catch {
        // Not a link (or gone since the listing: the -try bind below skips it).
      }
      if (link !== undefined) args.push('--symlink', link, p);
      else if (++mounts > MAX_MOUNTS) return null;
      else args.push(writable(p) ? bind : '--ro-bind-try', p, p);
    }
    return undefined;
  };
  const why = visit('/', false);
  if (why === null) return undefined;
  if (why !== undefined) return { error: why };
  // Writable directories not reached above (under a private /tmp, or below a read-only bind).
  if (spec.isolated) for (const w of spec.writable) if (!chain.has(w) && !seen.has(w)) args.push('--bind-try', w, w);
  serve(spec, args, inputs);
  // The tmpfs copies are read-only (an entry created there would be lost); the private /tmp of
  // "bwrap" stays writable, as without served files.
  for (const d of mounted) if (!(spec.isolated && d === PRIVATE_TMP)) args.push('--remount-ro', d);
  return { args, inputs };
}

/** The served files as read-only data from descriptors 3, 4, … (mode kept); links with their checked target. */
function serve(spec: ViewSpec, args: string[], inputs: Buffer[]): void {
  for (const [p, pin] of spec.served) {
    // A path checked absent is not the view's: what the hook creates there is kept like any other entry.
    if (pin.kind !== 'missing') made(spec.copies, dirname(p), basename(p), pin.kind === 'file' ? 'file' : undefined);
    if (pin.kind === 'file') {
      args.push('--perms', (pin.mode & 0o7777).toString(8), '--ro-bind-data', String(3 + inputs.length), p);
      inputs.push(pin.bytes);
    } else if (pin.kind === 'link') args.push('--symlink', pin.target, p);
  }
}

/** `p` bound to its writable copy; a copy is made of a directory only (a link where one was checked is refused). */
function bindCopy(copies: Copies, args: string[], dir: string, p: string): string | undefined {
  try {
    made(copies, dir, basename(p), 'dir');
    args.push('--bind', copyOf(copies, p), p);
    return undefined;
  } catch (e) {
    return `${p}, on the way to a pinned file, is not a directory the sandbox can copy: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
}
