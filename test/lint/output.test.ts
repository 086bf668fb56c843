import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createHookEngine } from '../../src/engine/engine.js';
import { catalog, EVENT_NAMES } from '../../src/events/catalog.js';
import { outputFields } from '../../src/events/honoured.js';
import { strictOutputSchema } from '../../src/events/strict-output.js';
import type { EventSpec } from '../../src/events/spec.js';
import { lintOutput } from '../../src/lint/output.js';
import { parseExecution } from '../../src/parse/output.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

describe('lintOutput', () => {
  it('names a misspelled hookSpecificOutput field and the nearest valid one', () => {
    expect(lintOutput('PreToolUse', { hookSpecificOutput: { hookEventName: 'PreToolUse', permisionDecision: 'deny' } })).toEqual([
      'hookSpecificOutput.permisionDecision: unknown field (did you mean "permissionDecision"?)',
    ]);
  });

  it('names misspelled top-level fields', () => {
    expect(lintOutput('Stop', { decison: 'block', contine: false })).toEqual([
      'decison: unknown field (did you mean "decision"?)',
      'contine: unknown field (did you mean "continue"?)',
    ]);
  });

  it('points a top-level event field into hookSpecificOutput', () => {
    expect(lintOutput('PreToolUse', { permissionDecision: 'deny' })).toEqual([
      'permissionDecision: belongs inside hookSpecificOutput, not at the top level',
    ]);
    expect(lintOutput('PreToolUse', { permisionDecision: 'deny' })).toEqual([
      'permisionDecision: unknown field (did you mean "hookSpecificOutput.permissionDecision"?)',
    ]);
  });

  it('reports fields the event does not honour', () => {
    expect(lintOutput('Notification', { continue: false, systemMessage: 'x', terminalSequence: '\u0007' })).toEqual([
      'continue: not honoured by Notification',
      'systemMessage: not honoured by Notification',
    ]);
    expect(lintOutput('SessionStart', { decision: 'block', reason: 'r' })).toEqual([
      'decision: not honoured by SessionStart',
      'reason: SessionStart reads no top-level decision or reason',
    ]);
    expect(lintOutput('Notification', { hookSpecificOutput: { hookEventName: 'Notification' } })).toEqual([
      'hookSpecificOutput: Notification reads no hookSpecificOutput',
    ]);
    expect(lintOutput('PermissionRequest', { decision: 'block' })).toEqual([
      'decision: PermissionRequest reads no top-level decision (did you mean "hookSpecificOutput.decision"?)',
    ]);
  });

  it("names the owner of another event's field", () => {
    expect(lintOutput('PostToolUse', { hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } })).toEqual([
      'hookSpecificOutput.permissionDecision: not honoured by PostToolUse (a field of PreToolUse)',
    ]);
    expect(lintOutput('PostToolUse', { hookSpecificOutput: { systemMessage: 'x' } })).toEqual([
      'hookSpecificOutput.systemMessage: belongs at the top level, not inside hookSpecificOutput',
    ]);
  });

  it('looks one level into object fields (PermissionRequest decision)', () => {
    expect(
      lintOutput('PermissionRequest', { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behaviour: 'allow' } } }),
    ).toEqual(['hookSpecificOutput.decision.behaviour: unknown field (did you mean "behavior"?)']);
  });

  it('an unknown field with nothing near is reported plainly', () => {
    expect(lintOutput('Stop', { zzzzzzzz: 1 })).toEqual(['zzzzzzzz: unknown field']);
  });

  it.each(EVENT_NAMES)('%s: an output with every honoured field is clean', (event) => {
    const fields = outputFields(event);
    const out: Record<string, unknown> = {};
    for (const k of fields.top)
      out[k] =
        k === 'hookSpecificOutput' ? Object.fromEntries([...fields.specific].map((s) => [s, s === 'hookEventName' ? event : 'x'])) : 'x';
    expect(lintOutput(event, out)).toEqual([]);
    // The honoured fields are what the strict SDK schema accepts.
    expect(Object.keys((strictOutputSchema(event) as unknown as { shape: object }).shape).sort()).toEqual([...fields.top].sort());
    const spec = catalog[event] as EventSpec;
    expect(fields.top.has('continue')).toBe(spec.universal);
  });
});

describe('output lint in the pipeline', () => {
  let dir: TempDir;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.cleanup());

  it('parse attaches lint only when something is wrong; behaviour is unchanged', () => {
    const base = {
      status: 'completed' as const,
      exitCode: 0,
      stderr: '',
      stdoutTruncated: false,
      stderrTruncated: false,
      stdinTruncated: false,
      durationMs: 1,
    };
    const clean = parseExecution('PreToolUse', {
      ...base,
      stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}',
    });
    expect(clean.lint).toBeUndefined();
    const typo = parseExecution('PreToolUse', {
      ...base,
      stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permisionDecisionReason":"x"}}',
    });
    expect(typo.verdict).toBe('deny');
    expect(typo.lint).toEqual(['hookSpecificOutput.permisionDecisionReason: unknown field (did you mean "permissionDecisionReason"?)']);
    const text = parseExecution('PreToolUse', { ...base, stdout: 'plain text' });
    expect(text.lint).toBeUndefined();
  });

  it('the engine surfaces lint as decision warnings, for command and function hooks', async () => {
    const engine = createHookEngine({
      projectDir: dir.root,
      hooks: [
        {
          id: 'cmd',
          event: 'Stop',
          handler: { type: 'command', command: `echo '{"decison":"block","reason":"x"}'` },
          source: { kind: 'cli', path: 'hooks.Stop[0].hooks[0]' },
          dedupKey: 'a',
        },
      ],
    });
    engine.register({ event: 'Stop', name: 'fn', fn: () => ({ continue: true, stopReson: 'x' }) });
    const d = await engine.run('Stop', { stop_hook_active: false });
    expect(d.blocked).toBe(false); // the misspelled decision does nothing, as before
    expect(d.warnings).toEqual([
      'hook cmd: ignored output field decison: unknown field (did you mean "decision"?)',
      'hook sdk:fn#0: ignored output field stopReson: unknown field (did you mean "stopReason"?)',
    ]);
    await engine.close();
  });

  it('`agent-hooks run` prints the warning', () => {
    const settings = dir.json('s.json', {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permisionDecision":"deny"}}'` },
            ],
          },
        ],
      },
    });
    const r = spawnSync(
      process.execPath,
      [CLI, 'run', 'PreToolUse', '--settings', settings, '--cwd', dir.root, '--tool', 'Bash', '--input', '{}'],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /warning: hook .*: ignored output field hookSpecificOutput\.permisionDecision: unknown field \(did you mean "permissionDecision"\?\)/,
    );
  });
});
