import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach } from 'vitest';
import { loadConfig, type LoadedConfig } from '../../src/config/index.js';
import { createHookManager } from '../../src/session/manager.js';
import type { HookManager, HookManagerOptions } from '../../src/session/types.js';
import { perTest, tempDir } from '../helpers/tmp.js';

/**
 * A sandbox for session tests: projects with real settings files, a fake home, an optional
 * managed policy file, and a loader that discovers exactly these (never the machine's own files).
 */
export function sessionSandbox() {
  const dir = tempDir('agent-hooks-session-');
  const home = dir.path('home');
  mkdirSync(home, { recursive: true });
  const managed = dir.path('managed-settings.json');
  let loads = 0;
  const loaded: string[] = [];
  const load = (projectDir: string): Promise<LoadedConfig> => {
    loads++;
    loaded.push(projectDir);
    return loadConfig({ cwd: projectDir, projectDir, homeDir: home, managedSettingsPath: managed, unsafeSkipTrustGate: true });
  };
  return {
    dir,
    home,
    load,
    get loads() {
      return loads;
    },
    loaded,
    /** Create (or overwrite) `<root>/<name>/.claude/settings.json`; returns the project directory. */
    project(name: string, hooks: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
      dir.json(`${name}/.claude/settings.json`, { hooks, ...extra });
      return dir.path(name);
    },
    /** A plain directory (e.g. a worktree). */
    mkdir(name: string) {
      const p = dir.path(name);
      mkdirSync(p, { recursive: true });
      return p;
    },
    managedPolicy(settings: Record<string, unknown>) {
      dir.json('managed-settings.json', settings);
    },
    cleanup: () => dir.cleanup(),
  };
}
export type SessionSandbox = ReturnType<typeof sessionSandbox>;

/**
 * Registered at the top of a session test file: a fresh `sb` for each test; after it, every
 * manager made through `manager()` is closed (its sessions disposed) and the sandbox removed.
 */
export function useSessionSandbox() {
  let current: SessionSandbox | undefined;
  const managers: HookManager[] = [];
  beforeEach(() => {
    current = sessionSandbox();
  });
  afterEach(async () => {
    for (const m of managers.splice(0)) await m.close();
    current?.cleanup();
    current = undefined;
  });
  return {
    sb: perTest(() => current, 'useSessionSandbox'),
    /** `createHookManager(opts)`, closed after the test. */
    manager(opts: HookManagerOptions = {}) {
      const m = createHookManager(opts);
      managers.push(m);
      return m;
    },
  };
}

/** A command hook that appends `text` (shell-expanded) as one line to `file`. */
export function appendHook(file: string, text: string, extra: Record<string, unknown> = {}) {
  return { type: 'command', command: `echo "${text}" >> '${file}'`, ...extra };
}

/** Lines of a log file written by hooks ([] when no hook wrote it). */
export function lines(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
}

export const bash = (command = 'ls') => ({ tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' });
