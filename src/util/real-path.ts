/**
 * Paths through symbolic links, as the kernel resolves them: bounded and never throwing. The
 * native realpath: Node's own collapses `..` as text before it follows links, so `dl/../x` with
 * `dl -> /elsewhere/d` came out inside the project while the kernel opens `/elsewhere/x`.
 */
import { readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

const realpath = realpathSync.native;

/** `p` through every link (realpath); `p` itself when it cannot be resolved (absent, a loop). */
export function realOr(p: string): string {
  try {
    return realpath(p);
  } catch {
    return p;
  }
}

/** `p` with its directory part resolved through links and its name as written; `p` when that fails. */
export function realDirPath(p: string): string {
  try {
    return path.join(realpath(path.dirname(p)), path.basename(p));
  } catch {
    return p;
  }
}

/** Linux's own bound on the links one open follows (ELOOP). */
const MAX_LINKS = 40;

/**
 * The files an open of the absolute path `p` reaches: `p` with its directory resolved, then each
 * link its last name is, followed in turn (a dangling one to the file a write would create). A
 * loop, or a name that cannot be read, ends the list at what was resolved so far.
 */
export function linkTargets(p: string): string[] {
  const out: string[] = [];
  let cur = p;
  for (let i = 0; i < MAX_LINKS; i++) {
    cur = realDirPath(cur);
    if (out.includes(cur)) break;
    out.push(cur);
    let target: string;
    try {
      target = readlinkSync(cur);
    } catch {
      break; // not a link, or absent
    }
    // Joined, not resolved: a `..` after a link in the target is the kernel's to take (realDirPath).
    cur = target.startsWith('/') ? target : `${path.dirname(cur)}/${target}`;
  }
  return out;
}
