/**
 * Plugin hooks are not hot-swapped one by one: the integrator keeps a plugin-free base config,
 * appends every active plugin's hooks and loads once; a refresh starts again from the base, so an
 * uninstalled plugin leaves nothing behind. Real plugin directories, real hook processes.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createPluginIntegrator } from '../../src/config/plugins.js';
import { appendHook, lines, useSessionSandbox } from './helpers.js';

const { sb, manager: newManager } = useSessionSandbox();

/** A plugin whose UserPromptSubmit hook runs ${CLAUDE_PLUGIN_ROOT}/hook.sh, which logs the plugin's name. */
function plugin(name: string, log: string) {
  sb.dir.json(`plugins/${name}/.claude-plugin/plugin.json`, { name });
  sb.dir.json(`plugins/${name}/hooks/hooks.json`, {
    hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/hook.sh' }] }] },
  });
  sb.dir.write(`plugins/${name}/hook.sh`, `#!/bin/sh\necho "${name}" >> '${log}'\n`, 0o755);
  return sb.dir.path(`plugins/${name}`);
}

function setup(log: string, baseExtra: Record<string, unknown> = {}) {
  const project = sb.project('proj', { UserPromptSubmit: [{ hooks: [appendHook(log, 'base')] }] }, baseExtra);
  let baseLoads = 0;
  const integrator = createPluginIntegrator({
    loadBase: () => {
      baseLoads++;
      return sb.load(project);
    },
    cwd: sb.dir.root,
    homeDir: sb.home,
  });
  return { project, integrator, baseLoads: () => baseLoads };
}

const prompt = { prompt: 'hi' };

describe('plugin integration', () => {
  it('the integrator keeps the plugin-free base config and loads all active plugins’ hooks in one batch on top of it', async () => {
    const log = sb.dir.path('log');
    const a = plugin('alpha', log);
    const b = plugin('beta', log);
    const { integrator, baseLoads } = setup(log);
    const config = await integrator.setActivePlugins([a, b]);
    expect(config.hooks.map((h) => h.source.pluginName ?? h.source.kind)).toEqual(['project', 'alpha', 'beta']);
    expect(integrator.base()!.hooks.map((h) => h.source.kind)).toEqual(['project']);
    expect(integrator.current()).toBe(config);
    // Changing the active set re-applies on the kept base: the base is not reloaded.
    await integrator.setActivePlugins([b]);
    expect(baseLoads()).toBe(1);
    expect(integrator.active()).toEqual([b]);

    const manager = newManager({ load: () => integrator.load() });
    const s = await manager.bindSession({ sessionId: 's1', projectDir: sb.dir.path('proj') });
    await s.run('UserPromptSubmit', prompt);
    expect(lines(log).sort()).toEqual(['base', 'beta']);
  });

  it('refresh restores the base first, so an uninstalled plugin leaves nothing behind', async () => {
    const log = sb.dir.path('log');
    const a = plugin('alpha', log);
    const b = plugin('beta', log);
    const { project, integrator, baseLoads } = setup(log);
    await integrator.setActivePlugins([a, b]);
    const manager = newManager({ load: () => integrator.load() });
    const before = await manager.bindSession({ sessionId: 'before', projectDir: project });

    // Uninstall beta (its files stay on disk), then refresh.
    await integrator.setActivePlugins([a]);
    // The base changed on disk meanwhile: refresh picks it up and re-applies the active set.
    sb.project('proj', { UserPromptSubmit: [{ hooks: [appendHook(log, 'base-v2')] }] });
    const config = await integrator.refresh();
    expect(baseLoads()).toBe(2);
    expect(config.hooks.some((h) => h.source.pluginName === 'beta')).toBe(false);
    expect(config.files.some((f) => f.file.includes('beta'))).toBe(false);
    manager.invalidate(project);

    const after = await manager.bindSession({ sessionId: 'after', projectDir: project });
    await after.run('UserPromptSubmit', prompt);
    expect(lines(log).sort()).toEqual(['alpha', 'base-v2']);

    // A session bound before keeps its snapshot until it is re-bound; then beta is gone there too.
    await before.run('UserPromptSubmit', prompt);
    expect(lines(log).slice(2).sort()).toEqual(['alpha', 'base', 'beta']);
    await manager.rebind('before');
    await before.run('UserPromptSubmit', prompt);
    expect(lines(log).slice(5).sort()).toEqual(['alpha', 'base-v2']);

    // Uninstalling every plugin leaves exactly the base.
    const none = await integrator.setActivePlugins([]);
    expect(none.hooks.map((h) => h.source.kind)).toEqual(['project']);
  });

  it('two plugins with the same ${CLAUDE_PLUGIN_ROOT}/hook.sh never collapse', async () => {
    const log = sb.dir.path('log');
    const { integrator } = setup(log);
    const config = await integrator.setActivePlugins([plugin('alpha', log), plugin('beta', log)]);
    expect(config.hooks.filter((h) => h.source.kind === 'plugin')).toHaveLength(2);
  });

  it('the base policy applies to the batch: with disableAllHooks only policy-enabled plugins remain', async () => {
    const log = sb.dir.path('log');
    const { integrator } = setup(log, { disableAllHooks: true });
    const config = await integrator.setActivePlugins([plugin('alpha', log), { root: plugin('forced', log), managed: true }]);
    expect(config.hooks.map((h) => h.source.pluginName)).toEqual(['forced']);
  });

  it('a broken plugin in the batch is reported and skipped; the others load', async () => {
    const log = sb.dir.path('log');
    const { integrator } = setup(log);
    sb.dir.write('plugins/broken/hooks/hooks.json', '{"hooks": {"UserPromptSubmit": [}');
    const config = await integrator.setActivePlugins([sb.dir.path('plugins/broken'), plugin('alpha', log), sb.dir.path('plugins/nowhere')]);
    expect(config.hooks.map((h) => h.source.pluginName ?? h.source.kind)).toEqual(['project', 'alpha']);
    expect(config.diagnostics.filter((d) => d.level === 'error').map((d) => d.message)).toEqual([
      expect.stringMatching(/^invalid JSON at 1:/),
      'plugin directory not found',
    ]);
  });

  it('plugin hooks in the base are dropped with a warning (the base must be plugin-free)', async () => {
    const log = sb.dir.path('log');
    const a = plugin('alpha', log);
    const integrator = createPluginIntegrator({
      loadBase: () => loadConfig({ cwd: sb.dir.root, discover: false, plugins: [a] }),
      cwd: sb.dir.root,
    });
    const config = await integrator.setActivePlugins([]);
    expect(config.hooks).toEqual([]);
    expect(config.diagnostics.map((d) => d.message)).toContainEqual(expect.stringMatching(/contained plugin hooks; they were dropped/));
  });

  it('only the latest change of the active set is published, whatever order the loads finish in', async () => {
    const log = sb.dir.path('log');
    const a = plugin('alpha', log);
    const b = plugin('beta', log);
    const { integrator } = setup(log);
    const [first, second] = await Promise.all([integrator.setActivePlugins([a]), integrator.setActivePlugins([b])]);
    expect(first.hooks.map((h) => h.source.pluginName).filter(Boolean)).toEqual(['alpha']);
    expect(second.hooks.map((h) => h.source.pluginName).filter(Boolean)).toEqual(['beta']);
    expect(integrator.current()).toBe(second);
  });
});
