/**
 * ConfigChange: the settings files the session loaded (and the workspace's project/local files,
 * which may appear later) are watched; a change fires ConfigChange with the hooks of the current
 * snapshot. A block keeps the snapshot (except policy_settings, which always applies); otherwise
 * the session is rebound to the re-read config.
 */
import path from 'node:path';
import { createFileWatcher, type FileWatcher } from './file-watch.js';
import { matcherPaths } from './directories.js';
import { emit, isOver, track, type RuntimeState } from './session-state.js';

const CONFIG_SOURCES: Record<string, string> = {
  user: 'user_settings',
  project: 'project_settings',
  local: 'local_settings',
  managed: 'policy_settings',
};

/** The watched settings files, each with its ConfigChange source. */
function configFiles(st: RuntimeState): Map<string, string> {
  const m = new Map<string, string>();
  for (const f of st.hooks.snapshot.config.files) if (CONFIG_SOURCES[f.kind]) m.set(path.resolve(f.file), CONFIG_SOURCES[f.kind]!);
  m.set(path.join(st.workspace, '.claude', 'settings.json'), 'project_settings');
  m.set(path.join(st.workspace, '.claude', 'settings.local.json'), 'local_settings');
  return m;
}

/** One change: ConfigChange, then (unless blocked) the session rebound to the re-read config. */
async function applyChange(st: RuntimeState, watcher: FileWatcher, file: string): Promise<void> {
  const source = configFiles(st).get(file) ?? 'project_settings';
  const d = await emit(st, 'ConfigChange', { source, file_path: file });
  if (d.blocked && source !== 'policy_settings') {
    st.trace({ kind: 'session', text: `config change of ${file} blocked by a ConfigChange hook; the session keeps its snapshot` });
    return;
  }
  if (isOver(st)) return;
  st.manager.invalidate(st.workspace);
  await st.manager.rebind(st.sessionId);
  watcher.set('settings', [...configFiles(st).keys()]);
  st.fileWatcher?.set('static', matcherPaths(st));
  st.trace({ kind: 'session', text: `config change of ${file} applied (${source})` });
}

export function createConfigWatcher(st: RuntimeState): FileWatcher {
  let configQueue: Promise<unknown> = Promise.resolve();
  const watcher: FileWatcher = createFileWatcher({
    ...(st.options.fileWatchDebounceMs !== undefined ? { debounceMs: st.options.fileWatchDebounceMs } : {}),
    onWarning: st.warn,
    onChange: (file: string) => {
      if (isOver(st)) return;
      // One change at a time: each is judged against the snapshot the previous one left.
      configQueue = track(
        st,
        configQueue.then(() => applyChange(st, watcher, file)).catch((e) => st.warn(`ConfigChange: ${(e as Error).message}`)),
      );
    },
  });
  watcher.set('settings', [...configFiles(st).keys()]);
  return watcher;
}
