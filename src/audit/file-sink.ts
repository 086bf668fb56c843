/**
 * The JSONL audit file, rotated by size and by age: when the live file reaches `maxBytes` or is
 * older than `maxAgeMs`, it is renamed to `<name>.<UTC timestamp>` and a new one is started;
 * only the newest `keep` rotated files are kept. Lines are appended in batches (src/audit/queue.ts).
 */
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface RotatingFileOptions {
  path: string;
  /** Rotate when the file reaches this size (bytes; default 64 MiB; 0 = never). */
  maxBytes?: number;
  /** Rotate when the file is older than this (ms; default 1 day; 0 = never). */
  maxAgeMs?: number;
  /** Rotated files kept (default 10). */
  keep?: number;
  now?: () => number;
}

export interface RotatingFile {
  append(lines: string): Promise<void>;
  /** The rotated files, oldest first. */
  rotated(): Promise<string[]>;
}

export const DEFAULT_FILE_MAX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_FILE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export function rotatingFile(options: RotatingFileOptions): RotatingFile {
  const { path } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_FILE_MAX_BYTES;
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_FILE_MAX_AGE_MS;
  const keep = Math.max(0, options.keep ?? 10);
  const now = options.now ?? Date.now;
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  // Learnt from the file on first use; kept in step with what this process appends.
  let size: number | undefined;
  let startedAt = 0;
  let seq = 0;

  const learn = async () => {
    await fs.mkdir(dir, { recursive: true });
    try {
      const st = await fs.stat(path);
      size = st.size;
      // birthtime is 0 on some filesystems; the mtime of an existing file is then the best guess.
      startedAt = st.birthtimeMs > 0 ? st.birthtimeMs : st.mtimeMs;
    } catch {
      size = 0;
      startedAt = now();
    }
  };

  const listRotated = async () => {
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    return names
      .filter((n) => n.startsWith(prefix) && /^\d{8}T\d{6}\d{3}Z(-\d+)?$/.test(n.slice(prefix.length)))
      .sort()
      .map((n) => join(dir, n));
  };

  const rotate = async () => {
    const stamp = new Date(now()).toISOString().replace(/[-:.]/g, '');
    await fs.rename(path, `${path}.${stamp}${seq++ ? `-${seq}` : ''}`).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    size = 0;
    startedAt = now();
    const old = await listRotated();
    for (const f of old.slice(0, Math.max(0, old.length - keep))) await fs.rm(f, { force: true });
  };

  return {
    async append(lines) {
      if (size === undefined) await learn();
      const tooBig = maxBytes > 0 && size! > 0 && size! + Buffer.byteLength(lines) > maxBytes;
      const tooOld = maxAgeMs > 0 && size! > 0 && now() - startedAt >= maxAgeMs;
      if (tooBig || tooOld) await rotate();
      await fs.appendFile(path, lines, { mode: 0o600 });
      size! += Buffer.byteLength(lines);
    },
    rotated: listRotated,
  };
}
