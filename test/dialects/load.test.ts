/**
 * Golden load tests: real config files in each agent's format (test/fixtures/dialects/<agent>/)
 * load through `--settings` (auto-detected) into the expected hooks; check validates them with
 * path-qualified diagnostics, Kimi strictly.
 */
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkPaths } from '../../src/cli/check.js';
import { loadConfig } from '../../src/config/index.js';
import { detectDialect, readDocument } from '../../src/agents/all.js';
import { readFileSync } from 'node:fs';
import type { NormalizedHook } from '../../src/types.js';

const FIX = resolve(__dirname, '../fixtures/dialects');

async function load(rel: string, dialect?: string) {
  const file = join(FIX, rel);
  return loadConfig({ cwd: FIX, discover: false, settingsFiles: [file], ...(dialect ? { dialect } : {}) });
}

function summary(h: NormalizedHook) {
  return {
    event: h.event,
    ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
    ...(h.matcherMode ? { mode: h.matcherMode } : {}),
    handler: h.handler,
    ...(h.dialect ? { dialect: h.dialect } : {}),
    native: h.dialectData?.nativeEvent,
    path: h.source.path,
  };
}

describe('detection', () => {
  test.each([
    ['claude/.claude/settings.json', 'claude'],
    ['codex/.codex/hooks.json', 'codex'],
    ['codex/.codex/config.toml', 'codex'],
    ['gemini/.gemini/settings.json', 'gemini'],
    ['qwen/.qwen/settings.json', 'qwen'],
    ['kimi/.kimi-code/config.toml', 'kimi'],
    ['kimi/bad-config.toml', 'kimi'],
    ['cursor/.cursor/hooks.json', 'cursor'],
    ['copilot/.github/hooks/guard.json', 'copilot'],
  ])('%s is %s', async (rel, name) => {
    const file = join(FIX, rel);
    const doc = await readDocument(file, readFileSync(file, 'utf8'));
    expect(doc.ok).toBe(true);
    expect(detectDialect(file, doc.ok ? doc.doc : undefined).dialect.name).toBe(name);
  });

  test('content alone tells Gemini, Kimi, Cursor and Copilot apart', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['x.json', { hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'a' }] }] } }, 'gemini'],
      ['x.toml', { hooks: [{ event: 'Stop', command: 'a' }] }, 'kimi'],
      ['x.json', { version: 1, hooks: { beforeShellExecution: [{ command: 'a' }] } }, 'cursor'],
      ['x.json', { version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'a' }] } }, 'copilot'],
      ['x.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'a' }] }] } }, 'claude'],
    ];
    for (const [file, doc, name] of cases) expect(detectDialect(file, doc).dialect.name, JSON.stringify(doc)).toBe(name);
  });
});

