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
