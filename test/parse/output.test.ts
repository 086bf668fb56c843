import { describe, expect, it } from 'vitest';
import { parseExecution, parseJsonObject } from '../../src/parse/output.js';
// parseExecution is synchronous: the package entries fill the schema slot, a direct import must too.
import '../../src/entry/zod-schemas.js';
import type { ExecutionResult } from '../../src/types.js';

const res = (over: Partial<ExecutionResult> = {}): ExecutionResult => ({
  status: 'completed',
  exitCode: 0,
  stdout: '',
  stderr: '',
  stdoutTruncated: false,
  stderrTruncated: false,
  stdinTruncated: false,
  durationMs: 1,
  ...over,
});

const pre = (decision: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, ...extra } });

describe('parseJsonObject: JSON only when the whole trimmed stdout is one object', () => {
  it('accepts one object with surrounding whitespace', () => {
    expect(parseJsonObject('  \n{"a":1}\n ')).toEqual({ a: 1 });
  });
  it.each([
    ['log line then JSON', 'starting\n{"a":1}'],
    ['JSON then log line', '{"a":1}\ndone'],
    ['array', '[1,2]'],
    ['string', '"x"'],
    ['number', '42'],
    ['broken', '{"a":'],
    ['two objects', '{"a":1}{"b":2}'],
    ['empty', ''],
  ])('rejects %s', (_name, text) => {
    expect(parseJsonObject(text)).toBeUndefined();
  });
});

describe('parseExecution: exit codes', () => {
  it('exit 0 with no output is a success without a verdict', () => {
    const p = parseExecution('PreToolUse', res());
    expect(p.outcome).toBe('success');
    expect(p.verdict).toBeUndefined();
  });

  it('exit 2 blocks a PreToolUse with stderr as the reason', () => {
    const p = parseExecution('PreToolUse', res({ exitCode: 2, stderr: 'no rm please\n' }));
    expect(p.outcome).toBe('blocking');
    expect(p.verdict).toBe('deny');
    expect(p.reason).toBe('no rm please');
  });

  it('exit 2 cannot be undone by JSON allow on stdout', () => {
    const p = parseExecution('PreToolUse', res({ exitCode: 2, stdout: pre('allow'), stderr: 'blocked' }));
    expect(p.verdict).toBe('deny');
    expect(p.reason).toBe('blocked');
  });

  it('exit 2 with a JSON deny uses the JSON reason', () => {
    const p = parseExecution(
      'PreToolUse',
      res({ exitCode: 2, stdout: pre('deny', { permissionDecisionReason: 'json reason' }), stderr: 'err' }),
    );
    expect(p.reason).toBe('json reason');
  });

  it('exit 2 with invalid JSON still blocks with stderr', () => {
    const p = parseExecution('PreToolUse', res({ exitCode: 2, stdout: pre('maybe'), stderr: 'from stderr' }));
    expect(p.verdict).toBe('deny');
    expect(p.reason).toBe('from stderr');
  });

  it('exit 2 on PostToolUse is feedback for the model, not a block of the action', () => {
    const p = parseExecution('PostToolUse', res({ exitCode: 2, stderr: 'lint failed' }));
    expect(p.verdict).toBe('block');
    expect(p.reason).toBe('lint failed');
    expect(p.outcome).toBe('success');
  });

  it('exit 2 on PermissionRequest is ignored', () => {
    const p = parseExecution('PermissionRequest', res({ exitCode: 2, stderr: 'nope' }));
    expect(p.verdict).toBeUndefined();
    expect(p.outcome).toBe('success');
  });

  it('exit 2 on SessionStart shows stderr to the user only', () => {
    const p = parseExecution('SessionStart', res({ exitCode: 2, stderr: 'warming up failed' }));
    expect(p.verdict).toBeUndefined();
    expect(p.userMessage).toBe('warming up failed');
  });

  it('exit 1 without JSON is a non-blocking error naming the status and stderr', () => {
    const p = parseExecution('PreToolUse', res({ exitCode: 1, stderr: 'boom\nmore' }));
    expect(p.outcome).toBe('non_blocking_error');
    expect(p.message).toContain('status code 1: boom');
  });

  it('exit 1 with a valid JSON object lets the JSON decide', () => {
    const p = parseExecution('PreToolUse', res({ exitCode: 1, stdout: pre('deny', { permissionDecisionReason: 'r' }) }));
    expect(p.outcome).toBe('success');
    expect(p.verdict).toBe('deny');
  });

  it('death by signal without output is a non-blocking error', () => {
    const p = parseExecution('PreToolUse', res({ exitCode: null, signal: 'SIGKILL' }));
    expect(p.outcome).toBe('non_blocking_error');
    expect(p.message).toContain('SIGKILL');
  });

  it('timeouts and spawn errors keep their own outcome', () => {
    expect(parseExecution('PreToolUse', res({ status: 'timeout', exitCode: null })).outcome).toBe('timeout');
    expect(parseExecution('PreToolUse', res({ status: 'error', exitCode: null, error: 'ENOENT' })).outcome).toBe('error');
  });
});

