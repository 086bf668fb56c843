/** The lean copies stay in step with their sources; matcher modes behave as each agent's. */
import { describe, expect, test } from 'vitest';
import { defaultManagedSettingsPath, loadConfig } from '../../src/config/index.js';
import { CANONICAL_EVENTS } from '../../src/agents/claude/facts.js';
import { DIALECTS, DIALECT_NAMES } from '../../src/agents/all.js';
import { readMatcher, writeMatcher } from '../../src/agents/shared/facts.js';
import { discoveryFiles } from '../../src/dispatch/dispatch.js';
import { EVENT_NAMES, isEventName } from '../../src/events/catalog.js';
import { compileMatcherFor } from '../../src/matching/modes.js';
import type { MatcherMode } from '../../src/types.js';
import { tempDir } from '../helpers/tmp.js';

test('the lean event list equals the catalog', () => {
  expect([...CANONICAL_EVENTS]).toEqual(EVENT_NAMES);
});

test('every mapped event is a catalog event', () => {
  for (const name of DIALECT_NAMES)
    for (const e of DIALECTS[name].events) if (e.event) expect(isEventName(e.event), `${name} ${e.native}`).toBe(true);
});

test("dispatch's fast path reads the files the loader discovers", async () => {
  const dir = tempDir('agent-hooks-discovery-');
  try {
    const home = dir.path('home');
    const project = dir.path('project');
    const [managed, user, proj, local] = discoveryFiles(project, home);
    for (const p of ['linux', 'darwin', 'win32'] as const) expect(discoveryFiles(project, home, p)[0]).toBe(defaultManagedSettingsPath(p));
    expect(managed).toBe(defaultManagedSettingsPath());
    const hooks = (cmd: string) => ({ hooks: { Stop: [{ hooks: [{ type: 'command', command: cmd }] }] } });
    for (const [f, cmd] of [
      [user!, 'u'],
      [proj!, 'p'],
      [local!, 'l'],
    ] as const)
      dir.json(f.slice(dir.root.length + 1), hooks(cmd));
    const c = await loadConfig({
      cwd: project,
      homeDir: home,
      discover: true,
      managedSettingsPath: dir.path('none.json'),
      unsafeSkipTrustGate: true,
    });
    expect(c.hooks.map((h) => h.source.file)).toEqual([user, proj, local]);
  } finally {
    dir.cleanup();
  }
});

describe('matcher modes', () => {
  const t = (m: string | undefined, mode: MatcherMode, v: string) => compileMatcherFor(m, mode).test(v);
  test('Kimi: always regex, invalid never matches, empty matches all', () => {
    expect(t('Bash', 'regex', 'BashOutput')).toBe(true);
    expect(t('[', 'regex', '[')).toBe(false);
    expect(t('', 'regex', 'x')).toBe(true);
  });
  test('Gemini: regex, invalid → exact; lifecycle exact', () => {
    expect(t('read_.*', 'regex-or-exact', 'read_file')).toBe(true);
    expect(t('[', 'regex-or-exact', '[')).toBe(true);
    expect(t('start', 'exact', 'startup')).toBe(false);
  });
  test('Copilot: anchored', () => {
    expect(t('bash|edit', 'regex-anchored', 'bash')).toBe(true);
    expect(t('bash', 'regex-anchored', 'bashx')).toBe(false);
  });
  test('Codex: narrow exact set', () => {
    expect(t('Edit, Write', 'claude-narrow', 'Edit')).toBe(false); // a regex there: "Edit, Write" as a pattern
    expect(t('Edit|Write', 'claude-narrow', 'Write')).toBe(true);
    expect(t('Edit, Write', 'claude', 'Write')).toBe(true);
  });
  test('written name lists read back as the same names in every mode', () => {
    for (const mode of ['claude', 'claude-narrow', 'regex', 'regex-or-exact', 'regex-anchored'] as MatcherMode[]) {
      const w = writeMatcher({ kind: 'names', names: ['Bash', 'mcp__x__y'] }, mode);
      expect(readMatcher(w.matchers[0], mode), mode).toEqual({ kind: 'names', names: ['Bash', 'mcp__x__y'] });
      for (const v of ['Bash', 'mcp__x__y']) expect(compileMatcherFor(w.matchers[0], mode).test(v), `${mode} ${v}`).toBe(true);
      expect(compileMatcherFor(w.matchers[0], mode).test('BashOutput'), mode).toBe(false);
    }
  });
});
