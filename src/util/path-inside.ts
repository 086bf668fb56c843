/**
 * Whether a path is a directory or lies under it, compared as paths (links are not followed).
 */
import path from 'node:path';

/**
 * `child` is `parent` or under it: path.relative from one to the other neither climbs out (`..`,
 * `../…`) nor is absolute (another drive on Windows). A first name that merely begins with two
 * dots (`..plugins`, `...`) is inside: testing the relative path for a leading `..` alone puts it
 * outside, which for the trust gate meant a plugin there was not gated.
 */
export function isPathInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