describe('parseExecution: JSON output', () => {
  it('reads permissionDecision, reason, updatedInput and additionalContext', () => {
    const p = parseExecution(
      'PreToolUse',
      res({ stdout: pre('allow', { permissionDecisionReason: 'ok', updatedInput: { command: 'ls -la' }, additionalContext: 'ctx' }) }),
    );
    expect(p).toMatchObject({ verdict: 'allow', reason: 'ok', updatedInput: { command: 'ls -la' }, additionalContext: 'ctx' });
  });

  it('maps the deprecated decision approve/block to allow/deny', () => {
    expect(parseExecution('PreToolUse', res({ stdout: '{"decision":"approve","reason":"fine"}' })).verdict).toBe('allow');
    const p = parseExecution('PreToolUse', res({ stdout: '{"decision":"block","reason":"bad"}' }));
    expect(p.verdict).toBe('deny');
    expect(p.reason).toBe('bad');
  });

  it('a schema-invalid object is a non-blocking error with the field path', () => {
    const p = parseExecution('PreToolUse', res({ stdout: pre('perhaps') }));
    expect(p.outcome).toBe('non_blocking_error');
    expect(p.message).toContain('permissionDecision');
  });

  it('a hookEventName for another event is invalid', () => {
    const p = parseExecution(
      'PreToolUse',
      res({ stdout: '{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny"}}' }),
    );
    expect(p.outcome).toBe('non_blocking_error');
    expect(p.message).toContain('hookEventName');
  });

  it('JSON mixed with log lines is plain text (logged, no decision)', () => {
    const p = parseExecution('PreToolUse', res({ stdout: `checking…\n${pre('deny')}` }));
    expect(p.verdict).toBeUndefined();
    expect(p.log).toContain('checking');
  });

  it('plain stdout is context for UserPromptSubmit and SessionStart', () => {
    expect(parseExecution('UserPromptSubmit', res({ stdout: 'branch: main\n' })).additionalContext).toBe('branch: main');
    expect(parseExecution('SessionStart', res({ stdout: 'hello' })).additionalContext).toBe('hello');
    expect(parseExecution('PostToolUse', res({ stdout: 'hello' })).additionalContext).toBeUndefined();
  });

  it('continue:false with stopReason and systemMessage', () => {
    const p = parseExecution('PostToolUse', res({ stdout: '{"continue":false,"stopReason":"build broke","systemMessage":"heads up"}' }));
    expect(p).toMatchObject({ continue: false, stopReason: 'build broke', systemMessage: 'heads up' });
  });

  it('PostToolUse block, updatedToolOutput and updatedMCPToolOutput', () => {
    const p = parseExecution(
      'PostToolUse',
      res({
        stdout: JSON.stringify({
          decision: 'block',
          reason: 'fix lint',
          hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { ok: 1 } },
        }),
      }),
    );
    expect(p).toMatchObject({ verdict: 'block', reason: 'fix lint', updatedOutput: { ok: 1 } });
    const m = parseExecution(
      'PostToolUse',
      res({ stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'redacted' } }) }),
    );
    expect(m.updatedOutput).toBe('redacted');
  });

  it('PermissionRequest decision.behavior with updatedInput, and deny with message', () => {
    const allow = parseExecution(
      'PermissionRequest',
      res({
        stdout: JSON.stringify({
          hookSpecificOutput: {
            hookEventName: 'PermissionRequest',
            decision: { behavior: 'allow', updatedInput: { command: 'npm run lint' } },
          },
        }),
      }),
    );
    expect(allow).toMatchObject({ verdict: 'allow', updatedInput: { command: 'npm run lint' } });
    const deny = parseExecution(
      'PermissionRequest',
      res({
        stdout: JSON.stringify({
          hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no', interrupt: true } },
        }),
      }),
    );
    expect(deny).toMatchObject({ verdict: 'deny', reason: 'no', specific: { interrupt: true } });
  });

  it('Stop decision block is a block verdict', () => {
    const p = parseExecution('Stop', res({ stdout: '{"decision":"block","reason":"tests are failing"}' }));
    expect(p).toMatchObject({ verdict: 'block', reason: 'tests are failing' });
  });

  it('caps output strings at 10,000 characters and keeps the full text in a file', async () => {
    const big = 'x'.repeat(25_000);
    const p = parseExecution('UserPromptSubmit', res({ stdout: big }));
    expect(p.additionalContext!.length).toBeLessThan(10_000);
    const path = /saved to (\S+)\]/.exec(p.additionalContext!)?.[1];
    expect(path).toBeDefined();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path!, 'utf8')).toBe(big);
  });

  it('__proto__ in updatedInput does not pollute prototypes', () => {
    const stdout =
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"command":"ls"}}}';
    const p = parseExecution('PreToolUse', res({ stdout }));
    expect(p.updatedInput!.command).toBe('ls');
    expect(Object.hasOwn(p.updatedInput!, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(p.updatedInput)).toBe(Object.prototype);
  });
});

