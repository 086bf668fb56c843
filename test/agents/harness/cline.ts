/**
 * Cline CLI (its Bun-compiled binary): the openai-compatible provider on Chat Completions
 * (`cline auth … -b <fake>/v1` first, in the same namespace), then `cline --json <prompt>`
 * (act mode, auto-approve). Hooks are executables named after their event in the workspace's
 * `.clinerules/hooks/`; the answer is stdout JSON only. Each run leaves a detached hub daemon,
 * which ns-run.mjs ends with the rest of the namespace.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentAdapter } from './agent.js';
import { writeEngineConfig } from './claude.js';
import { baseEnv, FAKE_URL, hookCommand, shq, tracedDispatchCommand } from './run.js';
import type { HookSpec } from './scenarios.js';

/** The event file each canonical event is written as. */
const FILES: Record<HookSpec['event'], string | undefined> = {
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  UserPromptSubmit: 'UserPromptSubmit',
  SessionStart: 'TaskStart',
  Stop: 'TaskComplete',
  PermissionRequest: undefined,
};

function writeHook(dirs: { work: string }, event: string, command: string): void {
  const dir = join(dirs.work, '.clinerules', 'hooks');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, event);
  writeFileSync(file, `#!/bin/sh\n${command}\n`);
  chmodSync(file, 0o755);
}

export const cline: AgentAdapter = {
  name: 'cline',
  api: 'chat',
  tools: {
    shell: (command) => ({ name: 'run_commands', input: { commands: [command] } }),
    writeFile: (path, content) => ({ name: 'editor', input: { path, new_text: content } }),
  },
  // Cline hooks have no matcher: a hook on Bash alone cannot be said (the suite's hooks on other tools never fire here).
  nativeUnsupported: (hooks) => (hooks.some((h) => !FILES[h.event]) ? 'Cline has no PermissionRequest event' : null),
  prepare(dirs, scenario, mode, bin) {
    if (mode === 'native') {
      for (const h of scenario.hooks) writeHook(dirs, FILES[h.event]!, `exec ${hookCommand(dirs, 'cline', h.mode, h.token)}`);
    } else {
      const engine = writeEngineConfig(dirs, scenario.hooks);
      for (const e of new Set(scenario.hooks.map((h) => h.event))) {
        if (FILES[e]) writeHook(dirs, FILES[e], tracedDispatchCommand(dirs, 'cline', engine));
      }
    }
    const auth = [bin, 'auth', '-p', 'openai-compatible', '-k', 'sk-fake', '-m', 'fake-model', '-b', `${FAKE_URL}/v1`].map(shq).join(' ');
    const run = [bin, '--json', scenario.prompt].map(shq).join(' ');
    return {
      command: '/bin/sh',
      args: ['-c', `${auth} >/dev/null 2>&1; exec ${run}`],
      env: baseEnv(dirs, { CLINE_TELEMETRY_DISABLED: '1', CLINE_DISABLE_AUTO_UPDATE: '1' }),
      api: 'chat',
      script: { toolCalls: [] },
      timeoutMs: 120_000,
    };
  },
};
