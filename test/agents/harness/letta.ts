/**
 * Letta Code: its experimental local backend (the agent loop in the CLI, no Letta server) with
 * the llama.cpp provider on Chat Completions SSE (LLAMA_CPP_BASE_URL). Hooks in the project's
 * `.letta/settings.json`: Claude's shape and names, timeouts in milliseconds.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listAt, type AgentAdapter } from './agent.js';
import { writeEngineConfig } from './claude.js';
import { baseEnv, FAKE_URL, hookCommand, tracedDispatchCommand } from './run.js';

/** Where Letta Code keeps its hooks, and one entry of an event's list. */
const hookFile = {
  path: (dirs) => join(dirs.work, '.letta', 'settings.json'),
  entry: (command) => ({ hooks: [{ type: 'command', command, timeout: 60_000 }] }),
} satisfies NonNullable<AgentAdapter['hookFile']>;

export const letta: AgentAdapter = {
  name: 'letta',
  api: 'chat',
  tools: {
    shell: (command) => ({ name: 'Bash', input: { command, description: 'run it' } }),
    writeFile: (file_path, content) => ({ name: 'Write', input: { file_path, content } }),
  },
  nativeUnsupported: () => null,
  hookFile,
  prepare(dirs, scenario, mode, bin) {
    const hooks: Record<string, unknown[]> = {};
    if (mode === 'native') {
      for (const h of scenario.hooks) {
        listAt(hooks, h.event).push({
          ...(h.matcher ? { matcher: h.matcher } : {}),
          hooks: [{ type: 'command', command: hookCommand(dirs, 'claude', h.mode, h.token), timeout: 60_000 }],
        });
      }
    } else {
      const engine = writeEngineConfig(dirs, scenario.hooks);
      for (const e of new Set(scenario.hooks.map((h) => h.event)))
        hooks[e] = [hookFile.entry(tracedDispatchCommand(dirs, 'letta', engine))];
    }
    mkdirSync(join(dirs.work, '.letta'), { recursive: true });
    writeFileSync(hookFile.path(dirs), JSON.stringify({ hooks }, null, 2));
    return {
      command: process.execPath,
      args: [
        bin,
        '--backend',
        'local',
        '-m',
        'llama.cpp/fake-model',
        '--new-agent',
        '--no-skills',
        ...(scenario.permissive ? ['--permission-mode', 'bypassPermissions'] : []),
        '-p',
        scenario.prompt,
      ],
      env: baseEnv(dirs, {
        LETTA_LOCAL_BACKEND_EXPERIMENTAL: '1',
        LLAMA_CPP_BASE_URL: `${FAKE_URL}/v1`,
        DISABLE_AUTOUPDATER: '1',
        LETTA_DISABLE_TELEMETRY: '1',
      }),
      api: 'chat',
      script: { toolCalls: [] },
      timeoutMs: 120_000,
    };
  },
};
