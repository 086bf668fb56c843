/**
 * Whether file names that differ only in case name one file on this platform. macOS (APFS and
 * HFS+) and Windows (NTFS) are case-insensitive by default; a case-sensitive volume on either is
 * the exception. Path rules that guard (a hook's `if`, a deny or ask rule) compare names ignoring
 * case here, since matching a name of another file too only guards more; a rule that allows
 * does not (src/host/permissions.ts), except on Windows-shaped paths, which always fold
 * (src/matching/file-pattern.ts).
 */
export function namesFoldCase(platform: string = process.platform): boolean {
  return platform === 'darwin' || platform === 'win32';
}
