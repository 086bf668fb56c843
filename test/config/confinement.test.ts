/**
 * Which sandbox hooks run in, from the settings and the agent (src/config/confinement.ts): a
 * sandbox is only ever added; the view is on by default where the agent confines the model's
 * commands (Claude Code's `sandbox.enabled`, Codex) and bwrap is installed; only the user's and
 * the admin's files can keep it off. What each sandbox does is tested in test/backends and
 * test/guard/pinned-files.test.ts ("check-then-use under …").
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { engineOptionsFromConfig } from '../../src/load/engine-options.js';
import { findBwrap } from '../../src/util/bwrap.js';
import { useTempDir } from '../helpers/tmp.js';

const dir = useTempDir('ah-confine-');
const bwrap = findBwrap() !== undefined;

/** The engine's sandbox for `agent`, from user and project settings (undefined: leave the file out). */
async function sandboxOf(user: object | undefined, project: object | undefined, agent?: string) {
  const home = dir.path(`h${Math.random()}`);
  const cwd = dir.path(`p${Math.random()}`);
  if (user) dir.json(`${home.slice(dir.root.length + 1)}/.claude/settings.json`, user);
  if (project) dir.json(`${cwd.slice(dir.root.length + 1)}/.claude/settings.json`, project);
  else dir.write(`${cwd.slice(dir.root.length + 1)}/.keep`, '');
  const config = await loadConfig({ cwd, homeDir: home, managedSettingsPath: dir.path('none.json'), unsafeSkipTrustGate: true });
  return { sandbox: engineOptionsFromConfig(config, agent).sandbox, warnings: config.diagnostics.map((d) => `${d.path}: ${d.message}`) };
}

const CLAUDE_SANDBOX = { sandbox: { enabled: true } };
const view = bwrap ? 'view' : undefined;

describe('the sandbox hooks run in', () => {
  it('none by default: an agent that does not confine the model, settings that ask for nothing', async () => {
    expect((await sandboxOf(undefined, undefined, 'claude')).sandbox).toBeUndefined();
    expect((await sandboxOf({}, {}, 'gemini')).sandbox).toBeUndefined();
  });

  it('the view by default where the agent confines the model’s commands (and bwrap is installed)', async () => {
    expect((await sandboxOf(CLAUDE_SANDBOX, undefined, 'claude')).sandbox).toBe(view);
    // A project that turns Claude's sandbox on turns the view on too (only ever more).
    expect((await sandboxOf(undefined, CLAUDE_SANDBOX)).sandbox).toBe(view);
    expect((await sandboxOf(undefined, undefined, 'codex')).sandbox).toBe(view);
  });

  it('a workspace file cannot keep it off: its "none" is ignored, with a warning', async () => {
    const r = await sandboxOf(CLAUDE_SANDBOX, { agentHooks: { sandbox: 'none' } }, 'claude');
    expect(r.sandbox).toBe(view);
    expect(r.warnings).toContain(
      'agentHooks.sandbox: "none" is only honoured in user, managed and --settings files; ignored here (a workspace file cannot keep the sandbox off)',
    );
    expect((await sandboxOf(undefined, { agentHooks: { sandbox: 'none' } }, 'codex')).sandbox).toBe(view);
  });

  it('the user’s "none" keeps it off; "bwrap" or "view" in any file wins over it', async () => {
    expect((await sandboxOf({ ...CLAUDE_SANDBOX, agentHooks: { sandbox: 'none' } }, undefined, 'claude')).sandbox).toBe('none');
    expect((await sandboxOf({ agentHooks: { sandbox: 'none' } }, undefined, 'codex')).sandbox).toBe('none');
    expect((await sandboxOf({ agentHooks: { sandbox: 'none' } }, { agentHooks: { sandbox: 'view' } }, 'codex')).sandbox).toBe('view');
    expect((await sandboxOf({ agentHooks: { sandbox: 'view' } }, { agentHooks: { sandbox: 'bwrap' } })).sandbox).toBe('bwrap');
  });
});
