/**
 * Copilot CLI: Chat Completions against COPILOT_PROVIDER_BASE_URL with COPILOT_OFFLINE=true;
 * hooks in `$COPILOT_HOME/hooks/*.json` (`{version:1, hooks:{preToolUse:[{type,bash,timeoutSec}]}}`,
 * camelCase events, no matchers on tool events); `--trust-folder` for the session's folder.
 * COPILOT_PKG_CACHE_HOME is shared by all runs, or each run unpacks its 235 MB runtime.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listAt, type AgentAdapter } from './agent.js';
import { copilotPkgCache } from './cache.js';
import { writeEngineConfig } from './claude.js';
import { baseEnv, tracedDispatchCommand, FAKE_URL, hookCommand } from './run.js';
import type { HookSpec } from './scenarios.js';

const EVENTS: Record<string, string> = {
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  Stop: 'agentStop',
  UserPromptSubmit: 'userPromptSubmitted',
  SessionStart: 'sessionStart',
  PermissionRequest: 'permissionRequest',
};

/** Where Copilot CLI keeps its hooks, and one entry of an event's list. */
const hookFile = {
  path: (dirs) => join(dirs.home, '.copilot', 'hooks', 'agent-hooks.json'),
  entry: (command) => ({ type: 'command', bash: command, timeoutSec: 60 }),
  dispatchArgs: (event) => ['--event', event],
} satisfies NonNullable<AgentAdapter['hookFile']>;

export const copilot: AgentAdapter = {
  name: 'copilot',
  api: 'chat',
  tools: {
    shell: (command) => ({ name: 'bash', input: { command, description: 'run it', mode: 'sync' } }),
    writeFile: (path, file_text) => ({ name: 'create', input: { path, file_text } }),
  },
  nativeUnsupported: (hooks: HookSpec[]) => {
    // Copilot's preToolUse/postToolUse take no matcher: a native hook sees every tool, which the
    // hook programs here tolerate (the model calls one tool), so nothing is unexpressible.
    const missing = hooks.filter((h) => !EVENTS[h.event]).map((h) => h.event);
    return missing.length ? `Copilot CLI has no ${missing.join(', ')} hook` : null;
  },
  hookFile,
  prepare(dirs, scenario, mode, bin) {
    const copilotHome = join(dirs.home, '.copilot');
    mkdirSync(join(copilotHome, 'hooks'), { recursive: true });
    const hooks: Record<string, unknown[]> = {};
    if (mode === 'native') {
      for (const h of scenario.hooks)
        listAt(hooks, EVENTS[h.event]!).push({ type: 'command', bash: hookCommand(dirs, 'copilot', h.mode, h.token), timeoutSec: 60 });
    } else {
      const engine = writeEngineConfig(dirs, scenario.hooks);
      for (const e of new Set(scenario.hooks.map((h) => EVENTS[h.event]!))) {
        hooks[e] = [hookFile.entry(tracedDispatchCommand(dirs, 'copilot', engine, hookFile.dispatchArgs(e)))];
      }
    }
    writeFileSync(join(copilotHome, 'hooks', 'agent-hooks.json'), JSON.stringify({ version: 1, hooks }, null, 2));
    mkdirSync(copilotPkgCache(), { recursive: true });
    return {
      command: bin,
      args: [
        '-p',
        scenario.prompt,
        '--no-auto-update',
        '--output-format',
        'json',
        '--trust-folder',
        ...(scenario.permissive ? ['--allow-all-tools', '--allow-all-paths'] : []),
      ],
      env: baseEnv(dirs, {
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_BASE_URL: `${FAKE_URL}/v1`,
        COPILOT_PROVIDER_API_KEY: 'fake-key',
        COPILOT_MODEL: 'fake-model',
        COPILOT_HOME: copilotHome,
        COPILOT_PKG_CACHE_HOME: copilotPkgCache(),
      }),
      api: 'chat',
      script: { toolCalls: [] },
      timeoutMs: 150_000,
    };
  },
};
