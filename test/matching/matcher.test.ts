import { describe, it, expect } from 'vitest';
import { compileMatcher, MAX_REGEX_MATCH_LENGTH } from '../../src/matching/index.js';

const TOOLS = ['Bash', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'NotebookRead', 'Read', 'mcp__memory__create_entities'];
/** Separators for a list of `n` names: `|`, and `,` for some lengths (both split in the standard set). */
const i2s = (n: number) => (n % 2 ? '|' : ',');
const matching = (matcher: string | undefined, values: string[], set: 'standard' | 'narrow' = 'standard') =>
  values.filter((v) => compileMatcher(matcher, set).test(v));

describe('compileMatcher: match all', () => {
  it.each([['*'], [''], [undefined]])('%j matches every value, and a missing value', (m) => {
    const c = compileMatcher(m, 'standard');
    expect(c.kind).toBe('all');
    expect(matching(m, TOOLS)).toEqual(TOOLS);
    expect(c.test(undefined)).toBe(true);
  });

  it('whitespace-only is read as all', () => {
    expect(compileMatcher('   ', 'standard').kind).toBe('all');
  });
});

describe('compileMatcher: exact names (reference matcher table)', () => {
  it('`Bash` matches only the Bash tool', () => {
    const c = compileMatcher('Bash', 'standard');
    expect(c.kind).toBe('exact');
    expect(matching('Bash', [...TOOLS, 'BashOutput', 'xBash'])).toEqual(['Bash']);
  });

  it('`Edit|Write` and `Edit, Write` each match either tool exactly', () => {
    expect(matching('Edit|Write', TOOLS)).toEqual(['Edit', 'Write']);
    expect(matching('Edit, Write', TOOLS)).toEqual(['Edit', 'Write']);
    expect(matching(' Edit ,Write | Read ', TOOLS)).toEqual(['Edit', 'Write', 'Read']);
    expect(compileMatcher('Edit, Write', 'standard').names).toEqual(['Edit', 'Write']);
  });

  it('a long list (past the in-place comparison) and a short one answer alike: trimmed, each name once, in order', () => {
    const names = Array.from({ length: 40 }, (_, i) => `Tool${i}`);
    for (const list of [names.slice(0, 3), names.slice(0, 16), names.slice(0, 17), names]) {
      const written = [...list, ...list.slice(0, 5)].map((n, i) => (i % 3 ? ` ${n} ` : n)).join(i2s(list.length));
      const c = compileMatcher(written, 'standard');
      expect(c.kind).toBe('exact');
      expect(c.names).toEqual(list);
      for (const n of list) expect(c.test(n)).toBe(true);
      for (const other of ['Tool', `Tool${list.length}`, ' Tool0', 'tool0', '']) expect(c.test(other)).toBe(false);
      expect(c.test(undefined)).toBe(false);
    }
  });

  it('exact matchers share one test function: a registry of thousands keeps no closure per matcher', () => {
    const [a, b, c] = ['Bash', 'Edit|Write', Array.from({ length: 20 }, (_, i) => `T${i}`).join('|')].map((m) =>
      compileMatcher(m, 'standard'),
    );
    expect(a!.test).toBe(b!.test);
    expect(b!.test).toBe(c!.test);
    expect([a!.test('Bash'), b!.test('Write'), c!.test('T19'), c!.test('Bash')]).toEqual([true, true, true, false]);
  });

  it('`code-reviewer` matches only that agent type (hyphen is in the exact set)', () => {
    expect(matching('code-reviewer', ['code-reviewer', 'senior-code-reviewer', 'code-reviewer-2'])).toEqual(['code-reviewer']);
  });

  it('`mcp__memory` and `mcp__brave-search` are exact and match no tool', () => {
    const tools = ['mcp__memory__create_entities', 'mcp__brave-search__search', 'mcp__memory', 'mcp__brave-search'];
    expect(matching('mcp__memory', tools)).toEqual(['mcp__memory']);
    expect(matching('mcp__brave-search', tools)).toEqual(['mcp__brave-search']);
  });

  it('an exact matcher never matches a missing value', () => {
    expect(compileMatcher('Bash', 'standard').test(undefined)).toBe(false);
    expect(compileMatcher('Edit|Write', 'standard').test(undefined)).toBe(false);
  });

  it('a matcher of separators only names nothing: invalid, never matches', () => {
    for (const m of ['|', ' , |', '||']) {
      const c = compileMatcher(m, 'standard');
      expect(c.kind).toBe('invalid');
      expect(c.error).toMatch(/names nothing/);
      expect(c.test('')).toBe(false);
    }
  });

  it('empty alternatives are dropped', () => {
    expect(matching('Edit||Write|', ['Edit', 'Write', ''])).toEqual(['Edit', 'Write']);
  });
});

