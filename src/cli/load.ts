/** Shared option handling for the CLI commands that load hooks (run, list). */
import { resolve } from 'node:path';
import { loadConfig, type LoadedConfig } from '../config/index.js';

export interface LoadFlags {
  settings?: string[];
  plugin?: string[];
  cwd?: string;
  discover?: boolean;
  managedSettings?: string;
}

/**
 * --settings given: only those files (and --plugin dirs), unless --discover.
 * No --settings: discover user, project, local and managed settings like the agent would.
 */
export async function loadFromFlags(flags: LoadFlags): Promise<LoadedConfig> {
  const cwd = resolve(flags.cwd ?? process.cwd());
  // Paths on the command line are relative to the shell's directory, not --cwd; a value
  // starting with { is inline JSON and passes through untouched.
  const explicit = (flags.settings ?? []).map((f) => (f.trimStart().startsWith('{') ? f : resolve(f)));
  return loadConfig({
    cwd,
    projectDir: cwd,
    discover: flags.discover ?? explicit.length === 0,
    settingsFiles: explicit,
    plugins: (flags.plugin ?? []).map((p) => resolve(p)),
    managedSettingsPath: flags.managedSettings ? resolve(flags.managedSettings) : undefined,
  });
}

export function formatDiagnostic(d: { level: string; file?: string; path: string; message: string }): string {
  const where = [d.file, d.path].filter(Boolean).join(': ');
  return `${d.level === 'warning' ? 'warning: ' : ''}${where ? `${where}: ` : ''}${d.message}`;
}
