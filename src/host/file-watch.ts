/**
 * The FileChanged watcher: watches a set of absolute file paths with fs.watch and reports
 * `change` / `add` / `unlink` per path, debounced (editors and `git checkout` write a file in
 * several steps; one burst is one event).
 *
 * fs.watch on a file cannot see it being created, and loses it on an atomic rename, so the
 * watcher watches each path's parent directory and filters by basename; whether the file
 * exists before and after a burst tells add / change / unlink apart.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export type FileChangeKind = 'change' | 'add' | 'unlink';

export interface FileWatcherOptions {
  onChange: (filePath: string, event: FileChangeKind) => void;
  /** Quiet time before a burst is reported (default 100 ms). */
  debounceMs?: number;
  onWarning?: (message: string) => void;
}

export interface FileWatcher {
  /** Replace the watched paths of one list (e.g. `static` from matchers, `dynamic` from watchPaths). */
  set(list: string, paths: readonly string[]): void;
  /** Every watched path. */
  paths(): string[];
  close(): void;
}

export function createFileWatcher(options: FileWatcherOptions): FileWatcher {
  const debounceMs = options.debounceMs ?? 100;
  const lists = new Map<string, Set<string>>();
  const dirs = new Map<string, FSWatcher>();
  const existed = new Map<string, boolean>();
  const timers = new Map<string, NodeJS.Timeout>();
  let closed = false;

  const all = () => new Set([...lists.values()].flatMap((s) => [...s]));

  function fire(file: string) {
    timers.delete(file);
    if (closed || !all().has(file)) return;
    const before = existed.get(file) ?? false;
    const now = existsSync(file);
    existed.set(file, now);
    if (!before && !now) return;
    options.onChange(file, !before ? 'add' : !now ? 'unlink' : 'change');
  }

  function sync() {
    const files = all();
    const wanted = new Set([...files].map((f) => path.dirname(f)));
    for (const [dir, w] of dirs) {
      if (!wanted.has(dir)) {
        w.close();
        dirs.delete(dir);
      }
    }
    for (const f of files) if (!existed.has(f)) existed.set(f, existsSync(f));
    for (const f of [...existed.keys()]) if (!files.has(f)) existed.delete(f);
    for (const dir of wanted) {
      if (dirs.has(dir)) continue;
      try {
        const w = watch(dir, { persistent: false }, (_type, name) => {
          const names = name ? [path.join(dir, String(name))] : [...all()].filter((f) => path.dirname(f) === dir);
          for (const file of names) {
            if (!all().has(file)) continue;
            clearTimeout(timers.get(file));
            timers.set(
              file,
              setTimeout(() => fire(file), debounceMs),
            );
          }
        });
        w.on('error', (e) => options.onWarning?.(`FileChanged watcher on ${dir}: ${e.message}`));
        dirs.set(dir, w);
      } catch (e) {
        options.onWarning?.(`FileChanged: cannot watch ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
    }
  }

  return {
    set(list, paths) {
      if (closed) return;
      lists.set(list, new Set(paths.filter((p) => typeof p === 'string' && path.isAbsolute(p)).map((p) => path.resolve(p))));
      sync();
    },
    paths: () => [...all()],
    close() {
      closed = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      for (const w of dirs.values()) w.close();
      dirs.clear();
    },
  };
}
