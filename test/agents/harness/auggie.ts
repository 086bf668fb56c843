/**
 * Auggie (Augment Code CLI): it has no model setting, only its session's tenant URL, so the
 * session points at the fake's `augment` api (fake-model.mjs: /get-models with the enable_hooks
 * flag, /chat-stream). Hooks in `~/.augment/settings.json`: Claude's shape, `PromptSubmit`,
 * timeouts in milliseconds, Auggie's tool names in matchers.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listAt, type AgentAdapter } from './agent.js';
import { writeEngineConfig } from './claude.js';
import { baseEnv, FAKE_URL, hookCommand, tracedDispatchCommand } from './run.js';

const TOOLS: Record<string, string> = { Bash: 'launch-process', Write: 'save-file', Edit: 'str-replace-editor', ApplyPatch: 'apply_patch' };
const EVENTS: Record<string, string> = { UserPromptSubmit: 'PromptSubmit' };

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
  return `^(${names.join('|')})$`;
}

const hookFile = {
  path: (dirs) => join(dirs.home, '.augment', 'settings.json'),
  entry: (command) => ({ hooks: [{ type: 'command', command, timeout: 60_000 }] }),
} satisfies NonNullable<AgentAdapter['hookFile']>;

export const auggie: AgentAdapter = {
  name: 'auggie',
  api: 'augment',
  tools: {
    shell: (command) => ({ name: 'launch-process', input: { command, wait: true, max_wait_seconds: 30 } }),
    writeFile: (path, content) => ({ name: 'save-file', input: { path, file_content: content } }),
  },
  nativeUnsupported: () => null,
  hookFile,
  prepare(dirs, scenario, mode, bin) {
    const hooks: Record<string, unknown[]> = {};
    if (mode === 'native') {
      for (const h of scenario.hooks) {
        const matcher = nativeMatcher(h.matcher);
        listAt(hooks, EVENTS[h.event] ?? h.event).push({
          ...(matcher ? { matcher } : {}),
          hooks: [{ type: 'command', command: hookCommand(dirs, 'claude', h.mode, h.token), timeout: 60_000 }],
        });
      }
    } else {
      const engine = writeEngineConfig(dirs, scenario.hooks);
      for (const e of new Set(scenario.hooks.map((h) => h.event)))
        hooks[EVENTS[e] ?? e] = [hookFile.entry(tracedDispatchCommand(dirs, 'auggie', engine))];
    }
    mkdirSync(join(dirs.home, '.augment'), { recursive: true });
    writeFileSync(hookFile.path(dirs), JSON.stringify({ hooks }, null, 2));
    const session = { accessToken: 'fake-token', tenantURL: `${FAKE_URL}/`, scopes: ['email'] };
    return {
      command: process.execPath,
      args: [bin, '--print', '--workspace-root', dirs.work, '--dont-save-session', '--max-turns', '5', scenario.prompt],
      env: baseEnv(dirs, { AUGMENT_SESSION_AUTH: JSON.stringify(session), AUGMENT_DISABLE_AUTO_UPDATE: '1' }),
      api: 'augment',
      script: { toolCalls: [] },
      timeoutMs: 120_000,
    };
  },
};
