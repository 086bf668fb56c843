/**
 * The shell parser that places `${CLAUDE_…}` placeholders (src/backends/shell-placeholders.ts)
 * loads only for a command that holds one; when it cannot load, the hook does not run.
 */
import { existsSync } from 'node:fs';
import { afterEach, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
import type { BackendContext } from '../../src/backends/types.js';
import type { NormalizedHook } from '../../src/types.js';

const hookOf = (command: string): NormalizedHook => ({
  id: 'h',
  event: 'PreToolUse',
  handler: { type: 'command', command },
  source: { kind: 'cli', path: 'hooks.h' },
  dedupKey: '\0h',
});

afterEach(() => {
  vi.doUnmock('../../src/backends/shell-placeholders.js');
  vi.resetModules();
});

it('a placeholder whose parser cannot load fails the hook with the reason, without running it', async () => {
  const dir = tempDir();
  try {
    vi.doMock('../../src/backends/shell-placeholders.js', () => {
      throw new Error('simulated load failure');
    });
    const { commandBackend } = await import('../../src/backends/command-hook.js');
    const ctx: BackendContext = {
      timeoutMs: 5000,
      cwd: dir.root,
      projectDir: dir.root,
      sessionEnv: {},
      stdinLimitBytes: 1024,
      outputLimitBytes: 1024,
    };
    const backend = commandBackend({ spawner: false });
    const marker = dir.path('ran');
    const r = await backend(hookOf(`touch ${marker}; echo "\${CLAUDE_PROJECT_DIR}"`), {}, ctx);
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/^cannot substitute the \$\{CLAUDE_…\} placeholders: the shell parser did not load \(\S/);
    expect(existsSync(marker)).toBe(false);
    // Without a placeholder the parser is not needed, and the hook runs.
    const plain = await backend(hookOf(`touch ${marker}`), {}, ctx);
    expect(plain.status).toBe('completed');
    expect(existsSync(marker)).toBe(true);
  } finally {
    dir.cleanup();
  }
});

it('on an event that can block, a guard whose placeholders cannot be placed denies whatever its failure policy', async () => {
  const dir = tempDir();
  try {
    vi.doMock('../../src/backends/shell-placeholders.js', () => {
      throw new Error('simulated load failure');
    });
    const { createHookEngine } = await import('../../src/engine/engine.js');
    const allow = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
    const marker = dir.path('ran');
    const command = `touch ${marker}; cd "\${CLAUDE_PROJECT_DIR}" && echo '${allow}'`;
    const hook = (event: NormalizedHook['event']): NormalizedHook => ({
      ...hookOf(command),
      event,
      handler: { type: 'command', command, failureBehavior: 'ignore' },
    });
    const engine = createHookEngine({ hooks: [hook('PreToolUse'), hook('SessionStart')], projectDir: dir.root, spawner: false });
    const base = { session_id: 's', transcript_path: '', cwd: dir.root };
    const d = await engine.run('PreToolUse', { ...base, tool_name: 'Bash', tool_input: { command: 'rm -rf build' } });
    expect(d.decision).toBe('deny');
    expect(d.blocked).toBe(true);
    expect(d.reason).toContain('the shell parser did not load');
    expect(existsSync(marker)).toBe(false);
    // Where nothing can be blocked, the hook's own failure policy still applies (ignore: no block).
    const s = await engine.run('SessionStart', { ...base, source: 'startup' });
    expect(s.blocked).toBe(false);
    expect(s.hooks[0]?.outcome).toBe('error');
    expect(s.hooks[0]?.error).toContain('the shell parser did not load');
    await engine.close();
  } finally {
    dir.cleanup();
  }
});
