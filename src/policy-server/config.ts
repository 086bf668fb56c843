/**
 * The team's hooks, loaded from files (any dialect the engine reads) into an engine, and
 * reloaded atomically when a file changes: the new config is loaded and checked completely
 * first; only then do new events go to the new engine, while events already running finish on
 * the old one, which is closed once they are done. A config that fails to load leaves the
 * running one in place (and says so).
 */
import { watch, type FSWatcher } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadConfig } from '../config/index.js';
import { formatDiagnostic } from '../util/format-diagnostic.js';
import { createHookEngine, type HookEngine, type HookEngineOptions } from '../engine/engine.js';
import { engineOptionsFromConfig } from '../load/engine-options.js';

export interface LiveConfig {
  /** The engine for a new event; release() when the event is done. */
  acquire(): { engine: HookEngine; version: number; release(): void } | undefined;
  /** Load the files again now (also runs on file change). */
  reload(): Promise<boolean>;
  readonly version: number;
  readonly ready: boolean;
  close(): Promise<void>;
}

export interface LiveConfigOptions {
  files: string[];
  /** Directory command hooks run in on the server. */
  workDir: string;
  engine: Omit<HookEngineOptions, 'hooks' | 'projectDir' | 'cwd'>;
  onWarning?: (message: string) => void;
  /** Watch the files and reload on change (default true). */
  watch?: boolean;
}

interface Generation {
  engine: HookEngine;
  version: number;
  inFlight: number;
  retired: boolean;
}

/** One live config's state, shared by its loader, its watchers and its handle. */
interface LiveState {
  o: LiveConfigOptions;
  warn: (message: string) => void;
  files: string[];
  current: Generation | undefined;
  version: number;
  closed: boolean;
  timer: NodeJS.Timeout | undefined;
  watchers: FSWatcher[];
}

export async function liveConfig(o: LiveConfigOptions): Promise<LiveConfig> {
  const st: LiveState = {
    o,
    warn: o.onWarning ?? (() => {}),
    files: o.files.map((f) => resolve(f)),
    current: undefined,
    version: 0,
    closed: false,
    timer: undefined,
    watchers: [],
  };
  const load = () => loadGeneration(st);
  await load();
  if (o.watch !== false) watchFiles(st, load);

  return {
    acquire: () => acquire(st),
    reload: load,
    get version() {
      return st.current?.version ?? 0;
    },
    get ready() {
      return st.current !== undefined && !st.closed;
    },
    async close() {
      st.closed = true;
      if (st.timer) clearTimeout(st.timer);
      for (const w of st.watchers) w.close();
      if (st.current) await st.current.engine.close();
    },
  };
}

/** A retired generation closes its engine once its last event is answered. */
function retire(g: Generation): void {
  g.retired = true;
  if (g.inFlight === 0) void g.engine.close();
}

/** Load the files into a new generation; a config with errors keeps the current one. */
async function loadGeneration(st: LiveState): Promise<boolean> {
  const { o, warn } = st;
  const config = await loadConfig({ cwd: o.workDir, projectDir: o.workDir, discover: false, settingsFiles: st.files });
  const errors = config.diagnostics.filter((d) => d.level === 'error');
  for (const d of config.diagnostics) warn(`config: ${formatDiagnostic(d)}`);
  if (errors.length > 0) {
    warn(
      st.current
        ? `config reload failed (${errors.length} error(s)); still serving version ${st.current.version}`
        : `config failed to load (${errors.length} error(s)); not ready`,
    );
    return false;
  }
  if (st.closed) return false;
  // The settings override the server's defaults.
  const fromConfig = engineOptionsFromConfig(config);
  const engine = createHookEngine({
    ...o.engine,
    ...fromConfig,
    hooks: config.hooks,
    projectDir: o.workDir,
    cwd: o.workDir,
    http: { ...o.engine.http, ...fromConfig.http },
  });
  const prev = st.current;
  st.current = { engine, version: ++st.version, inFlight: 0, retired: false };
  if (prev) retire(prev);
  return true;
}

/** Reload 100 ms after the last change to one of the files. */
function watchFiles(st: LiveState, load: () => Promise<boolean>): void {
  const { files } = st;
  // Editors replace files (rename over): watch the directories and filter by name.
  for (const dir of new Set(files.map((f) => dirname(f)))) {
    try {
      const w = watch(dir, (_event, name) => {
        if (name && !files.some((f) => f === resolve(dir, name.toString()))) return;
        if (st.timer) clearTimeout(st.timer);
        st.timer = setTimeout(() => void load(), 100);
      });
      st.watchers.push(w);
    } catch (err) {
      st.warn(`cannot watch ${dir} for changes: ${(err as Error).message}`);
    }
  }
}

function acquire(st: LiveState): ReturnType<LiveConfig['acquire']> {
  const g = st.current;
  if (!g || st.closed) return undefined;
  g.inFlight++;
  return {
    engine: g.engine,
    version: g.version,
    release() {
      g.inFlight--;
      if (g.retired && g.inFlight === 0) void g.engine.close();
    },
  };
}
