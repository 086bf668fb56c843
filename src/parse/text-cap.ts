import type { Stats } from 'node:fs';
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../util/os-dirs.js';
import { randomUUID } from '../util/uuid.js';

/** Claude's cap on hook output strings (additionalContext, systemMessage, plain stdout). */
export const OUTPUT_STRING_CAP = 10_000;
const PREVIEW_CHARS = 2_000;

/**
 * Spill files are read by the agent after the hook's process (a `dispatch`) has ended, so
 * they cannot be removed when the engine closes; instead each spill prunes its directory to
 * the newest SPILL_MAX_FILES files and drops those older than SPILL_MAX_AGE_MS.
 */
export const SPILL_MAX_FILES = 100;
const SPILL_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * The default spill directory: private to the user (`$TMPDIR/agent-hooks-<uid>/output`, both
 * levels 0700), so other users of a shared temp directory can neither read the outputs nor
 * plant the directory (or a symlink in its place) beforehand.
 */
export function defaultSpillDir(): string {
  const uid = process.getuid?.();
  return join(tempDir(), uid === undefined ? 'agent-hooks' : `agent-hooks-${uid}`, 'output');
}

/**
 * Why `dir` may not hold spill files, or undefined: it must be a real directory (not a
 * symlink), owned by this user, and writable by no one else.
 */
function spillDirProblem(dir: string): string | undefined {
  let info: Stats;
  try {
    info = lstatSync(dir);
  } catch (err) {
    return `${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
  }
  if (info.isSymbolicLink()) return `${dir} is a symbolic link`;
  if (!info.isDirectory()) return `${dir} is not a directory`;
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) return `${dir} belongs to uid ${info.uid}, not to this user (uid ${uid})`;
  if (process.platform !== 'win32' && (info.mode & 0o022) !== 0)
    return `${dir} is writable by other users (mode ${(info.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * Cap a hook output string. Nothing is lost: the full text is written to a new file in
 * `spillDir` (default: defaultSpillDir()) and the returned string is a preview plus that
 * file's path. A directory that fails spillDirProblem is not used: the text is cut, and the
 * note says why.
 */
export function capOutputString(text: string, spillDir?: string): { text: string; spilledTo?: string; refused?: string } {
  if (text.length <= OUTPUT_STRING_CAP) return { text };
  const dir = spillDir ?? defaultSpillDir();
  let problem: string | undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // The default's per-user parent is checked too: whoever owns it controls what is inside.
    problem = (spillDir === undefined ? spillDirProblem(dirname(dir)) : undefined) ?? spillDirProblem(dir);
    if (!problem) {
      const file = join(dir, `${randomUUID()}.txt`);
      // 'wx' semantics: a new file, never an existing one or a symlink planted under its name.
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      pruneSpills(dir, file);
      const preview = text.slice(0, PREVIEW_CHARS);
      return {
        text: `${preview}\n…[output of ${text.length} characters exceeds ${OUTPUT_STRING_CAP}; full text saved to ${file}]`,
        spilledTo: file,
      };
    }
  } catch (err) {
    problem = (err as Error)?.message ?? String(err);
  }
  // Spilling failed or was refused: keep the cap, say what was dropped and why.
  return {
    text: `${text.slice(0, OUTPUT_STRING_CAP)}\n…[${text.length - OUTPUT_STRING_CAP} characters dropped; could not save the full text: ${problem}]`,
    refused: problem,
  };
}

/** Drop spill files past the age bound, then the oldest past the count bound (never `keep`). */
function pruneSpills(dir: string, keep: string): void {
  try {
    const now = Date.now();
    const files = readdirSync(dir)
      .filter((name) => name.endsWith('.txt'))
      .map((name) => {
        const path = join(dir, name);
        try {
          return { path, mtime: statSync(path).mtimeMs };
        } catch {
          return undefined;
        }
      })
      .filter((f): f is { path: string; mtime: number } => f !== undefined && f.path !== keep)
      .sort((a, b) => b.mtime - a.mtime);
    files.forEach((f, i) => {
      if (now - f.mtime > SPILL_MAX_AGE_MS || i >= SPILL_MAX_FILES - 1) rmSync(f.path, { force: true });
    });
  } catch {
    // Pruning is housekeeping: a failure leaves files behind, never loses the new one.
  }
}
