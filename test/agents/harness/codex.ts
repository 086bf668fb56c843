/**
 * Codex: OpenAI Responses SSE through a `[model_providers.fake]` in `$CODEX_HOME/config.toml`
 * (`wire_api = "responses"`; analytics off, else a 5 s hang at exit). Hooks are Claude-shaped
 * JSON in `$CODEX_HOME/hooks.json`; `codex exec` skips them silently unless trusted, hence
 * `--dangerously-bypass-hook-trust`. The model's shell tool is `exec_command {cmd}`; hooks see
 * it as `Bash` with `{command}`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentAdapter } from './agent.js';
import { claudeHooks, writeEngineConfig } from './claude.js';
import { baseEnv, tracedDispatchCommand, FAKE_URL, hookCommand } from './run.js';

/** Events Codex fires hooks for (codex-rs hook_config.rs). */
const CODEX_EVENTS = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'SessionStart', 'UserPromptSubmit', 'Stop']);

/** Where Codex keeps its hooks, and one entry of an event's list. */
const hookFile = {
  path: (dirs) => join(dirs.home, '.codex', 'hooks.json'),
  entry: (command) => ({ hooks: [{ type: 'command', command, timeout: 60 }] }),
} satisfies NonNullable<AgentAdapter['hookFile']>;

export const codex: AgentAdapter = {
  name: 'codex',
  api: 'responses',
  tools: {
    shell: (cmd) => ({ name: 'exec_command', input: { cmd } }),
    writeFile: (path, content) => ({
      name: 'apply_patch',
      custom: true,
      input: {
        input: `*** Begin Patch\n*** Add File: ${path}\n${content
          .split('\n')
          .filter(Boolean)
          .map((l) => `+${l}`)
          .join('\n')}\n*** End Patch\n`,
      },
    }),
  },
  nativeUnsupported: (hooks) => {
    const missing = hooks.filter((h) => !CODEX_EVENTS.has(h.event)).map((h) => h.event);
    return missing.length ? `Codex has no ${missing.join(', ')} hook` : null;
  },
  hookFile,
  prepare(dirs, scenario, mode, bin) {
    const codexHome = join(dirs.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    let hooks: Record<string, unknown[]>;
    if (mode === 'native') {
      hooks = claudeHooks(scenario.hooks, (h) => hookCommand(dirs, 'codex', h.mode, h.token));
    } else {
      const engine = writeEngineConfig(dirs, scenario.hooks);
      const events = [...new Set(scenario.hooks.map((h) => h.event))];
      hooks = Object.fromEntries(events.map((e) => [e, [hookFile.entry(tracedDispatchCommand(dirs, 'codex', engine))]]));
    }
    writeFileSync(join(codexHome, 'hooks.json'), JSON.stringify({ hooks }, null, 2));
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model = "gpt-5.5"',
        'model_provider = "fake"',
        '[model_providers.fake]',
        'name = "fake"',
        `base_url = "${FAKE_URL}/v1"`,
        'wire_api = "responses"',
        'env_key = "FAKE_API_KEY"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        '[analytics]',
        'enabled = false',
        '',
      ].join('\n'),
    );
    return {
      command: bin,
      args: [
        'exec',
        '--dangerously-bypass-hook-trust',
        '--skip-git-repo-check',
        '--json',
        // Without it a model Codex does not know gets no apply_patch tool at all.
        '--enable',
        'apply_patch_freeform',
        ...(scenario.permissive ? ['--dangerously-bypass-approvals-and-sandbox'] : []),
        scenario.prompt,
      ],
      env: baseEnv(dirs, { CODEX_HOME: codexHome, FAKE_API_KEY: 'fake-key', RUST_LOG: 'error' }),
      api: 'responses',
      script: { toolCalls: [] },
      timeoutMs: 120_000,
    };
  },
};
