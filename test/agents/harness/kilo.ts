/**
 * Kilo CLI (`@kilocode/cli-linux-x64`, a Bun binary; a fork of OpenCode): OpenCode's provider
 * config in `kilo.json`, `kilo run <prompt>`, plugins in `.kilo/plugins/` (one in
 * `.opencode/plugin/` is not loaded). The plugin is OpenCode's, told it runs in Kilo. Unlike
 * `opencode run`, `kilo run` rejects a call its permission rules would ask about unless `--auto`
 * (the permissive mode).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentAdapter } from './agent.js';
import { FAKE_PROVIDER_CONFIG, opencodeTools, skipPluginInstall, writePlugin } from './opencode.js';
import { baseEnv } from './run.js';

export const kilo: AgentAdapter = {
  name: 'kilo',
  api: 'chat',
  tools: opencodeTools,
  nativeUnsupported: () => null,
  prepare(dirs, scenario, mode, bin) {
    writePlugin(dirs, scenario, mode, join('.kilo', 'plugins'), 'kilo');
    skipPluginInstall(join(dirs.work, '.kilo'), '@kilocode/plugin');
    skipPluginInstall(join(dirs.home, '.config', 'kilo'), '@kilocode/plugin');
    writeFileSync(join(dirs.work, 'kilo.json'), JSON.stringify(FAKE_PROVIDER_CONFIG, null, 2));
    return {
      command: bin,
      // `kilo run` auto-rejects a permission it would ask for (a piped bash command) unless --auto.
      args: ['run', ...(scenario.permissive ? ['--auto'] : []), scenario.prompt],
      env: baseEnv(dirs, { KILO_DISABLE_MODELS_FETCH: '1', KILO_DISABLE_AUTOUPDATE: '1', KILO_DISABLE_LSP_DOWNLOAD: '1' }),
      api: 'chat',
      script: { toolCalls: [] },
      timeoutMs: 200_000,
    };
  },
};
