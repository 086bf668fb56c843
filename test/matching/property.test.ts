import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { compileMatcher, parseRule, matchRule, extractToolPaths, type Rule } from '../../src/matching/index.js';

const TOOL_NAMES = [
  'Bash',
  'Edit',
  'Write',
  'MultiEdit',
  'NotebookEdit',
  'Read',
  'Glob',
  'Grep',
  'LS',
  'ApplyPatch',
  'apply_patch',
  'WebFetch',
  'WebSearch',
  'Agent',
  'Skill',
  'PowerShell',
  'mcp__s__t',
  'mcp__s',
  'Other',
];
const SHELLISH = [
  ...'$()`\'"|&;<>{}[]*?~!#=\\/ \n\t-_.:',
  'a',
  'b',
  'rm',
  'git',
  ' && ',
  '$(',
  '<<EOF\n',
  '*** Add File: ',
  '*** Move to: ',
  '..',
  '~/',
  '//',
  'C:\\',
];
const shellish = fc.string({ unit: fc.constantFrom(...SHELLISH), maxLength: 40 });
const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), shellish);
const ruleText = fc.oneof(
  anyText,
  fc.tuple(fc.constantFrom(...TOOL_NAMES), anyText).map(([t, p]) => `${t}(${p})`),
);
const toolInput = fc.oneof(
  fc.anything(),
  fc.record(
    {
      command: fc.oneof(anyText, fc.array(anyText)),
      file_path: anyText,
      notebook_path: anyText,
      path: anyText,
      patch: anyText,
      input: anyText,
      url: anyText,
      query: anyText,
      subagent_type: anyText,
    },
    { requiredKeys: [] },
  ),
);
const ctx = fc.record(
  {
    cwd: fc.oneof(anyText, fc.constantFrom('/repo', 'C:\\project', '')),
    homeDir: fc.option(anyText, { nil: undefined }),
    projectDir: fc.option(anyText, { nil: undefined }),
  },
  { requiredKeys: ['cwd'] },
);

describe('matching never throws', () => {
  it('compileMatcher / test on arbitrary strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(anyText, fc.anything()),
        fc.constantFrom('standard', 'narrow' as const),
        fc.option(anyText, { nil: undefined }),
        (m, set, value) => {
          const c = compileMatcher(m as string, set as 'standard' | 'narrow');
          expect(['all', 'exact', 'regex', 'invalid']).toContain(c.kind);
          expect(typeof c.test(value)).toBe('boolean');
          if (c.kind === 'invalid') expect(c.test(value)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('parseRule / matchRule on arbitrary rules, tool names, inputs and contexts', () => {
    fc.assert(
      fc.property(ruleText, fc.oneof(fc.constantFrom(...TOOL_NAMES), anyText), toolInput, ctx, (text, tool, input, c) => {
        const parsed = parseRule(text);
        if (!parsed.ok) {
          expect(typeof parsed.error).toBe('string');
          return;
        }
        expect(typeof matchRule(parsed.rule, tool, input, c)).toBe('boolean');
      }),
      { numRuns: 1000 },
    );
  });

  it('matchRule on garbage rules and arguments', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), fc.anything(), (r, t, i, c) => {
        expect(typeof matchRule(r as Rule, t as string, i, c as { cwd: string })).toBe('boolean');
      }),
    );
  });

  it('extractToolPaths on arbitrary tool names and inputs', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...TOOL_NAMES), fc.anything()), toolInput, (tool, input) => {
        const paths = extractToolPaths(tool as string, input);
        expect(Array.isArray(paths)).toBe(true);
        for (const p of paths) expect(typeof p === 'string' && p.length > 0).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('matching invariants', () => {
  it('an exact-set name always matches itself', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abcXYZ019_'), minLength: 1, maxLength: 20 }), (name) => {
        expect(compileMatcher(name, 'standard').test(name)).toBe(true);
        expect(compileMatcher(name, 'narrow').test(name)).toBe(true);
      }),
    );
  });

  it('a bare tool rule matches its tool whatever the input', () => {
    fc.assert(
      fc.property(fc.constantFrom('Bash', 'Edit', 'Read', 'WebFetch', 'Agent'), toolInput, (tool, input) => {
        const parsed = parseRule(tool);
        expect(parsed.ok && matchRule(parsed.rule, tool, input, { cwd: '/repo' })).toBe(true);
      }),
    );
  });

  it('`Bash(<name> *)` matches `<name> <args>` for any simple name and arguments', () => {
    const word = fc.string({ unit: fc.constantFrom(...'abcdefxyz0123-_.'), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(
        word.filter((w) => !w.startsWith('-')),
        fc.array(word, { maxLength: 4 }),
        (name, args) => {
          const parsed = parseRule(`Bash(${name} *)`);
          expect(parsed.ok && matchRule(parsed.rule, 'Bash', { command: ['true &&', name, ...args].join(' ') }, { cwd: '/' })).toBe(true);
        },
      ),
    );
  });
});
