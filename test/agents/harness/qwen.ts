/**
 * Qwen Code: Chat Completions SSE on OPENAI_BASE_URL (OPENAI_API_KEY, OPENAI_MODEL), run on
 * the Node 22 of the npm package node@22. Hooks in `$HOME/.qwen/settings.json`: Claude event
 * names and outputs, Gemini-style tool ids in matchers, timeouts in seconds.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listAt, type AgentAdapter } from './agent.js';
import { node22 } from './cache.js';
import { writeEngineConfig } from './claude.js';
import { baseEnv, tracedDispatchCommand, FAKE_URL, hookCommand } from './run.js';

const TOOLS: Record<string, string> = { Bash: 'run_shell_command', Write: 'write_file', Edit: 'edit', MultiEdit: 'edit' };

function nativeMatcher(m: string | undefined): string | undefined {
  if (!m) return undefined;
  return [
    ...new Set(
      m
        .split('|')
        .map((t) => TOOLS[t])
        .filter(Boolean),
    ),
  ].join('|');
}

/** Where Qwen Code keeps its hooks, and one entry of an event's list. */
const hookFile = {
  path: (dirs) => join(dirs.home, '.qwen', 'settings.json'),
  entry: (command) => ({ hooks: [{ type: 'command', command, timeout: 60 }] }),
} satisfies NonNullable<AgentAdapter['hookFile']>;

export const qwen: AgentAdapter = {
  name: 'qwen',
  api: 'chat',
  tools: {
    shell: (command) => ({ name: 'run_shell_command', input: { command, is_background: false } }),
    writeFile: (file_path, content) => ({ name: 'write_file', input: { file_path, content } }),
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
        hooks[e] = [hookFile.entry(tracedDispatchCommand(dirs, 'qwen', engine))];
      }
    }
    const qwenDir = join(dirs.home, '.qwen');
    mkdirSync(qwenDir, { recursive: true });
    writeFileSync(
      join(qwenDir, 'settings.json'),
      JSON.stringify(
        {
          security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
          model: { name: 'fake-model' },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
          telemetry: { enabled: false },
          privacy: { usageStatisticsEnabled: false },
          hooks,
        },
        null,
        2,
      ),
    );
    return {
      command: node22(),
      args: [bin, '-p', scenario.prompt, '--output-format', 'json', ...(scenario.permissive ? ['--approval-mode', 'yolo'] : [])],
      env: baseEnv(dirs, {
        OPENAI_BASE_URL: `${FAKE_URL}/v1`,
        OPENAI_API_KEY: 'fake-key',
        OPENAI_MODEL: 'fake-model',
        QWEN_CODE_NO_RELAUNCH: 'true',
        GEMINI_CLI_NO_RELAUNCH: 'true',
        QWEN_CLI_TRUST_WORKSPACE: 'true',
      }),
      api: 'chat',
      script: { toolCalls: [] },
      timeoutMs: 120_000,
    };
  },
};
