/**
 * The session's working directory, its added directories (confinement roots) and the
 * FileChanged watcher: a FileChanged matcher names literal files in the cwd, and hooks of
 * SessionStart, CwdChanged and FileChanged may name more (`watchPaths`).
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Decision } from '../reduce/reduce.js';
import { createFileWatcher, type FileChangeKind, type FileWatcher } from './file-watch.js';
import { addContext, applyEnv, emit, isOver, track, type RuntimeState } from './session-state.js';
import { isInsideAny } from './tools/index.js';

const watchPathsOf = (d: Decision): string[] | undefined =>
  Array.isArray(d.eventOutput.watchPaths)
    ? (d.eventOutput.watchPaths as unknown[]).filter((p): p is string => typeof p === 'string')
    : undefined;

/** A FileChanged matcher names literal files in the working directory ("'.envrc|.env'"). */
export function matcherPaths(st: RuntimeState): string[] {
  return st.hooks
    .hooks('FileChanged')
    .flatMap((h) => (h.matcher ? h.matcher.split('|').map((n) => n.trim()) : []))
    .filter((n) => n !== '' && n !== '*')
    .map((n) => path.resolve(st.cwd, n));
}

/** The FileChanged watcher, watching the matcher files and SessionStart's watchPaths. */
export function createChangeWatcher(st: RuntimeState, start: Decision): FileWatcher {
  const watcher: FileWatcher = createFileWatcher({
    ...(st.options.fileWatchDebounceMs !== undefined ? { debounceMs: st.options.fileWatchDebounceMs } : {}),
    onWarning: st.warn,
    onChange: (file: string, kind: FileChangeKind) => {
      if (isOver(st)) return;
      void track(
        st,
        emit(st, 'FileChanged', { file_path: file, event: kind }).then((d) => {
          applyEnv(st, d);
          const paths = watchPathsOf(d);
          if (paths) watcher.set('dynamic', paths);
        }),
      );
    },
  });
  watcher.set('static', matcherPaths(st));
  watcher.set('dynamic', watchPathsOf(start) ?? []);
  return watcher;
}

/** Move the session cwd (inside the workspace or an added directory); CwdChanged fires. */
export async function changeCwd(st: RuntimeState, dir: string): Promise<void> {
  let real: string;
  try {
    real = realpathSync.native(path.resolve(st.cwd, dir));
  } catch (e) {
    throw new Error(`${dir} cannot be used as the working directory: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!statSync(real).isDirectory()) throw new Error(`${real} is not a directory`);
  if (!isInsideAny(st.workspace, st.roots, real)) throw new Error(`${real} is outside the workspace ${st.workspace}`);
  if (real === st.cwd) return;
  const old = st.cwd;
  st.cwd = real;
  st.fileWatcher?.set('static', matcherPaths(st));
  const d = await emit(st, 'CwdChanged', { old_cwd: old, new_cwd: real });
  applyEnv(st, d);
  const paths = watchPathsOf(d);
  if (paths) st.fileWatcher?.set('dynamic', paths);
}

/** Add a working directory (confinement root); DirectoryAdded fires. */
export async function addDirectory(
  st: RuntimeState,
  dir: string,
  source: 'slash_command' | 'register_repo_root' = 'slash_command',
): Promise<void> {
  let real: string;
  try {
    real = realpathSync.native(path.resolve(st.cwd, dir));
  } catch (e) {
    throw new Error(`addDirectory: ${dir} cannot be added: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!statSync(real).isDirectory()) throw new Error(`addDirectory: ${real} is not a directory`);
  if (isInsideAny(st.workspace, st.roots, real)) throw new Error(`addDirectory: ${real} is already a working directory`);
  st.roots.push(real);
  const d = await emit(st, 'DirectoryAdded', { directory: real, source });
  // /add-dir: the hooks' systemMessage reaches the model as context.
  if (source === 'slash_command') addContext(st, d.systemMessages, 'DirectoryAdded');
}
