/**
 * A command hook that declares itself async on its first stdout line (Claude Code 2.1): the firing
 * stops waiting for it there, and its later result is followed as a configured async hook's is.
 * Each hook waits for a file the test creates only after engine.run() returned: a firing that
 * waited for the hook would see it give up instead (bounded loop), so the tests fail without it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { loadConfig } from '../../src/config/index.js';
import { createHookEngine, type HookEngineOptions } from '../../src/engine/engine.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

type AsyncResult = Parameters<NonNullable<HookEngineOptions['onAsyncResult']>>[0];

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

async function engineFor(hooks: Record<string, unknown>, results: AsyncResult[]) {
  const file = dir.json('settings.json', { hooks });
  const config = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [file] });
  expect(config.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
  return createHookEngine({ hooks: config.hooks, projectDir: dir.root, cwd: dir.root, onAsyncResult: (r) => results.push(r) });
}

const emit = (obj: unknown) => `printf '%s\\n' '${JSON.stringify(obj).replace(/'/g, `'\\''`)}'`;
/** Waits (at most ~10 s) for `go` in the hook's cwd; prints `then` if it came, `gave up` if not. */
const afterGo = (then: string) =>
  `i=0; while [ ! -e go ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; if [ -e go ]; then ${then}; else echo 'gave up'; fi`;
const bash = { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' };
const lateDeny = emit({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'deny',
    permissionDecisionReason: 'late',
    additionalContext: 'late ctx',
  },
  systemMessage: 'late note',
});

describe('a command hook that declares itself async on its first stdout line', () => {
  it('the firing goes on at the declaration; the later answer decides nothing and its context reaches onAsyncResult', async () => {
    const results: AsyncResult[] = [];
    const engine = await engineFor(
      {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: `echo '{"async":true,"asyncTimeout":1000}'; ${afterGo(lateDeny)}`, timeout: 30 }],
          },
        ],
      },
      results,
    );
    const d = await engine.run('PreToolUse', bash);
    expect(d).toMatchObject({ blocked: false, hooks: [] });
    writeFileSync(dir.path('go'), '');
    await engine.drain();
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      event: 'PreToolUse',
      additionalContext: 'late ctx\nlate note',
      record: { outcome: 'async:success', exitCode: 0 },
    });
    expect(results[0]!.record.decision).toBeUndefined();
    await engine.close();
  });

  it('a declaration without a newline is enough, and an exit 2 after it blocks nothing', async () => {
    const results: AsyncResult[] = [];
    const engine = await engineFor(
      {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: `printf '{"async":true}'; ${afterGo("echo 'no' >&2; exit 2")}`, timeout: 30 }],
          },
        ],
      },
      results,
    );
    const d = await engine.run('PreToolUse', bash);
    expect(d).toMatchObject({ blocked: false });
    writeFileSync(dir.path('go'), '');
    await engine.close();
    expect(results.map((r) => [r.record.outcome, r.record.exitCode, r.record.decision])).toEqual([['async:success', 2, undefined]]);
  });

  it('the next hook of a serial chain runs without waiting for it', async () => {
    const results: AsyncResult[] = [];
    const engine = await engineFor(
      {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: `echo '{"async":true}'; ${afterGo(emit({ systemMessage: 'first done' }))}`, timeout: 30 },
              { type: 'command', command: 'touch go' },
            ],
          },
        ],
      },
      results,
    );
    const d = await engine.run('PreToolUse', bash);
    expect(d.hooks).toHaveLength(1);
    await engine.close();
    expect(results.map((r) => r.additionalContext)).toEqual(['first done']);
  });

  it('a configured async hook that also declares itself is followed to its own end', async () => {
    const results: AsyncResult[] = [];
    const later = emit({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'tests passed' } });
    const engine = await engineFor(
      {
        PostToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: `echo '{"async":true}'; ${afterGo(later)}`, async: true, timeout: 30 }] },
        ],
      },
      results,
    );
    await engine.run('PostToolUse', { ...bash, tool_response: { stdout: '' } });
    writeFileSync(dir.path('go'), '');
    await engine.close();
    expect(results.map((r) => r.additionalContext)).toEqual(['tests passed']);
  });

  it('a first line that is JSON but no declaration is waited for as before', async () => {
    const results: AsyncResult[] = [];
    const engine = await engineFor(
      { SessionStart: [{ hooks: [{ type: 'command', command: `echo '{"async":false}'; echo more` }] }] },
      results,
    );
    const d = await engine.run('SessionStart', { source: 'startup' });
    expect(d.additionalContext).toEqual(['{"async":false}\nmore']);
    await engine.close();
    expect(results).toEqual([]);
  });
});
