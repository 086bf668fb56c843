/**
 * Claude Code: Anthropic Messages SSE on ANTHROPIC_BASE_URL; `claude -p --output-format json`;
 * hooks from a `--settings` file (so the temp HOME holds no settings that dispatch would read
 * back as its own engine config). `--dangerously-skip-permissions` is refused as root, so the
 * permissive mode is `--allowedTools`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listAt, type AgentAdapter } from './agent.js';
import { baseEnv, tracedDispatchCommand, FAKE_URL, hookCommand, type RunDirs } from './run.js';
import type { HookSpec } from './scenarios.js';

/** Claude Code's environment for a run: the fake model, and none of its own traffic (updates, telemetry, error reports). */
export function claudeEnv(dirs: RunDirs): Record<string, string> {
  return baseEnv(dirs, {
    ANTHROPIC_BASE_URL: FAKE_URL,
    ANTHROPIC_API_KEY: 'sk-ant-fake-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  });
}

/** Claude-format `hooks` for `hooks`, each run as `command(h)`. */
export function claudeHooks(hooks: HookSpec[], command: (h: HookSpec) => string): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const h of hooks) {
    listAt(out, h.event).push({
      ...(h.matcher ? { matcher: h.matcher } : {}),
      hooks: [{ type: 'command', command: command(h), timeout: 60 }],
    });
  }
  return out;
}

/** The engine config dispatch reads: the scenario's hooks as Claude-format hooks of hook.mjs. */
export function writeEngineConfig(dirs: RunDirs, hooks: HookSpec[]): string {
  const file = join(dirs.root, 'engine.json');
  writeFileSync(file, JSON.stringify({ hooks: claudeHooks(hooks, (h) => hookCommand(dirs, 'claude', h.mode, h.token)) }, null, 2));
  return file;
}

export const claude: AgentAdapter = {
  name: 'claude',
  api: 'anthropic',
  tools: {
    shell: (command) => ({ name: 'Bash', input: { command, description: 'run it' } }),
    writeFile: (file_path, content) => ({ name: 'Write', input: { file_path, content } }),
  },
  nativeUnsupported: () => null,
  prepare(dirs, scenario, mode, bin) {
    const settingsFile = join(dirs.root, 'claude-settings.json');
    let hooks: Record<string, unknown[]>;
    if (mode === 'native') {
      hooks = claudeHooks(scenario.hooks, (h) => hookCommand(dirs, 'claude', h.mode, h.token));
    } else {
      const engine = writeEngineConfig(dirs, scenario.hooks);
      const events = [...new Set(scenario.hooks.map((h) => h.event))];
      hooks = Object.fromEntries(
        events.map((e) => [e, [{ hooks: [{ type: 'command', command: tracedDispatchCommand(dirs, 'claude', engine), timeout: 60 }] }]]),
      );
    }
    writeFileSync(settingsFile, JSON.stringify({ hooks }, null, 2));
    return {
      command: bin,
      args: [
        '-p',
        scenario.prompt,
        '--output-format',
        'json',
        '--settings',
        settingsFile,
        ...(scenario.permissive ? ['--allowedTools', 'Bash', 'Write', 'Edit'] : []),
      ],
      env: claudeEnv(dirs),
      api: 'anthropic',
      script: { toolCalls: [] },
      timeoutMs: 120_000,
    };
  },
};
