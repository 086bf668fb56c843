/**
 * Linear-time matching: regex matchers and `if` globs cannot stall the engine, whatever the
 * pattern and the value, and keep the semantics they had on JavaScript's engine.
 * These tests would hang (and time out) on a backtracking engine.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { compileMatcher } from '../../src/matching/index.js';
import { compileMatcherFor } from '../../src/matching/modes.js';
import { compilePathPattern, globMatcher } from '../../src/matching/file-pattern.js';
import { lintHooks } from '../../src/lint/hooks.js';
import type { NormalizedHook } from '../../src/types.js';

describe('regex matchers on the linear-time engine', () => {
  it('`(a+)+$` against a 40-character value answers (no exponential backtracking)', () => {
    const m = compileMatcher('(a+)+$', 'standard');
    expect(m.kind).toBe('regex');
    expect(m.linear).toBeDefined();
    expect(m.test(`${'a'.repeat(40)}!`)).toBe(false);
    expect(m.test('a'.repeat(40))).toBe(true);
  });

  it('dialect regex modes use it too (Kimi regex, Codex anchored)', () => {
    expect(compileMatcherFor('(a+)+$', 'regex').test(`${'a'.repeat(40)}!`)).toBe(false);
    const anchored = compileMatcherFor('(a|aa)+', 'regex-anchored');
    expect(anchored.test(`${'a'.repeat(60)}b`)).toBe(false);
    expect(anchored.test('aaaa')).toBe(true);
  });

  it('keeps JavaScript syntax that RE2 spells differently (named groups, \\u escapes, \\/)', () => {
    expect(compileMatcher('(?<srv>mcp__\\w+)__write', 'standard').test('mcp__fs__write')).toBe(true);
    expect(compileMatcher('\\u0042ash', 'standard').test('Bash')).toBe(true);
    expect(compileMatcher('a\\/b', 'standard').test('xa/by')).toBe(true);
    expect(compileMatcher('mcp__.*', 'standard').test('Bash')).toBe(false);
  });

  it('agrees with JavaScript RegExp on generated patterns and values', () => {
    const atom = fc.constantFrom('a', 'b', '.', '\\w', '[ab]', '(a|b)', '^', '$', 'x');
    const quant = fc.constantFrom('', '*', '+', '?', '{1,2}');
    const pattern = fc
      .array(fc.tuple(atom, quant), { minLength: 1, maxLength: 6 })
      .map((parts) => parts.map(([a, q]) => (a === '^' || a === '$' ? a : a + q)).join(''));
    fc.assert(
      fc.property(pattern, fc.string({ unit: fc.constantFrom('a', 'b', 'x', '_'), maxLength: 12 }), (p, v) => {
        let js: RegExp;
        try {
          js = new RegExp(p);
        } catch {
          return;
        }
        // Only regex-kind patterns (the exact-name set takes words like "ab").
        const m = compileMatcher(p, 'standard');
        if (m.kind !== 'regex') return;
        expect(m.test(v)).toBe(js.test(v));
      }),
      { numRuns: 400 },
    );
  });
});

describe('patterns RE2 cannot express', () => {
  it('lookaround is refused, even without nested quantifiers: nothing runs on a backtracking engine', () => {
    // `^(?=mcp__)mcp__(a|a)*$` passed the old "few repetitions" check and took minutes on 36 characters.
    for (const p of ['^(?!Read).*', '^(?=mcp__)mcp__(a|a)*$', '(?<=x)y']) {
      const m = compileMatcher(p, 'standard');
      expect(m.refused, p).toMatch(/cannot be matched in bounded time/);
      const started = Date.now();
      expect(m.test(`mcp__${'a'.repeat(30)}!`)).toBe(true);
      expect(Date.now() - started).toBeLessThan(100);
    }
  });

  it('a backreference with nested quantifiers is refused: planned for every value, reported as an error', () => {
    const m = compileMatcher('((a+)+)\\1$', 'standard');
    expect(m.kind).toBe('regex');
    expect(m.refused).toMatch(/cannot be matched in bounded time/);
    // Never silently skipped: a guard that never matched would fail open.
    expect(m.test(`${'a'.repeat(40)}!`)).toBe(true);
    const hook: NormalizedHook = {
      id: 'h',
      event: 'PreToolUse',
      matcher: '((a+)+)\\1$',
      handler: { type: 'command', command: 'true' },
      source: { kind: 'cli', path: 'hooks.PreToolUse[0]' },
      dedupKey: 'k',
    };
    const diags = lintHooks([hook], ['command']);
    expect(diags).toEqual([
      expect.objectContaining({
        level: 'error',
        message: expect.stringMatching(/on an event that can block it denies \(fails closed\), elsewhere its failure policy applies/),
      }),
    ]);
  });

  it('check no longer warns about nested quantifiers the linear engine runs safely', () => {
    const hook: NormalizedHook = {
      id: 'h',
      event: 'PreToolUse',
      matcher: '(a+)+$',
      handler: { type: 'command', command: 'true' },
      source: { kind: 'cli', path: 'hooks.PreToolUse[0]' },
      dedupKey: 'k',
    };
    expect(lintHooks([hook], ['command'])).toEqual([]);
  });
});

describe('if globs on the linear-time engine', () => {
  it('`**/*a*a*b` on a 4 KB path answers', () => {
    const r = compilePathPattern('**/*a*a*b');
    if (!r.ok) throw new Error(r.error);
    expect(r.pattern.testFile(`/w/${'a'.repeat(4096)}`, { cwd: '/w' })).toBe(false);
    expect(r.pattern.testFile(`/w/x/${'a'.repeat(4096)}b`, { cwd: '/w' })).toBe(true);
  });

  it('agrees with picomatch on normalized paths (generated globs)', () => {
    const options = { dot: true, windows: false, nonegate: true } as const;
    const piece = fc.constantFrom('a', 'b', '.', '*', '**', '?', '/', '{a,b}', '[ab]', '.x', '*a*');
    const glob = fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => p.join(''));
    const segment = fc.constantFrom('a', 'b', 'ab', 'ba', '.x', 'a.b', 'aab', '.a', 'b.x');
    const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((p) => p.join('/'));
    fc.assert(
      fc.property(glob, path, (g, p) => {
        let reference: (s: string) => boolean;
        try {
          reference = picomatch(g, options);
        } catch {
          return;
        }
        expect(globMatcher(g, options)(p)).toBe(reference(p));
        expect(globMatcher(g, { ...options, nocase: true })(p.toUpperCase())).toBe(
          picomatch(g, { ...options, nocase: true })(p.toUpperCase()),
        );
      }),
      { numRuns: 600 },
    );
  });

  it('an extglob negation (needs lookahead) is refused as unbounded, never matched by picomatch', () => {
    const options = { dot: true, windows: false, nonegate: true } as const;
    expect(() => globMatcher('!(x)', options)).toThrow(/cannot be matched in bounded time/);
    const r = compilePathPattern('**/*!(a)*!(a)*.md');
    expect(r).toMatchObject({ ok: false, unbounded: true, error: expect.stringMatching(/bounded time/) });
  });
});
