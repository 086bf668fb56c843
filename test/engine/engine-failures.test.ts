/**
 * The engine's own failures are never the hook's (issue 39, class 2): a hook it cannot start, an
 * input it cannot give whole or of the wrong type, and a cwd that no longer exists (class 1).
 */
import { mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createHookEngine, InvalidHookInputError, type HookEngineOptions } from '../../src/engine/engine.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

/** A PreToolUse hook on Bash running `command` (failure policy: the default, ignore). */
async function engineWith(command: string, opts: Partial<HookEngineOptions> = {}, handler: Record<string, unknown> = {}) {
  const file = dir.json('settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, ...handler }] }] },
  });
  const config = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [file] });
  return createHookEngine({ hooks: config.hooks, projectDir: dir.root, cwd: dir.root, ...opts });
}

const bash = (command: string, extra: Record<string, unknown> = {}) => ({
  session_id: 's',
  cwd: dir.root,
  tool_name: 'Bash',
  tool_input: { command },
  ...extra,
});

describe('a working directory that no longer exists', () => {
  it('runs command hooks in the project directory, with a note', async () => {
    const gone = dir.path('gone');
    mkdirSync(gone);
    rmdirSync(gone);
    const engine = await engineWith(`pwd > ${JSON.stringify(dir.path('where.txt'))}`);
    try {
      const d = await engine.run('PreToolUse', bash('ls', { cwd: gone }));
      expect(readFileSync(dir.path('where.txt'), 'utf8').trim()).toBe(dir.root);
      expect(d.warnings.join('\n')).toContain(
        `the working directory ${gone} does not exist; hooks run in the project directory ${dir.root}`,
      );
      expect(d.blocked).toBe(false);
    } finally {
      await engine.close();
    }
  });

  it('a hook the engine cannot start (no directory at all) is denied whatever its failure policy', async () => {
    const gone = dir.path('gone');
    const engine = await engineWith('exit 0', { projectDir: gone, cwd: gone }, { failureBehavior: 'ignore' });
    try {
      const d = await engine.run('PreToolUse', bash('ls', { cwd: gone }));
      expect(d.blocked).toBe(true);
      expect(d.decision).toBe('deny');
      expect(d.reason).toContain('working directory does not exist');
    } finally {
      await engine.close();
    }
  });

  it("a hook's own failure (exit 127 from /bin/sh) keeps its failure policy: ignored, the call proceeds", async () => {
    const engine = await engineWith('no-such-program-agent-hooks-test');
    try {
      const d = await engine.run('PreToolUse', bash('ls'));
      expect(d.blocked).toBe(false);
      expect(d.hooks[0]?.exitCode).toBe(127);
    } finally {
      await engine.close();
    }
  });
});

describe('the input a hook judges is given whole', () => {
  it('a command longer than the stdin cap reaches the hook whole', async () => {
    const long = `echo ${'A'.repeat(20_000)} ; rm -rf build`;
    const engine = await engineWith(`cat > ${JSON.stringify(dir.path('stdin.json'))}`, { stdinLimitBytes: 4_096 });
    try {
      const d = await engine.run('PreToolUse', bash(long));
      expect(JSON.parse(readFileSync(dir.path('stdin.json'), 'utf8')).tool_input.command).toBe(long);
      expect(d.hooks[0]?.stdinTruncated).toBe(false);
    } finally {
      await engine.close();
    }
  });
});

describe('an input of the wrong type', () => {
  it('harmless fields are coerced, with a note: the hook runs and sees the coerced values', async () => {
    const engine = await engineWith(`cat > ${JSON.stringify(dir.path('stdin.json'))}; exit 2`);
    try {
      const d = await engine.run('PreToolUse', bash('ls', { tool_use_id: 7, transcript_path: null }));
      expect(d.blocked).toBe(true);
      const seen = JSON.parse(readFileSync(dir.path('stdin.json'), 'utf8'));
      expect(seen.tool_use_id).toBe('7');
      expect(seen.transcript_path).toBe('');
      expect(d.warnings).toContain('tool_use_id was the number 7; read as the string "7"');
      expect(d.warnings).toContain('transcript_path was null; read as "" (no transcript)');
    } finally {
      await engine.close();
    }
  });

  it("invalidInput 'deny': a PreToolUse that cannot be validated is denied with the reason, no hook run", async () => {
    const engine = await engineWith(`touch ${JSON.stringify(dir.path('ran'))}`, { invalidInput: 'deny' });
    try {
      const d = await engine.run('PreToolUse', bash('ls', { tool_use_id: { not: 'an id' } }));
      expect(d.blocked).toBe(true);
      expect(d.decision).toBe('deny');
      expect(d.reason).toMatch(/^invalid PreToolUse input: tool_use_id: .*so it is denied$/);
      expect(d.hooks).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it('by default (a library host) the same input is an InvalidHookInputError to handle', async () => {
    const engine = await engineWith('exit 0');
    try {
      await expect(engine.run('PreToolUse', bash('ls', { tool_use_id: { not: 'an id' } }))).rejects.toThrow(InvalidHookInputError);
    } finally {
      await engine.close();
    }
  });
});