describe('parseExecution: function hook values', () => {
  it('an object value is JSON output; a string value is stdout', () => {
    expect(
      parseExecution('PreToolUse', res({ value: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' } } }))
        .verdict,
    ).toBe('ask');
    expect(parseExecution('UserPromptSubmit', res({ value: 'some context' })).additionalContext).toBe('some context');
  });
});

describe('non-blocking error messages name the informative stderr line', () => {
  it('skips a Node location line before the error', () => {
    const stderr =
      "node:internal/modules/esm/resolve:322\n  throw new ERR_MODULE_NOT_FOUND(\n        ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find package 'nope'\n    at foo (file:///x.mjs:1:1)";
    const p = parseExecution('PreToolUse', res({ exitCode: 1, stderr }));
    expect(p.message).toContain("Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'nope'");
    const r = parseExecution('PreToolUse', res({ exitCode: 1, stderr: 'node:internal/x:1\nsomething odd happened' }));
    expect(r.message).toContain('something odd happened');
    const q = parseExecution('PreToolUse', res({ exitCode: 1, stderr: 'plain failure\nmore' }));
    expect(q.message).toContain('plain failure');
  });
});

describe('WorktreeCreate path output', () => {
  it('takes the last non-empty stdout line with terminal escapes removed', () => {
    const p = parseExecution(
      'WorktreeCreate',
      res({ stdout: 'Preparing worktree (new branch)\nHEAD is now at 1a2b3c\n\u001b[32m/tmp/wt/agent-1\u001b[0m\n\n' }),
    );
    expect(p.specific.worktreePath).toBe('/tmp/wt/agent-1');
  });
  it('any non-zero exit fails creation whatever stdout says', () => {
    const p = parseExecution('WorktreeCreate', res({ exitCode: 1, stdout: '/tmp/wt/x', stderr: 'no space' }));
    expect(p).toMatchObject({ outcome: 'blocking', verdict: 'block', reason: 'no space' });
  });
});

describe('a hook that declares itself async on its first stdout line (Claude Code 2.1)', () => {
  const declared = (...lines: string[]) => res({ stdout: ['{"async":true,"asyncTimeout":15000}', ...lines].join('\n') });

  it('the JSON after the declaration is the answer: its context and systemMessage reach the model as context', () => {
    const later = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'late json' },
      systemMessage: 'late note',
    });
    const p = parseExecution('SessionStart', declared(later));
    expect([p.outcome, p.additionalContext, p.systemMessage]).toEqual(['success', 'late json\nlate note', undefined]);
  });

  it('plain text after it, and the declaration itself, are no context; decisions are not applied', () => {
    expect(parseExecution('SessionStart', declared('late plain')).additionalContext).toBeUndefined();
    expect(parseExecution('SessionStart', declared()).additionalContext).toBeUndefined();
    const deny = parseExecution('PreToolUse', declared(pre('deny')));
    expect([deny.verdict, deny.additionalContext]).toEqual([undefined, undefined]);
  });

  it('an exit 2 after the declaration blocks nothing, and the context printed before it still counts', () => {
    const later = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'late' } });
    const p = parseExecution('PreToolUse', res({ exitCode: 2, stdout: `{"async":true}\n${later}`, stderr: 'no' }));
    expect([p.outcome, p.verdict, p.additionalContext]).toEqual(['success', undefined, 'late']);
  });

  it('a first line that is not the declaration is read as before', () => {
    const p = parseExecution('SessionStart', res({ stdout: '{"async":false}\nctx' }));
    expect(p.additionalContext).toBe('{"async":false}\nctx');
  });
});
