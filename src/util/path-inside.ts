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
  // Absolute POSIX paths in normal form (the real paths the trust gate compares, once per hook
  // and script) are their own resolved form, so a prefix test at a separator says the same as
  // path.relative, whose character-by-character normalising of both is the cost of this call.
  if (isNormalAbsolute(child) && isNormalAbsolute(parent)) return child === parent || child.startsWith(parent === '/' ? '/' : `${parent}/`);
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** An absolute POSIX path that path.resolve returns unchanged: no empty, `.` or `..` segment, no trailing `/`. */
function isNormalAbsolute(p: string): boolean {
  if (path.sep !== '/' || p.charCodeAt(0) !== 47) return false;
  if (p.length === 1) return true;
  return !p.endsWith('/') && !p.includes('//') && !p.includes('/./') && !p.includes('/../') && !p.endsWith('/.') && !p.endsWith('/..');
}