describe('golden loads', () => {
  test('Claude settings stay native (no dialect tag)', async () => {
    const c = await load('claude/.claude/settings.json');
    expect(c.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
    expect(c.hooks).toHaveLength(8);
    expect(c.hooks.every((h) => h.dialect === undefined && h.bridge === undefined)).toBe(true);
  });

  test('Codex hooks.json: timeouts default to 600 s, matchers only where Codex reads them, prompt hooks skipped', async () => {
    const c = await load('codex/.codex/hooks.json');
    expect(c.hooks.map(summary)).toEqual([
      {
        event: 'PreToolUse',
        matcher: '^Bash$',
        mode: 'claude-narrow',
        handler: { type: 'command', command: 'python3 .codex/hooks/pre.py', timeout: 10, statusMessage: 'checking' },
        dialect: 'codex',
        native: 'PreToolUse',
        path: 'hooks.PreToolUse[0].hooks[0]',
      },
      {
        event: 'PreToolUse',
        matcher: 'apply_patch|Bash',
        mode: 'claude-narrow',
        handler: { type: 'command', command: 'python3 .codex/hooks/patch.py', timeout: 600 },
        dialect: 'codex',
        native: 'PreToolUse',
        path: 'hooks.PreToolUse[1].hooks[0]',
      },
      {
        event: 'Stop',
        mode: 'claude-narrow',
        handler: { type: 'command', command: 'python3 .codex/hooks/stop.py', timeout: 20 },
        dialect: 'codex',
        native: 'Stop',
        path: 'hooks.Stop[0].hooks[0]',
      },
      {
        event: 'SessionStart',
        matcher: 'startup|resume',
        mode: 'claude-narrow',
        handler: { type: 'command', command: 'echo started', timeout: 600 },
        dialect: 'codex',
        native: 'SessionStart',
        path: 'hooks.SessionStart[0].hooks[0]',
      },
    ]);
    const warnings = c.diagnostics.map((d) => `${d.path}: ${d.message}`);
    expect(warnings).toContainEqual(expect.stringMatching(/^hooks\.Stop\[0\]\.matcher: Codex ignores matchers on Stop/));
    expect(warnings).toContainEqual(expect.stringMatching(/^hooks\.SessionStart\[0\]\.hooks\[1\]\.type: Codex skips 'prompt' hooks/));
  });

  test('Codex config.toml [hooks] tables (state is not a hook)', async () => {
    const c = await load('codex/.codex/config.toml');
    expect(c.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
    expect(c.hooks.map(summary)).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        mode: 'claude-narrow',
        handler: { type: 'command', command: 'python3 /tmp/pre.py', timeout: 30 },
        dialect: 'codex',
        native: 'PreToolUse',
        path: 'hooks.PreToolUse[0].hooks[0]',
      },
    ]);
  });

  test('Gemini: events mapped, ms → s, disabled list honoured, model events reported', async () => {
    const c = await load('gemini/.gemini/settings.json');
    expect(c.hooks.map(summary)).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'write_file|replace',
        mode: 'regex-or-exact',
        handler: { type: 'command', command: 'node .gemini/hooks/validate.js', timeout: 5 },
        dialect: 'gemini',
        native: 'BeforeTool',
        path: 'hooks.BeforeTool[0].hooks[0]',
      },
      {
        event: 'Stop',
        mode: 'exact',
        handler: { type: 'command', command: 'node .gemini/hooks/check.js', timeout: 60, env: { MODE: 'strict' } },
        dialect: 'gemini',
        native: 'AfterAgent',
        path: 'hooks.AfterAgent[0].hooks[0]',
      },
      {
        event: 'SessionStart',
        matcher: 'startup',
        mode: 'exact',
        handler: { type: 'command', command: 'node .gemini/hooks/start.js', timeout: 60 },
        dialect: 'gemini',
        native: 'SessionStart',
        path: 'hooks.SessionStart[0].hooks[0]',
      },
    ]);
    expect(c.hooks[0]!.dialectData).toMatchObject({ name: 'validate-write', description: 'Validate writes', sequential: true });
    const msgs = c.diagnostics.map((d) => `${d.path}: ${d.message}`);
    expect(msgs).toContainEqual(expect.stringMatching(/^hooks\.BeforeTool\[1\]\.hooks\[0\]: hook "noisy" is in the disabled list/));
    expect(msgs).toContainEqual(expect.stringMatching(/^hooks\.BeforeModel: BeforeModel has no equivalent/));
  });

  test('Qwen: seconds (legacy ms when >= 1000), regex Notification matcher', async () => {
    const c = await load('qwen/.qwen/settings.json');
    expect(c.hooks.map(summary)).toEqual([
      {
        event: 'PreToolUse',
        matcher: '^run_shell_command$',
        mode: 'regex-or-exact',
        handler: { type: 'command', command: '$QWEN_PROJECT_DIR/.qwen/hooks/security-check.sh', timeout: 10 },
        dialect: 'qwen',
        native: 'PreToolUse',
        path: 'hooks.PreToolUse[0].hooks[0]',
      },
      {
        event: 'PreToolUse',
        matcher: '*',
        mode: 'regex-or-exact',
        handler: { type: 'http', url: 'http://127.0.0.1:8080/hooks/pre-tool-use', timeout: 10 },
        dialect: 'qwen',
        native: 'PreToolUse',
        path: 'hooks.PreToolUse[1].hooks[0]',
      },
      {
        event: 'Stop',
        mode: 'regex-or-exact',
        handler: { type: 'prompt', prompt: 'Is the task complete? $ARGUMENTS', timeout: 30 },
        dialect: 'qwen',
        native: 'Stop',
        path: 'hooks.Stop[0].hooks[0]',
      },
      {
        event: 'Notification',
        matcher: 'permission_prompt',
        mode: 'regex-or-exact',
        handler: { type: 'command', command: 'notify-send qwen', timeout: 60, async: true },
        dialect: 'qwen',
        native: 'Notification',
        path: 'hooks.Notification[0].hooks[0]',
      },
    ]);
  });

  test('Kimi: [[hooks]], regex matchers, 30 s default', async () => {
    const c = await load('kimi/.kimi-code/config.toml');
    expect(c.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
    expect(c.hooks.map(summary)).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        mode: 'regex',
        handler: { type: 'command', command: 'node ~/.kimi-code/hooks/check-bash.mjs', timeout: 5 },
        dialect: 'kimi',
        native: 'PreToolUse',
        path: 'hooks[0]',
      },
      {
        event: 'Notification',
        matcher: 'task\\.completed',
        mode: 'regex',
        handler: { type: 'command', command: "terminal-notifier -title Kimi -message 'Background task finished'", timeout: 30 },
        dialect: 'kimi',
        native: 'Notification',
        path: 'hooks[1]',
      },
      {
        event: 'Stop',
        mode: 'regex',
        handler: { type: 'command', command: 'node ~/.kimi-code/hooks/stop.mjs', timeout: 30 },
        dialect: 'kimi',
        native: 'Stop',
        path: 'hooks[2]',
      },
    ]);
  });

  test('Kimi is strict: an unknown field or event fails the whole file, path-qualified', async () => {
    const c = await load('kimi/bad-config.toml');
    expect(c.hooks).toEqual([]);
    const errors = c.diagnostics.filter((d) => d.level === 'error').map((d) => `${d.path}: ${d.message}`);
    expect(errors).toContainEqual('hooks[0].description: unknown field "description"');
    expect(errors).toContainEqual(expect.stringMatching(/^hooks\[1\]\.event: expected one of "PreToolUse", .*got "BeforeTool"$/));
    expect(c.files).toEqual([{ file: join(FIX, 'kimi/bad-config.toml'), kind: 'cli', ok: false }]);
  });

  test('Cursor: tool events imply the tool, failClosed denies on failure, generic events keep Cursor matchers', async () => {
    const c = await load('cursor/.cursor/hooks.json');
    expect(c.hooks.map(summary)).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        handler: { type: 'command', command: './hooks/block-git.sh', timeout: 10 },
        dialect: 'cursor',
        native: 'beforeShellExecution',
        path: 'hooks.beforeShellExecution[0]',
      },
      {
        event: 'PreToolUse',
        matcher: 'mcp__.*',
        handler: { type: 'command', command: './hooks/mcp-guard.sh', failureBehavior: 'deny', timeoutBehavior: 'deny' },
        dialect: 'cursor',
        native: 'beforeMCPExecution',
        path: 'hooks.beforeMCPExecution[0]',
      },
      {
        event: 'PostToolUse',
        matcher: 'Edit|Write|MultiEdit',
        handler: { type: 'command', command: './hooks/format.sh' },
        dialect: 'cursor',
        native: 'afterFileEdit',
        path: 'hooks.afterFileEdit[0]',
      },
      {
        event: 'PreToolUse',
        matcher: 'Shell|Write',
        mode: 'regex',
        handler: { type: 'command', command: './hooks/pre.sh' },
        dialect: 'cursor',
        native: 'preToolUse',
        path: 'hooks.preToolUse[0]',
      },
      {
        event: 'Stop',
        mode: 'regex',
        handler: { type: 'command', command: './hooks/audit.sh' },
        dialect: 'cursor',
        native: 'stop',
        path: 'hooks.stop[0]',
      },
    ]);
    expect(c.diagnostics.map((d) => d.path)).toEqual(expect.arrayContaining(['hooks.stop[0].loop_limit', 'hooks.afterAgentThought']));
  });

  test('Copilot CLI: bash/powershell/cwd/env/timeoutSec, anchored matchers, prompt hooks skipped', async () => {
    const c = await load('copilot/.github/hooks/guard.json');
    expect(c.hooks.map(summary)).toEqual([
      {
        event: 'PreToolUse',
        mode: 'regex-anchored',
        handler: { type: 'command', command: "cd 'tools' && ./scripts/guard.sh", timeout: 15, env: { LOG_LEVEL: 'INFO' } },
        dialect: 'copilot',
        native: 'preToolUse',
        path: 'hooks.preToolUse[0]',
      },
      {
        event: 'Stop',
        mode: 'regex-anchored',
        handler: { type: 'command', command: './scripts/stop.sh', timeout: 30 },
        dialect: 'copilot',
        native: 'agentStop',
        path: 'hooks.agentStop[0]',
      },
      {
        event: 'PermissionRequest',
        matcher: 'bash|edit',
        mode: 'regex-anchored',
        handler: { type: 'command', command: './scripts/approve.sh', timeout: 30 },
        dialect: 'copilot',
        native: 'permissionRequest',
        path: 'hooks.permissionRequest[0]',
      },
    ]);
  });

  test('--dialect forces a dialect', async () => {
    const c = await load('claude/.claude/settings.json', 'qwen');
    expect(c.hooks.every((h) => h.dialect === 'qwen')).toBe(true);
    // Qwen Code 0.24 timeouts are seconds (values >= 1000 are legacy milliseconds): 5 → 5 s.
    expect(c.hooks[0]!.handler.timeout).toBe(5);
  });
});

describe('check', () => {
  test('walks a tree of every dialect and reports path-qualified problems', async () => {
    const r = await checkPaths([FIX], ['command', 'function']);
    const files = r.files.map((f) => f.file.slice(FIX.length + 1)).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'claude/.claude/settings.json',
        'codex/.codex/config.toml',
        'codex/.codex/hooks.json',
        'copilot/.github/hooks/guard.json',
        'cursor/.cursor/hooks.json',
        'gemini/.gemini/settings.json',
        'kimi/.kimi-code/config.toml',
        'kimi/bad-config.toml',
        'qwen/.qwen/settings.json',
      ]),
    );
    const bad = r.files.find((f) => f.file.endsWith('bad-config.toml'))!;
    expect(bad.ok).toBe(false);
    expect(r.files.filter((f) => !f.ok).map((f) => f.file.slice(FIX.length + 1))).toEqual(['kimi/bad-config.toml']);
    expect(r.diagnostics.find((d) => d.file?.endsWith('bad-config.toml') && d.path === 'hooks[0].description')?.message).toBe(
      'unknown field "description"',
    );
  });
});
