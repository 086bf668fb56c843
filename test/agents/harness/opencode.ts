/**
 * OpenCode (`opencode-ai`, the Bun binary of opencode-linux-x64): Chat Completions through a
 * provider in `opencode.json` (npm `@ai-sdk/openai-compatible`, bundled), `opencode run <prompt>`.
 * No hooks file: plugins in `.opencode/plugin/*.js`, run in OpenCode's Bun. Natively a minimal
 * hand-written plugin does each scenario (opencode-native.ts); under dispatch the plugin is
 * agent-hooks' own (dist/plugins/opencode.js) with the engine config, as `agent-hooks install`
 * writes it. `run` allows every tool by default (no permission prompt).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentAdapter } from './agent.js';
import { writeEngineConfig } from './claude.js';
import { opencodeNativePlugin } from './opencode-native.js';
import { pluginModule, tracedPlugin } from './plugin-agents.js';
import { baseEnv, FAKE_URL, type RunDirs } from './run.js';
import type { Scenario } from './scenarios.js';

/** The provider config both OpenCode and Kilo CLI read (`opencode.json` / `kilo.json`). */
export const FAKE_PROVIDER_CONFIG = {
  model: 'fake/fake-model',
  share: 'disabled',
  autoupdate: false,
  provider: {
    fake: {
      npm: '@ai-sdk/openai-compatible',
      name: 'Fake',
      options: { baseURL: `${FAKE_URL}/v1`, apiKey: 'sk-fake' },
      models: { 'fake-model': { name: 'Fake model', tool_call: true } },
    },
  },
};

export const opencodeTools: AgentAdapter['tools'] = {
  shell: (command) => ({ name: 'bash', input: { command, description: 'run it' } }),
  writeFile: (filePath, content) => ({ name: 'write', input: { filePath, content } }),
};

/**
 * OpenCode (and Kilo) start an npm install of their plugin package into each config folder and,
 * offline, wait ~75 s for it to fail. They skip it when `node_modules` exists and the lock file
 * lists the package (Npm.install in the 1.18.33 binary): our plugins never import that package.
 */
export function skipPluginInstall(dir: string, pkg: string): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ dependencies: { [pkg]: '*' } }));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ packages: { '': { dependencies: { [pkg]: '*' } } } }));
}

/** Writes the plugin file (native or agent-hooks') into `pluginDir` of the work folder. */
export function writePlugin(
  dirs: RunDirs,
  scenario: Scenario,
  mode: 'native' | 'dispatch',
  pluginDir: string,
  agent: 'opencode' | 'kilo',
): void {
  const dir = join(dirs.work, pluginDir);
  mkdirSync(dir, { recursive: true });
  const source =
    mode === 'native'
      ? opencodeNativePlugin(dirs, scenario.hooks)
      : tracedPlugin(dirs, pluginModule(dirs, 'opencode'), 'opencodePlugin', writeEngineConfig(dirs, scenario.hooks), agent);
  writeFileSync(join(dir, 'agent-hooks.js'), source);
}

export const opencode: AgentAdapter = {
  name: 'opencode',
  api: 'chat',
  tools: opencodeTools,
  nativeUnsupported: () => null,
  prepare(dirs, scenario, mode, bin) {
    writePlugin(dirs, scenario, mode, join('.opencode', 'plugin'), 'opencode');
    skipPluginInstall(join(dirs.work, '.opencode'), '@opencode-ai/plugin');
    skipPluginInstall(join(dirs.home, '.config', 'opencode'), '@opencode-ai/plugin');
    writeFileSync(join(dirs.work, 'opencode.json'), JSON.stringify(FAKE_PROVIDER_CONFIG, null, 2));
    return {
      command: bin,
      args: ['run', scenario.prompt],
      env: baseEnv(dirs, {
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      }),
      api: 'chat',
      script: { toolCalls: [] },
      timeoutMs: 120_000,
    };
  },
};
