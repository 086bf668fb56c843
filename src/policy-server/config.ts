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

export async function liveConfig(o: LiveConfigOptions): Promise<LiveConfig> {
  const warn = o.onWarning ?? (() => {});
  const files = o.files.map((f) => resolve(f));
  let current: Generation | undefined;
  let version = 0;
  let closed = false;

  const retire = (g: Generation) => {
    g.retired = true;
    if (g.inFlight === 0) void g.engine.close();
  };

  const load = async (): Promise<boolean> => {
    const config = await loadConfig({ cwd: o.workDir, projectDir: o.workDir, discover: false, settingsFiles: files });
    const errors = config.diagnostics.filter((d) => d.level === 'error');
    for (const d of config.diagnostics) warn(`config: ${formatDiagnostic(d)}`);
    if (errors.length > 0) {
      warn(
        current
          ? `config reload failed (${errors.length} error(s)); still serving version ${current.version}`
          : `config failed to load (${errors.length} error(s)); not ready`,
      );
      return false;
    }
    if (closed) return false;
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
    const prev = current;
    current = { engine, version: ++version, inFlight: 0, retired: false };
    if (prev) retire(prev);
    return true;
  };

  await load();

  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  if (o.watch !== false) {
    // Editors replace files (rename over): watch the directories and filter by name.
    for (const dir of new Set(files.map((f) => dirname(f)))) {
      try {
        const w = watch(dir, (_event, name) => {
          if (name && !files.some((f) => f === resolve(dir, name.toString()))) return;
          if (timer) clearTimeout(timer);
          timer = setTimeout(() => void load(), 100);
        });
        watchers.push(w);
      } catch (err) {
        warn(`cannot watch ${dir} for changes: ${(err as Error).message}`);
      }
    }
  }

  return {
    acquire() {
      const g = current;
      if (!g || closed) return undefined;
      g.inFlight++;
      return {
        engine: g.engine,
        version: g.version,
        release() {
          g.inFlight--;
          if (g.retired && g.inFlight === 0) void g.engine.close();
        },
      };
    },
    reload: load,
    get version() {
      return current?.version ?? 0;
    },
    get ready() {
      return current !== undefined && !closed;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
      if (current) await current.engine.close();
    },
  };
}
