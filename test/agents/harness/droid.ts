/**
 * Factory Droid: Chat Completions through a `customModels` entry (provider
 * "generic-chat-completion-api") in `$HOME/.factory/settings.json`; Claude-format hooks in the
 * same file, but its own tool names (`Execute` for the shell, `Create` for a new file), so a
 * native hook names those. `droid exec -m custom:<model> -o json`; `--auto high` is the
 * permissive mode, no `--auto` the read-only default.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listAt, type AgentAdapter } from './agent.js';
import { writeEngineConfig } from './claude.js';
import { baseEnv, tracedDispatchCommand, FAKE_URL, hookCommand } from './run.js';

const TOOLS: Record<string, string[]> = {
  Bash: ['Execute'],
  Write: ['Create'],
  Edit: ['Edit'],
  MultiEdit: ['MultiEdit'],
  ApplyPatch: ['ApplyPatch'],
};

function nativeMatcher(m: string | undefined): string | undefined {
  if (!m) return undefined;
  return [...new Set(m.split('|').flatMap((t) => TOOLS[t] ?? [t]))].join('|');
}

/** Where Factory Droid keeps its hooks, and one entry of an event's list. */
const hookFile = {
  path: (dirs) => join(dirs.home, '.factory', 'settings.json'),
  entry: (command) => ({ hooks: [{ type: 'command', command, timeout: 60 }] }),
} satisfies NonNullable<AgentAdapter['hookFile']>;

export const droid: AgentAdapter = {
  name: 'droid',
  api: 'chat',
  tools: {
    shell: (command) => ({
      name: 'Execute',
      input: { command, summary: 'run it', riskLevel: 'low', riskLevelReason: 'touches a marker file in the temp folder' },
    }),
    writeFile: (file_path, content) => ({ name: 'Create', input: { file_path, content } }),
  },
  nativeUnsupported: () => null,
  hookFile,
  prepare(dirs, scenario, mode, bin) {
    const hooks: Record<string, unknown[]> = {};
    if (mode === 'native') {
      for (const h of scenario.hooks) {
        const matcher = nativeMatcher(h.matcher);
        listAt(hooks, h.event).push({
          ...(matcher ? { matcher } : {}),
          hooks: [{ type: 'command', command: hookCommand(dirs, 'claude', h.mode, h.token), timeout: 60 }],
        });
      }
    } else {
      const engine = writeEngineConfig(dirs, scenario.hooks);
      for (const e of new Set(scenario.hooks.map((h) => h.event))) {
        hooks[e] = [hookFile.entry(tracedDispatchCommand(dirs, 'droid', engine))];
      }
    }
    const factoryDir = join(dirs.home, '.factory');
    mkdirSync(factoryDir, { recursive: true });
    writeFileSync(
      join(factoryDir, 'settings.json'),
      JSON.stringify(
        {
          customModels: [
            {
              model: 'fake-model',
              displayName: 'fake',
              baseUrl: `${FAKE_URL}/v1`,
              apiKey: 'fake-key',
              provider: 'generic-chat-completion-api',
              maxOutputTokens: 4096,
            },
          ],
          enableDroidShield: false,
          cloudSessionSync: false,
          hooks,
        },
        null,
        2,
      ),
    );
    return {
      command: bin,
      args: ['exec', '-m', 'custom:fake-model', '-o', 'json', ...(scenario.permissive ? ['--auto', 'high'] : []), scenario.prompt],
      env: baseEnv(dirs, { FACTORY_API_KEY: 'fake-key', DROID_DISABLE_AUTO_UPDATE: 'true', FACTORY_DISABLE_AUTO_UPDATE: 'true' }),
      api: 'chat',
      script: { toolCalls: [] },
      timeoutMs: 120_000,
    };
  },
};
