/**
 * Adversarial inputs against `if` conditions: a command the model writes is attacker-shaped
 * data, and matching it must stay linear in its length.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCommandPattern, matchRule, parseRule } from '../../src/matching/index.js';

/** The RegExp the wildcard form used to compile to (polynomial backtracking); the reference for short strings. */
function referenceRegex(pattern: string): RegExp {
  const pieces: string[] = [''];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && pattern[i + 1] === '*') {
      pieces[pieces.length - 1] += '*';
      i++;
    } else if (ch === '*') pieces.push('');
    else pieces[pieces.length - 1] += ch;
  }
  const escaped = pieces.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  let body = escaped.join('[\\s\\S]*');
  if (pieces.length === 2 && pieces[1] === '' && pieces[0]!.endsWith(' ')) body = `${escaped[0]!.slice(0, -1)}(?: [\\s\\S]*)?`;
  return new RegExp(`^${body}$`);
}

describe('wildcard `if` patterns', () => {
  // Regression: `*rm *-r*f*` compiled to a backtracking RegExp; a 180 KB command of repeated
  // "rm -r " took minutes (a 1,500-character one, 15 s), stalling every event behind it.
  it.each([
    ['Bash(*rm *-r*f*)', 'rm -r '.repeat(30_000)],
    ['Bash(*a*a*a*a*b)', 'a'.repeat(200_000)],
    ['Bash(git * --force *)', `git ${' --forc'.repeat(30_000)}`],
    ['WebFetch(domain:*a*a*a*b)', `https://${'a'.repeat(200_000)}.test/`],
  ])(
    '%s against a long adversarial command returns (no backtracking blow-up)',
    (rule, text) => {
      const parsed = parseRule(rule);
      if (!parsed.ok) throw new Error(parsed.error);
      const tool = rule.slice(0, rule.indexOf('('));
      const input = tool === 'Bash' ? { command: text } : { url: text };
      expect(matchRule(parsed.rule, tool, input, { cwd: '/' })).toBe(false);
    },
    20_000,
  );

  it('the linear matcher agrees with the RegExp it replaced', () => {
    const alphabet = fc.constantFrom('a', 'b', ' ', '*', '\\', '-', '\n', '.', '(', ')');
    fc.assert(
      fc.property(
        fc.string({ unit: alphabet, minLength: 1, maxLength: 8 }),
        fc.string({ unit: alphabet, maxLength: 12 }),
        (pattern, text) => {
          fc.pre(!pattern.endsWith(':*') && /(?<!\\)\*/.test(pattern.replace(/\\\*/g, '')));
          expect(compileCommandPattern(pattern).test(text)).toBe(referenceRegex(pattern).test(text));
        },
      ),
      { numRuns: 20_000 },
    );
  });
});
