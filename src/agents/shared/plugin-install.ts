/**
 * The agents whose hooks are in-process modules (other-agents.md A.2–A.4): one module file that
 * hands every hook call to agent-hooks' plugin for that agent (dist/plugins/). If that cannot be
 * loaded (the package moved or was removed), the module blocks every tool call with the reason
 * instead of letting the agent run unguarded.
 */
import { join } from 'node:path';
import type { InstallSpec } from '../types.js';

const lit = (v: unknown) => JSON.stringify(v);
// The modules below spell `import (LIB)` with a space: this file is bundled into dispatch, whose
// CommonJS pass refuses an `import(` it cannot rewrite (scripts/bundle-dispatch.mjs).

/** OpenCode's plugin shape (Kilo's is the same): `export const X = async (ctx) => hooks`; a throw in tool.execute.before denies. */
function opencodeModule(agent: 'opencode' | 'kilo', packageDir: string, settings: readonly string[]): string {
  const lib = join(packageDir, 'dist', 'plugins', 'opencode.js');
  return `// Written by \`agent-hooks install\`: Claude-format hooks, judged by agent-hooks, in this agent.
const LIB = ${lit(lib)};
let plugin;
try {
  plugin = (await import (LIB)).opencodePlugin({ agent: ${lit(agent)}, settings: ${lit(settings)} });
} catch (err) {
  const why = \`agent-hooks cannot load \${LIB} (\${err?.message ?? err}): tool calls are blocked until it is reinstalled or \\\`agent-hooks uninstall\\\` is run\`;
  plugin = async () => ({ 'tool.execute.before': async () => { throw new Error(why); } });
}
export const AgentHooks = plugin;
`;
}

/** Pi's extension shape: `export default (pi) => { pi.on('tool_call', …) }`; `{block, reason}` denies. */
function piModule(packageDir: string, settings: readonly string[]): string {
  const lib = join(packageDir, 'dist', 'plugins', 'pi.js');
  return `// Written by \`agent-hooks install\`: Claude-format hooks, judged by agent-hooks, in this agent.
const LIB = ${lit(lib)};
export default async function agentHooks(pi: any) {
  try {
    return (await import (LIB)).piExtension({ settings: ${lit(settings)} })(pi);
  } catch (err: any) {
    const reason = \`agent-hooks cannot load \${LIB} (\${err?.message ?? err}): tool calls are blocked until it is reinstalled or \\\`agent-hooks uninstall\\\` is run\`;
    pi.on('tool_call', () => ({ block: true, reason }));
  }
}
`;
}

function pluginSpec(title: string, project: string, user: string, module: InstallSpec['plugin']): InstallSpec {
  return {
    title,
    format: 'plugin',
    target: (scope, { projectDir, homeDir }) => join(scope === 'user' ? homeDir : projectDir, scope === 'user' ? user : project),
    events: [],
    blocksBy: 'exit2',
    plugin: module,
  };
}

export const opencodeInstall = pluginSpec(
  'OpenCode',
  '.opencode/plugin/agent-hooks.js',
  '.config/opencode/plugin/agent-hooks.js',
  (dir, settings) => opencodeModule('opencode', dir, settings),
);
// Kilo's user plugin directory is not in the facts; ~/.config/kilo/plugins/ follows its OpenCode base and its project folder name.
export const kiloInstall = pluginSpec('Kilo CLI', '.kilo/plugins/agent-hooks.js', '.config/kilo/plugins/agent-hooks.js', (dir, settings) =>
  opencodeModule('kilo', dir, settings),
);
export const piInstall = pluginSpec('Pi', '.pi/extensions/agent-hooks.ts', '.pi/agent/extensions/agent-hooks.ts', piModule);
