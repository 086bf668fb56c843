/**
 * What the plugin agents' adapters share (Pi, OpenCode, Kilo CLI): the agent-hooks plugin module
 * of this worktree (or of the run's broken copy), and a plugin file that loads it with the
 * engine config and counts each hook call it carries in `<root>/dispatch-calls`, as the traced
 * dispatch line does for the command-hook agents.
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunDirs } from './run.js';
import { REPO_ROOT } from './run.js';

/** dist/plugins/<name>.js of the worktree, or of the run's broken install (which then also lacks dispatch's run module). */
export function pluginModule(dirs: RunDirs, name: 'pi' | 'opencode'): string {
  if (!dirs.cli) return join(REPO_ROOT, 'dist', 'plugins', `${name}.js`);
  const dist = dirname(dirname(dirs.cli));
  // The plugin runs dispatch in process, from dist/dispatch/: break that path as the bundle's is broken.
  rmSync(join(dist, 'dispatch', 'run.js'), { force: true });
  return join(dist, 'plugins', `${name}.js`);
}

/**
 * A Pi extension (`factory` piExtension) or an OpenCode plugin (opencodePlugin) file: the plugin
 * with `settings`, each of its hook handlers counted on the way in.
 */
export function tracedPlugin(dirs: RunDirs, module: string, factory: string, settings: string, agent: 'pi' | 'opencode' | 'kilo'): string {
  const calls = JSON.stringify(join(dirs.root, 'dispatch-calls'));
  const count = `(f) => async (...a) => { appendFileSync(${calls}, 'x\\n'); return f(...a); }`;
  const head = `import { appendFileSync } from 'node:fs';\nimport { ${factory} } from ${JSON.stringify(module)};\nconst counted = ${count};\n`;
  if (agent === 'pi')
    return `${head}const ext = ${factory}({ settings: [${JSON.stringify(settings)}] });
export default function (pi) {
  ext({ on: (event, handler) => pi.on(event, counted(handler)), sendUserMessage: (...a) => pi.sendUserMessage(...a) });
}
`;
  return `${head}const plugin = ${factory}({ settings: [${JSON.stringify(settings)}], agent: ${JSON.stringify(agent)} });
export const AgentHooks = async (ctx) => {
  const hooks = await plugin(ctx);
  return Object.fromEntries(Object.entries(hooks).map(([k, f]) => [k, counted(f)]));
};
`;
}
