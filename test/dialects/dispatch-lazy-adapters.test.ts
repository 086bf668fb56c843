/**
 * dispatch's no-hooks check loads a dialect's adapter only for a file of that dialect; when the
 * adapter cannot load, the check cannot say which events the file configures, so it answers
 * "maybe" and the full load decides (never "no hooks", which would skip the file's guards).
 */
import { afterEach, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers/tmp.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.doUnmock('../../src/agents/registry.js');
  vi.resetModules();
});

it('an adapter that cannot load makes the answer "maybe", for a named file and for discovery', async () => {
  const dir = tempDir();
  // Discovery reads the user's settings: an empty HOME, so the machine's own hooks do not count.
  vi.stubEnv('HOME', dir.path('home'));
  vi.stubEnv('CLAUDE_CONFIG_DIR', undefined);
  try {
    vi.doMock('../../src/agents/registry.js', async (original) => {
      const real = (await original()) as typeof import('../../src/agents/registry.js');
      return {
        ...real,
        loadDialect: (name: 'claude') =>
          name === 'claude' ? real.loadDialect(name) : Promise.reject(new Error(`simulated load failure of ${name}`)),
      };
    });
    const { mayHaveHooks } = await import('../../src/dispatch/dispatch.js');
    // A Codex hooks file named with --settings --dialect codex.
    const codex = dir.json('hooks.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } });
    expect(await mayHaveHooks('PreToolUse', { agent: 'claude', settings: [codex], dialect: 'codex', discover: false, cwd: dir.root })).toBe(
      true,
    );
    // Discovery of another dialect (asked for in the settings) whose adapter cannot load.
    const settings = dir.json('settings.json', { agentHooks: { discoverDialects: ['codex'] } });
    expect(await mayHaveHooks('PreToolUse', { agent: 'claude', settings: [settings], discover: true, cwd: dir.root })).toBe(true);
    // With the adapters loading, the same call finds nothing to run.
    vi.doUnmock('../../src/agents/registry.js');
    vi.resetModules();
    const fresh = await import('../../src/dispatch/dispatch.js');
    expect(await fresh.mayHaveHooks('PreToolUse', { agent: 'claude', settings: [settings], discover: true, cwd: dir.root })).toBe(false);
  } finally {
    dir.cleanup();
  }
});
