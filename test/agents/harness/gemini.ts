/**
 * Gemini CLI: `:streamGenerateContent?alt=sse` on GOOGLE_GEMINI_BASE_URL with GEMINI_API_KEY
 * and `security.auth.selectedType: "gemini-api-key"` (the base URL alone selects a gateway
 * auth that fails). Hooks in `$HOME/.gemini/settings.json` (user settings need no workspace
 * trust); events BeforeTool/AfterTool/BeforeAgent/AfterAgent/SessionStart; timeouts in ms.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listAt, type AgentAdapter } from './agent.js';
import { writeEngineConfig } from './claude.js';
import { baseEnv, tracedDispatchCommand, FAKE_URL, hookCommand } from './run.js';
import type { HookSpec } from './scenarios.js';

const EVENTS: Record<string, string | undefined> = {
  PreToolUse: 'BeforeTool',
  PostToolUse: 'AfterTool',
  Stop: 'AfterAgent',
  UserPromptSubmit: 'BeforeAgent',
  SessionStart: 'SessionStart',
};
/** Claude tool names → Gemini's own (its matchers are regexes over these). */
const TOOLS: Record<string, string> = { Bash: 'run_shell_command', Write: 'write_file', Edit: 'replace', MultiEdit: 'replace' };

function nativeMatcher(m: string | undefined): string | undefined {
  if (!m) return undefined;
  const names = [
    ...new Set(
      m
        .split('|')
        .map((t) => TOOLS[t])
        .filter(Boolean),
    ),
  ];
  return names.join('|');
}

/** Where Gemini CLI keeps its hooks, and one entry of an event's list. */
const hookFile = {
  path: (dirs) => join(dirs.home, '.gemini', 'settings.json'),
  entry: (command) => ({ hooks: [{ type: 'command', command, timeout: 60_000 }] }),
} satisfies NonNullable<AgentAdapter['hookFile']>;

export const gemini: AgentAdapter = {
  name: 'gemini',
  api: 'gemini',
  tools: {
    shell: (command) => ({ name: 'run_shell_command', input: { command } }),
    writeFile: (file_path, content) => ({ name: 'write_file', input: { file_path, content } }),
  },
  nativeUnsupported: (hooks: HookSpec[]) => {
    const missing = hooks.filter((h) => !EVENTS[h.event]).map((h) => h.event);
    return missing.length ? `Gemini CLI has no ${missing.join(', ')} hook` : null;
  },
  hookFile,
  prepare(dirs, scenario, mode, bin) {
    const hooks: Record<string, unknown[]> = {};
    if (mode === 'native') {
      for (const h of scenario.hooks) {
        const matcher = nativeMatcher(h.matcher);
        listAt(hooks, EVENTS[h.event]!).push({
          ...(matcher ? { matcher } : {}),
          hooks: [{ type: 'command', command: hookCommand(dirs, 'gemini', h.mode, h.token), timeout: 60_000 }],
        });
      }
    } else {
      const engine = writeEngineConfig(dirs, scenario.hooks);
      for (const e of new Set(scenario.hooks.map((h) => EVENTS[h.event]).filter(Boolean))) {
        hooks[e!] = [hookFile.entry(tracedDispatchCommand(dirs, 'gemini', engine))];
      }
    }
    const geminiDir = join(dirs.home, '.gemini');
    mkdirSync(geminiDir, { recursive: true });
    writeFileSync(
      join(geminiDir, 'settings.json'),
      JSON.stringify(
        {
          security: { auth: { selectedType: 'gemini-api-key' } },
          model: { name: 'gemini-2.5-flash' },
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
      command: bin,
      args: ['-p', scenario.prompt, '--output-format', 'json', ...(scenario.permissive ? ['--approval-mode', 'yolo'] : [])],
      env: baseEnv(dirs, {
        GEMINI_API_KEY: 'fake-key',
        GOOGLE_GEMINI_BASE_URL: FAKE_URL,
        GEMINI_CLI_NO_RELAUNCH: 'true',
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
      }),
      api: 'gemini',
      script: { toolCalls: [] },
      timeoutMs: 120_000,
    };
  },
};
