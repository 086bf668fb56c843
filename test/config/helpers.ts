/** Temp-dir fixtures for config tests: real files under os.tmpdir(), removed afterwards. */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type LoadConfigOptions } from '../../src/config/index.js';

export interface Fixture {
  root: string;
  home: string;
  project: string;
  managed: string;
  userFile: string;
  projectFile: string;
  localFile: string;
  write(file: string, content: unknown): Promise<string>;
  load(extra?: Partial<LoadConfigOptions>): ReturnType<typeof loadConfig>;
  cleanup(): Promise<void>;
}

export async function makeFixture(): Promise<Fixture> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-hooks-config-'));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  await fs.mkdir(home, { recursive: true });
  await fs.mkdir(project, { recursive: true });
  const fx: Fixture = {
    root,
    home,
    project,
    managed: path.join(root, 'managed-settings.json'),
    userFile: path.join(home, '.claude', 'settings.json'),
    projectFile: path.join(project, '.claude', 'settings.json'),
    localFile: path.join(project, '.claude', 'settings.local.json'),
    async write(file, content) {
      const abs = path.isAbsolute(file) ? file : path.join(root, file);
      await fs.mkdir(path.dirname(abs), { recursive: true });
      await fs.writeFile(abs, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      return abs;
    },
    // managedSettingsPath always points into the fixture so the machine's /etc is never read.
    load: (extra = {}) => loadConfig({ cwd: project, homeDir: home, managedSettingsPath: fx.managed, unsafeSkipTrustGate: true, ...extra }),
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
  return fx;
}

export function commandHook(command: string, extra: Record<string, unknown> = {}) {
  return { type: 'command', command, ...extra };
}

/** Settings object with one PreToolUse group; matcher null = omitted. */
export function settings(handlers: unknown[], matcher: string | null = 'Bash', rest: Record<string, unknown> = {}) {
  return { hooks: { PreToolUse: [{ ...(matcher !== null ? { matcher } : {}), hooks: handlers }] }, ...rest };
}
