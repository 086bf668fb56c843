/**
 * Pi (`@mariozechner/pi-coding-agent`): Chat Completions through a provider in
 * `$HOME/.pi/agent/models.json` (api `openai-completions`), `pi --provider fake --model fake-model
 * --no-session -p`. No hooks file: extensions in `.pi/extensions/*.ts` (loaded with jiti). Natively
 * a minimal hand-written extension does each scenario (pi-native.ts); under dispatch the extension
 * is agent-hooks' own (dist/plugins/pi.js) with the engine config, as `agent-hooks install` writes it.
 * Pi has no permission modes: every tool runs unless an extension blocks it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentAdapter } from './agent.js';
import { writeEngineConfig } from './claude.js';
import { piNativeExtension } from './pi-native.js';
import { pluginModule, tracedPlugin } from './plugin-agents.js';
import { baseEnv, FAKE_URL } from './run.js';

export const pi: AgentAdapter = {
  name: 'pi',
  api: 'chat',
  tools: {
    shell: (command) => ({ name: 'bash', input: { command } }),
    writeFile: (path, content) => ({ name: 'write', input: { path, content } }),
  },
  nativeUnsupported: () => null,
  prepare(dirs, scenario, mode, bin) {
    const extDir = join(dirs.work, '.pi', 'extensions');
    mkdirSync(extDir, { recursive: true });
    const source =
      mode === 'native'
        ? piNativeExtension(dirs, scenario.hooks)
        : tracedPlugin(dirs, pluginModule(dirs, 'pi'), 'piExtension', writeEngineConfig(dirs, scenario.hooks), 'pi');
    writeFileSync(join(extDir, 'agent-hooks.ts'), source);
    const agentDir = join(dirs.home, '.pi', 'agent');
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(
      join(agentDir, 'models.json'),
      JSON.stringify({
        providers: {
          fake: {
            baseUrl: `${FAKE_URL}/v1`,
            api: 'openai-completions',
            apiKey: 'sk-fake',
            compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
            models: [{ id: 'fake-model' }],
          },
        },
      }),
    );
    return {
      command: process.execPath,
      args: [bin, '--provider', 'fake', '--model', 'fake-model', '--no-session', '-p', scenario.prompt],
      env: baseEnv(dirs, { PI_SKIP_VERSION_CHECK: '1' }),
      api: 'chat',
      script: { toolCalls: [] },
      timeoutMs: 120_000,
    };
  },
};
