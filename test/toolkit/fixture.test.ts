import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadFixture, parseFixture, completePayload } from '../../src/toolkit/fixture.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

const inline = { PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] };
const okCase = { name: 'a', event: 'PreToolUse', hooks: inline, payload: { tool_name: 'Bash', tool_input: {} } };

function errorsOf(file: string, value: unknown) {
  const r = parseFixture(file, typeof value === 'string' ? value : JSON.stringify(value));
  return r.errors.map((e) => `${e.path}: ${e.message}`);
}

describe('fixture files: validation', () => {
  it('accepts the documented JSON shape', () => {
    const r = parseFixture(
      dir.path('x.test.json'),
      JSON.stringify({ cases: [{ ...okCase, permissionMode: 'plan', env: { A: '1' }, expect: { blocked: false } }] }),
    );
    expect(r.errors).toEqual([]);
    expect(r.fixture!.format).toBe('json');
    expect(r.fixture!.cases[0]).toMatchObject({
      index: 0,
      name: 'a',
      event: 'PreToolUse',
      permissionMode: 'plan',
      env: { A: '1' },
      cwd: dir.root,
      expect: { blocked: false },
    });
    expect(r.fixture!.cases[0]!.hooks).toEqual({ value: inline, at: 'cases[0].hooks' });
  });

  it('unknown keys are path-qualified, with the nearest valid key', () => {
    expect(errorsOf('x.test.json', { cases: [okCase, okCase, { ...okCase, name: 'c', expect: { decison: 'deny' } }] })).toContain(
      'cases[2].expect.decison: unknown key (did you mean "decision"?)',
    );
    expect(errorsOf('x.test.json', { case: [] })).toEqual([
      'cases: missing required field (expected array)',
      'case: unknown key (did you mean "cases"?)',
    ]);
    expect(errorsOf('x.test.json', { defaults: { setting: 'a.json' }, cases: [] })).toEqual([
      'defaults.setting: unknown key (did you mean "settings"?)',
    ]);
    expect(errorsOf('x.test.json', { cases: [{ ...okCase, expect: { hooks: [{ outcom: 'success' }] } }] })).toEqual([
      'cases[0].expect.hooks[0].outcom: unknown key (did you mean "outcome"?)',
    ]);
  });

  it('wrong types and values say what was expected and what was found', () => {
    expect(errorsOf('x.test.json', { cases: [{ ...okCase, expect: { blocked: 'yes', decision: 'dney' } }] })).toEqual([
      'cases[0].expect.blocked: expected boolean, got "yes"',
      'cases[0].expect.decision: expected one of "allow", "deny", "ask", "defer", "block", got "dney" (did you mean "deny"?)',
    ]);
    expect(errorsOf('x.test.json', { cases: [{ ...okCase, settings: 3 }] })).toEqual([
      'cases[0].settings: expected a path or a list of paths, got 3',
    ]);
    expect(errorsOf('x.test.json', { cases: [{ ...okCase, name: '' }] })).toEqual(['cases[0].name: must not be empty']);
  });

  it('unknown events get a hint; duplicate names are refused', () => {
    expect(errorsOf('x.test.json', { cases: [{ ...okCase, event: 'PreTooluse' }] })).toEqual([
      'cases[0].event: unknown event "PreTooluse" (did you mean "PreToolUse"?)',
    ]);
    expect(errorsOf('x.test.json', { cases: [okCase, { ...okCase }] })).toEqual(['cases[1].name: duplicate case name "a" (also cases[0])']);
  });

  it('inline hooks are validated like settings, rooted at the case', () => {
    const bad = { PreToolUse: [{ matchr: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] };
    expect(errorsOf('x.test.json', { cases: [{ ...okCase, hooks: bad }] })).toEqual([
      'cases[0].hooks.PreToolUse[0].matchr: unknown key "matchr" (did you mean "matcher"?)',
    ]);
    expect(errorsOf('x.test.json', { defaults: { hooks: { PreTooluse: [] } }, cases: [] })).toEqual([
      'defaults.hooks.PreTooluse: unknown event "PreTooluse" (did you mean "PreToolUse"?)',
    ]);
  });

  it('payloads are validated against the event input with the common fields filled', () => {
    expect(errorsOf('x.test.json', { cases: [{ ...okCase, payload: { tool_name: 'Bash' } }] })).toEqual([
      'cases[0].payload.tool_input: missing required field (expected record)',
    ]);
    expect(
      errorsOf('x.test.json', {
        cases: [{ ...okCase, event: 'Stop', hooks: { Stop: inline.PreToolUse }, payload: { stop_hook_active: 'no' } }],
      }),
    ).toEqual(['cases[0].payload.stop_hook_active: expected boolean, got "no"']);
  });

  it('a case needs hooks under test', () => {
    expect(errorsOf('x.test.json', { cases: [{ name: 'a', event: 'Stop', payload: { stop_hook_active: false } }] })).toEqual([
      'cases[0]: no hooks under test: give "hooks", "settings" or "plugins" (here or in "defaults")',
    ]);
  });

  it('invalid regular expressions are refused where they are written', () => {
    expect(errorsOf('x.test.json', { cases: [{ ...okCase, expect: { reason: '/(/', additionalContext: ['ok', '/[/'] } }] })).toEqual([
      expect.stringMatching(/^cases\[0\]\.expect\.reason: invalid regular expression \/\(\/: /),
      expect.stringMatching(/^cases\[0\]\.expect\.additionalContext\[1\]: invalid regular expression/),
    ]);
  });

  it('a list item that YAML read as a map is named by its index, with the quoting hint', () => {
    const yaml = `cases:\n  - name: a\n    event: PreToolUse\n    hooks: { PreToolUse: [{ hooks: [{ type: command, command: "true" }] }] }\n    payload: { tool_name: Bash, tool_input: {} }\n    expect:\n      additionalContext:\n        - ok\n        - note: this is a map\n`;
    expect(errorsOf('x.test.yaml', yaml)).toEqual([
      'cases[0].expect.additionalContext[1]: expected a string, got an object (in YAML, text with ": " in it is a map: quote it)',
    ]);
  });

  it('every problem of the file is reported, not only the first', () => {
    const errors = errorsOf('x.test.json', {
      cases: [
        { ...okCase, expect: { decison: 'x' } },
        { ...okCase, name: 'b', event: 'Nope' },
        { ...okCase, name: 'c', payload: {} },
      ],
    });
    expect(errors).toEqual([
      'cases[0].expect.decison: unknown key (did you mean "decision"?)',
      'cases[1].event: unknown event "Nope"',
      'cases[2].payload.tool_name: missing required field (expected string)',
      'cases[2].payload.tool_input: missing required field (expected record)',
    ]);
  });

  it('YAML and JSON syntax errors carry line:column', () => {
    expect(errorsOf('x.test.yaml', 'cases:\n  - name: a\n    reason: a: b\n')).toEqual([
      expect.stringMatching(/^\(root\): invalid YAML at 3:13: /),
    ]);
    expect(errorsOf('x.test.json', '{"cases": [,]}')).toEqual([expect.stringMatching(/^\(root\): invalid JSON at 1:12: /)]);
  });

  it('paths are relative to the fixture file; defaults apply field by field; env merges', () => {
    const file = dir.path('sub', 'x.test.yaml');
    const r = parseFixture(
      file,
      [
        'defaults:',
        '  settings: ../settings.json',
        '  plugins: [../p1, ../p2]',
        '  cwd: ..',
        '  env: { A: "1", B: "2" }',
        '  permissionMode: acceptEdits',
        'cases:',
        '  - { name: a, event: Stop, payload: { stop_hook_active: false } }',
        '  - { name: b, event: Stop, payload: { stop_hook_active: false }, settings: [s2.json], env: { B: "3" }, cwd: ., permissionMode: plan }',
      ].join('\n'),
    );
    expect(r.errors).toEqual([]);
    const [a, b] = r.fixture!.cases;
    expect(a).toMatchObject({
      settings: [dir.path('settings.json')],
      plugins: [dir.path('p1'), dir.path('p2')],
      cwd: dir.root,
      env: { A: '1', B: '2' },
      permissionMode: 'acceptEdits',
    });
    expect(b).toMatchObject({
      settings: [dir.path('sub', 's2.json')],
      plugins: [dir.path('p1'), dir.path('p2')],
      cwd: dir.path('sub'),
      env: { A: '1', B: '3' },
      permissionMode: 'plan',
    });
    expect(completePayload(b!)).toMatchObject({
      session_id: 'agent-hooks-test',
      transcript_path: '',
      cwd: dir.path('sub'),
      hook_event_name: 'Stop',
      permission_mode: 'plan',
    });
  });

  it('loadFixture refuses other extensions and missing files', async () => {
    expect((await loadFixture(join(dir.root, 'x.txt'))).errors[0]!.message).toContain('not a fixture file');
    expect((await loadFixture(join(dir.root, 'missing.test.yaml'))).errors[0]!.message).toBe('cannot read: ENOENT');
  });
});
