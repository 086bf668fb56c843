/**
 * Which sandbox command hooks run in (`agentHooks.sandbox`), and why the view is on by default
 * where the agent confines the model's commands but not hooks.
 *
 * Without a sandbox a reviewed hook script is checked, then opened by its interpreter: a script
 * the model swaps in that moment runs unreviewed. Its answer never counts (the post-run
 * comparison), and whoever swapped it already runs code as the same user — unless the agent
 * confines the model's commands and runs hooks outside: Claude Code's `sandbox` ("Hook commands
 * themselves run unsandboxed", its hooks reference) and Codex outside `danger-full-access`
 * (verified with codex 0.169.0: test/agents/hook-confinement.agents.test.ts). There the swap
 * would run code outside the agent's confinement, so the view ("view": the hook runs the very
 * bytes that were checked) is on by default wherever bwrap is installed (docs/security.md).
 */
import type { Diagnostic, SourceKind } from '../types.js';
import { findBwrap } from '../util/bwrap.js';
import { DISCOVER_SETTING_KINDS } from './discovered.js';
import type { SettingsLayer } from './settings.js';

export type Sandbox = 'bwrap' | 'view' | 'none';

/** Claude's own settings files: the layers whose `sandbox` key is Claude's. */
export const CLAUDE_SETTINGS: ReadonlySet<SourceKind> = new Set(['managed', 'user', 'project', 'local', 'cli']);

/** Agents that confine the model's commands by default and run hooks outside (dispatch's `--agent`). */
export const CONFINING_AGENTS: Readonly<Record<string, string>> = {
  codex: 'Codex sandboxes the commands the model runs (unless sandbox_mode is "danger-full-access") but not hook commands',
};

/** The first Claude settings file read that turns Claude's sandbox on. */
export function claudeSandboxFile(layers: readonly Pick<SettingsLayer, 'kind' | 'file' | 'data'>[]): string | undefined {
  const on = (l: Pick<SettingsLayer, 'data'>) => (l.data as { sandbox?: { enabled?: unknown } } | undefined)?.sandbox?.enabled === true;
  return layers.find((l) => CLAUDE_SETTINGS.has(l.kind) && on(l))?.file;
}

/**
 * The sandbox from the settings: "bwrap" in any file wins, then "view" (a sandbox is only ever
 * added); then the view by default when a Claude settings file turns Claude's sandbox on and bwrap
 * is installed, unless an owner's file says "none". A workspace file's "none" is ignored with a
 * warning: it would reopen the window for the model that can write it.
 */
export function sandboxOf(
  layers: readonly Pick<SettingsLayer, 'kind' | 'file' | 'data'>[],
  diagnostics: Diagnostic[],
): Sandbox | undefined {
  const asks = (v: Sandbox) => layers.filter((l) => l.data?.agentHooks?.sandbox === v);
  if (asks('bwrap').length) return 'bwrap';
  if (asks('view').length) return 'view';
  let off = false;
  for (const l of asks('none')) {
    // Who may keep the default view off: the user's and the admin's files, not a workspace file.
    if (DISCOVER_SETTING_KINDS.includes(l.kind)) off = true;
    else diagnostics.push({ level: 'warning', file: l.file, path: 'agentHooks.sandbox', message: NONE_IGNORED });
  }
  if (off) return 'none';
  return claudeSandboxFile(layers) !== undefined && findBwrap() !== undefined ? 'view' : undefined;
}

const NONE_IGNORED =
  '"none" is only honoured in user, managed and --settings files; ignored here (a workspace file cannot keep the sandbox off)';

/**
 * The view by default for a run `agent` (dispatch's `--agent`) answers, when the settings ask for no
 * sandbox: the agent confines the model's commands. Only where bwrap is installed: without it the
 * hook runs as before and `doctor` says what is missing (src/cli/doctor-confinement.ts).
 */
export function agentDefaultSandbox(agent: string | undefined): 'view' | undefined {
  return agent !== undefined && Object.hasOwn(CONFINING_AGENTS, agent) && findBwrap() !== undefined ? 'view' : undefined;
}