describe('compileMatcher: regular expressions (unanchored)', () => {
  it('`^Notebook` matches any tool whose name starts with Notebook', () => {
    expect(compileMatcher('^Notebook', 'standard').kind).toBe('regex');
    expect(matching('^Notebook', TOOLS)).toEqual(['NotebookEdit', 'NotebookRead']);
  });

  it('`Edit.*` matches Edit and NotebookEdit; `^Edit$` only Edit', () => {
    expect(matching('Edit.*', TOOLS)).toEqual(['Edit', 'MultiEdit', 'NotebookEdit']);
    expect(matching('^Edit$', TOOLS)).toEqual(['Edit']);
  });

  it('`mcp__memory__.*` matches every tool of the memory server', () => {
    const tools = ['mcp__memory__create_entities', 'mcp__memory__read_graph', 'mcp__memory2__x', 'mcp__github__search'];
    expect(matching('mcp__memory__.*', tools)).toEqual(['mcp__memory__create_entities', 'mcp__memory__read_graph']);
  });

  it('`mcp__brave-search__.*` matches a hyphenated server', () => {
    expect(matching('mcp__brave-search__.*', ['mcp__brave-search__web', 'mcp__brave__web'])).toEqual(['mcp__brave-search__web']);
  });

  it('`mcp__.*__write.*` matches write tools of any server', () => {
    const tools = ['mcp__fs__write_file', 'mcp__db__write', 'mcp__fs__read_file', 'Write'];
    expect(matching('mcp__.*__write.*', tools)).toEqual(['mcp__fs__write_file', 'mcp__db__write']);
  });

  it('plugin-scoped MCP server names match with their scoped prefix only', () => {
    const tools = ['mcp__plugin_my-plugin_db__query', 'mcp__db__query'];
    expect(matching('mcp__plugin_my-plugin_db__.*', tools)).toEqual(['mcp__plugin_my-plugin_db__query']);
    expect(matching('mcp__db__.*', tools)).toEqual(['mcp__db__query']);
  });

  it('`^my-plugin:reviewer$` (a colon) is a regex anchored by the author', () => {
    expect(matching('^my-plugin:reviewer$', ['my-plugin:reviewer', 'x-my-plugin:reviewer'])).toEqual(['my-plugin:reviewer']);
  });

  it('a regex matcher never matches a missing value', () => {
    expect(compileMatcher('.*', 'standard').test(undefined)).toBe(false);
  });

  it('caps the tested length (documented guard against runaway regexes)', () => {
    const c = compileMatcher('x$', 'standard');
    expect(c.test(`${'a'.repeat(10)}x`)).toBe(true);
    expect(c.test(`${'a'.repeat(MAX_REGEX_MATCH_LENGTH)}x`)).toBe(false);
  });
});

describe('compileMatcher: invalid regular expression', () => {
  it.each([['['], ['(unclosed'], ['a**'], ['*Edit']])('%j never matches and reports an error', (m) => {
    const c = compileMatcher(m, 'standard');
    expect(c.kind).toBe('invalid');
    expect(c.error).toMatch(/invalid regular expression/);
    expect(c.source).toBe(m);
    for (const v of [...TOOLS, m, '', '[']) expect(c.test(v)).toBe(false);
    expect(c.test(undefined)).toBe(false);
  });

  it('a non-string matcher is invalid, not a crash', () => {
    const c = compileMatcher(42 as unknown as string, 'standard');
    expect(c.kind).toBe('invalid');
    expect(c.test('42')).toBe(false);
  });
});

describe('compileMatcher: narrow exact set (FileChanged, StopFailure)', () => {
  it('`.env` stays a regex: it matches `.env` and anything containing it', () => {
    const c = compileMatcher('.env', 'narrow');
    expect(c.kind).toBe('regex');
    expect(matching('.env', ['.env', '.envrc', 'xenv', 'env'], 'narrow')).toEqual(['.env', '.envrc', 'xenv']);
  });

  it('`.envrc|.env` is a regex alternation', () => {
    expect(compileMatcher('.envrc|.env', 'narrow').kind).toBe('regex');
    expect(matching('.envrc|.env', ['.envrc', '.env', 'package.json'], 'narrow')).toEqual(['.envrc', '.env']);
  });

  it('letters, digits, `_` and `|` are exact, split on `|` only', () => {
    const c = compileMatcher('rate_limit|overloaded', 'narrow');
    expect(c.kind).toBe('exact');
    expect(matching('rate_limit|overloaded', ['rate_limit', 'overloaded', 'rate_limit_x', 'server_error'], 'narrow')).toEqual([
      'rate_limit',
      'overloaded',
    ]);
  });

  it('a hyphen, space or comma keeps a narrow matcher on the regex path', () => {
    expect(compileMatcher('rate-limit', 'narrow').kind).toBe('regex');
    expect(matching('rate-limit', ['rate-limit', 'x-rate-limit-y'], 'narrow')).toEqual(['rate-limit', 'x-rate-limit-y']);
    // A comma is not a separator here: `a,b` is the literal regex "a,b".
    expect(matching('rate_limit,overloaded', ['rate_limit', 'overloaded', 'rate_limit,overloaded'], 'narrow')).toEqual([
      'rate_limit,overloaded',
    ]);
    expect(matching('rate_limit, overloaded', ['rate_limit', 'overloaded'], 'narrow')).toEqual([]);
    // The same text in the standard set is an exact list.
    expect(matching('rate_limit, overloaded', ['rate_limit', 'overloaded'], 'standard')).toEqual(['rate_limit', 'overloaded']);
  });
});
