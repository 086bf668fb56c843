import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compare, matchText, parseTextMatcher, type Actual } from '../../src/toolkit/expect.js';
import { mergeExpectation, snapshotExpectation } from '../../src/toolkit/update.js';

function actual(json: Record<string, unknown>, extra: Partial<Actual> = {}): Actual {
  return {
    json: { event: 'PreToolUse', blocked: false, additionalContext: [], systemMessages: [], continue: true, hooks: [], ...json },
    durationMs: 10,
    warnings: [],
    ...extra,
  };
}

describe('text matchers', () => {
  it('a plain string is a substring, /…/flags a regular expression', () => {
    expect(matchText('rm', 'no rm here')).toBe(true);
    expect(matchText('RM', 'no rm here')).toBe(false);
    expect(matchText('/^no RM/i', 'no rm here')).toBe(true);
    expect(matchText('/^rm/', 'no rm here')).toBe(false);
    expect(matchText('x', undefined)).toBe(false);
    expect(matchText('', 'anything')).toBe(true);
  });

  it('g and y flags do not make matching stateful', () => {
    const m = parseTextMatcher('/a/g');
    expect(m.kind).toBe('regex');
    expect(matchText('/a/g', 'a')).toBe(true);
    expect(matchText('/a/g', 'a')).toBe(true);
  });

  it('a substring never throws and always matches its own text (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (pre, mid, post) => {
        if (/^\/.+\/[dgimsuvy]*$/s.test(mid)) return; // that is the regex form
        expect(matchText(mid, pre + mid + post)).toBe(true);
      }),
    );
  });
});

describe('compare', () => {
  it('passes on matching fields, with null meaning "absent"', () => {
    const a = actual({ decision: 'deny', reason: 'no rm here', blocked: true });
    expect(compare({ blocked: true, decision: 'deny', reason: 'rm', updatedInput: null, stopReason: null, continue: true }, a)).toEqual([]);
    expect(compare({ decision: null }, actual({}))).toEqual([]);
  });

  it('reports each mismatch with its path, expected and actual', () => {
    const a = actual({ decision: 'allow', reason: 'fine', blocked: false });
    expect(compare({ blocked: true, decision: 'deny', reason: '/^no/' }, a)).toEqual([
      { path: 'blocked', expected: 'true', actual: 'false' },
      { path: 'decision', expected: '"deny"', actual: '"allow"' },
      { path: 'reason', expected: 'a string matching /^no/', actual: '"fine"' },
    ]);
    expect(compare({ decision: null, reason: null }, a)).toEqual([
      { path: 'decision', expected: '(no decision)', actual: '"allow"' },
      { path: 'reason', expected: '(absent)', actual: '"fine"' },
    ]);
  });

  it('updatedInput is exact, diffed path by path', () => {
    const a = actual({ updatedInput: { command: 'ls -la', opts: { a: [1, 2] } } });
    expect(compare({ updatedInput: { command: 'ls -l', opts: { a: [1, 3] }, extra: true } }, a)).toEqual([
      { path: 'updatedInput.command', expected: '"ls -l"', actual: '"ls -la"' },
      { path: 'updatedInput.opts.a[1]', expected: '3', actual: '2' },
      { path: 'updatedInput.extra', expected: 'true', actual: '(absent)' },
    ]);
    expect(compare({ updatedInput: null }, a)).toEqual([
      { path: 'updatedInput', expected: '(absent)', actual: '{"command":"ls -la","opts":{"a":[1,2]}}' },
    ]);
  });

  it('lists: each matcher must match some entry; [] means none', () => {
    const a = actual({ additionalContext: ['first line', 'Second'] });
    expect(compare({ additionalContext: 'first' }, a)).toEqual([]);
    expect(compare({ additionalContext: ['/^Sec/', 'line'] }, a)).toEqual([]);
    expect(compare({ additionalContext: ['line', 'third'] }, a)).toEqual([
      { path: 'additionalContext[1]', expected: 'an entry containing "third"', actual: '["first line","Second"]' },
    ]);
    expect(compare({ additionalContext: [] }, a)).toEqual([
      { path: 'additionalContext', expected: 'none', actual: '["first line","Second"]' },
    ]);
    expect(compare({ systemMessages: 'x' }, a)).toEqual([{ path: 'systemMessages', expected: 'an entry containing "x"', actual: 'none' }]);
    expect(compare({ warnings: [] }, actual({}, { warnings: ['w'] }))).toEqual([{ path: 'warnings', expected: 'none', actual: '["w"]' }]);
  });

  it('eventOutput: listed keys only, each exact', () => {
    const a = actual({ eventOutput: { sessionTitle: 't', env: { A: '1' } } });
    expect(compare({ eventOutput: { env: { A: '1' } } }, a)).toEqual([]);
    expect(compare({ eventOutput: { env: { A: '2' }, retry: true } }, a)).toEqual([
      { path: 'eventOutput.env.A', expected: '"2"', actual: '"1"' },
      { path: 'eventOutput.retry', expected: 'true', actual: '(absent)' },
    ]);
  });

  it('hooks: one entry per executed hook, listed fields only', () => {
    const a = actual({
      hooks: [
        { id: 'cli:/s.json#hooks.Stop[0].hooks[0]', type: 'command', outcome: 'blocking', decision: 'deny', exitCode: 2, reason: 'r' },
      ],
    });
    expect(compare({ hooks: [{ outcome: 'blocking', exitCode: 2, id: 'hooks.Stop[0]', type: 'command' }] }, a)).toEqual([]);
    expect(compare({ hooks: [{ outcome: 'success', decision: null, exitCode: 0, error: 'x' }] }, a)).toEqual([
      { path: 'hooks[0].outcome', expected: '"success"', actual: '"blocking"' },
      { path: 'hooks[0].decision', expected: '(no decision)', actual: '"deny"' },
      { path: 'hooks[0].exitCode', expected: '0', actual: '2' },
      { path: 'hooks[0].error', expected: 'a string containing "x"', actual: '(absent)' },
    ]);
    expect(compare({ hooks: [] }, a)).toEqual([{ path: 'hooks', expected: '0 executed hook(s)', actual: '1: blocking/deny' }]);
  });

  it('maxDurationMs bounds the case', () => {
    expect(compare({ maxDurationMs: 100 }, actual({}, { durationMs: 50 }))).toEqual([]);
    expect(compare({ maxDurationMs: 100 }, actual({}, { durationMs: 150.4 }))).toEqual([
      { path: 'maxDurationMs', expected: 'at most 100 ms', actual: '150 ms' },
    ]);
  });
});

