/**
 * Kimi Code runs a command once per firing when several of its hooks matched (same cwd, same
 * command), whatever their matchers; different commands, and Claude-format hooks with their
 * own rules, are untouched.
 */
import { readFileSync, existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createHookEngine } from '../../src/engine/engine.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir('agent-hooks-kimi-dedup-');
});
afterEach(() => dir.cleanup());

async function fire(file: string): Promise<string[]> {
  const c = await loadConfig({ cwd: dir.root, settingsFiles: [file], discover: false });
  expect(c.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
  const engine = createHookEngine({ hooks: c.hooks, projectDir: dir.root, cwd: dir.root, spawner: false });
  try {
    await engine.run('PreToolUse', {
      session_id: 's',
      transcript_path: '',
      cwd: dir.root,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
  } finally {
    await engine.close();
  }
  const log = dir.path('log');
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
}

describe('Kimi dedup among the hooks matched for one firing', () => {
  it('one command under two matchers that both match runs once; another command still runs', async () => {
    const log = dir.path('log');
    const a = `echo a >> '${log}'`;
    const file = dir.write(
      'k/.kimi-code/config.toml',
      `[[hooks]]\nevent = "PreToolUse"\nmatcher = "Bash"\ncommand = "${a.replace(/"/g, '\\"')}"\n\n` +
        `[[hooks]]\nevent = "PreToolUse"\nmatcher = ".*"\ncommand = "${a.replace(/"/g, '\\"')}"\n\n` +
        `[[hooks]]\nevent = "PreToolUse"\nmatcher = "Ba"\ncommand = "echo b >> '${log}'"\n`,
    );
    expect((await fire(file)).sort()).toEqual(['a', 'b']);
  });
});