describe('--update: snapshot and merge', () => {
  const a = actual({
    blocked: true,
    decision: 'deny',
    reason: 'Destructive: rm -rf /',
    additionalContext: ['ctx'],
    hooks: [{ outcome: 'success', decision: 'deny', durationMs: 3 }],
  });

  it('records the stable fields', () => {
    expect(snapshotExpectation(a)).toEqual({
      blocked: true,
      decision: 'deny',
      reason: 'Destructive: rm -rf /',
      additionalContext: ['ctx'],
      hooks: [{ outcome: 'success', decision: 'deny' }],
    });
    expect(snapshotExpectation(actual({ continue: false, stopReason: 's', eventOutput: { x: 1 }, updatedInput: { a: 1 } }))).toEqual({
      blocked: false,
      decision: null,
      updatedInput: { a: 1 },
      continue: false,
      stopReason: 's',
      eventOutput: { x: 1 },
      hooks: [],
    });
  });

  it('keeps passing expectations as written, replaces failing ones, keeps the duration budget', () => {
    const merged = mergeExpectation({ reason: '/rm -rf/', decision: 'allow', warnings: ['gone'], maxDurationMs: 1 }, a);
    expect(merged).toEqual({
      reason: '/rm -rf/',
      decision: 'deny',
      maxDurationMs: 1,
      blocked: true,
      additionalContext: ['ctx'],
      hooks: [{ outcome: 'success', decision: 'deny' }],
    });
    // The merged expectation passes (apart from the budget, which is never rewritten).
    expect(compare(merged, a).map((m) => m.path)).toEqual(['maxDurationMs']);
  });
});
